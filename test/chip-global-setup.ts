/**
 * vitest global setup of the emulated-ESP32 tier (vitest.chip.config.ts): finds the kit and its QEMU
 * (ESP32_QEMU; without them the run fails in one line saying how to get them), then takes the chip
 * once from erased to running the pet, as a person does, through the documented commands and the
 * product's own:
 *
 * 1. Espruino 2v06.63 installed on an erased 4 MiB flash by the esptool commands docs/firmware.md
 *    gives, run as written with the kit's esptool against the chip in its download mode (the board on
 *    a socket instead of /dev/ttyUSB0; DTR and RTS mean nothing there, so the chip is started in its
 *    download mode for each command, as a board's auto-reset would put it); then the emulator's own
 *    step, the radios-off NVS written into the flash file (writeRadiosOffNvs, test/chip-esptool.ts).
 * 2. The chip booted, and `npm run upload -- --port tcp://...` asked for a profile that needs a newer
 *    Espruino than the chip's: it must refuse, writing nothing.
 * 3. `npm run upload -- --port tcp://...` with boards/esp32.json (it identifies the board, builds,
 *    and writes the firmware into Storage in acknowledged pieces), and the chip stopped.
 *
 * Each step's outcome is handed to the test that judges it (inject): the install to
 * chip-install-from-erased-chip.test.ts, the refusal to chip-refuses-what-it-cannot-serve.test.ts,
 * the upload to chip-pet-on-espruino-esp32.test.ts. Done once here because each step is a chip's
 * boot or a transfer (about 45 s together on the emulated chip) that the tier would otherwise repeat.
 * The tests each start from a copy of the uploaded flash (inject("chipImage")). A step that fails
 * here fails the run, saying which and why.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { findKit, KitMissing, makeFlashImage, startChip, waitForPrompt, type Chip, type Kit } from "../src/host/node/emulatedChip/qemuChip";
import { documentedInstallCommands, makeRelease, runEsptool, writeRadiosOffNvs } from "./chip-esptool";

const ROOT = join(__dirname, "..");

/** One documented esptool command as it ran against the emulated chip. */
export interface EsptoolRun {
  args: string[];
  code: number;
  out: string;
  ms: number;
}

/** Step 1's outcome: the documented commands, how each ran, the release folder, the flash as esptool left it, and the boot after. */
export interface CliInstall {
  commands: string[][];
  runs: EsptoolRun[];
  releaseDir: string;
  flashAfterEsptool: string;
  /** Milliseconds from power-on to Espruino's prompt, on the flash esptool wrote (with the radios-off NVS). */
  bootMs: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** A flash file with Espruino and the pet uploaded (the chip stopped cleanly after the upload). */
    chipImage: string;
    /** What `npm run upload` printed. */
    uploadOutput: string;
    /** The kit's folder and QEMU. */
    chipKit: { dir: string; qemu: string };
    /** Step 1: the install by docs/firmware.md's esptool commands. */
    cliInstall: CliInstall;
    /** Step 2: the refused upload: its exit status, what it printed, and whether the flash file stayed byte for byte. */
    refusedUpload: { code: number; out: string; flashUnchanged: boolean };
  }
}

let workDir = "";

function npmUpload(chip: Chip, board: string): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile("npm", ["run", "-s", "upload", "--", "--port", chip.consoleUrl], { cwd: ROOT, timeout: 300_000, env: { ...process.env, BOARD: board } }, (e, out, err) =>
      done({ code: e ? (typeof e.code === "number" ? e.code : -1) : 0, out: String(out) + String(err) }),
    );
  });
}

/** Step 1: the esptool commands of docs/firmware.md on the erased `image`. */
async function installAsDocumented(kit: Kit, image: string): Promise<CliInstall> {
  const releaseDir = makeRelease(kit, workDir);
  const commands = documentedInstallCommands(readFileSync(join(ROOT, "docs", "firmware.md"), "utf8"));
  if (commands.length === 0) throw new Error("docs/firmware.md gives no esptool command under \"Installing Espruino on an ESP32\"");
  await makeFlashImage(kit, image, "erased");
  const runs: EsptoolRun[] = [];
  let port: number | undefined;
  for (const args of commands) {
    const t0 = Date.now();
    const c = await startChip(kit, image, { download: true, port });
    port = c.port;
    try {
      const r = await runEsptool(kit, args.slice(1).map((a) => (a === "/dev/ttyUSB0" ? "socket://127.0.0.1:" + c.port : a)), { cwd: releaseDir });
      runs.push({ args, code: r.code, out: r.out + r.err, ms: Date.now() - t0 });
      if (r.code !== 0) break;
    } finally {
      await c.stop();
    }
  }
  const flashAfterEsptool = join(workDir, "after-esptool.bin");
  copyFileSync(image, flashAfterEsptool);
  return { commands, runs, releaseDir, flashAfterEsptool, bootMs: 0 };
}

export async function setup(project: TestProject): Promise<void> {
  let kit;
  try {
    kit = await findKit();
  } catch (e) {
    if (e instanceof KitMissing) throw new Error("the emulated-ESP32 tier cannot run: " + e.message);
    throw e;
  }
  workDir = mkdtempSync(join(tmpdir(), "pet-chip-"));
  const image = join(workDir, "installed.bin");
  const install = await installAsDocumented(kit, image);
  project.provide("cliInstall", install);
  const failed = install.runs.find((r) => r.code !== 0);
  if (failed) throw new Error("the tier's install by docs/firmware.md's esptool commands failed at " + failed.args.join(" ") + ":\n" + failed.out.trim().split("\n").slice(-15).join("\n"));
  await writeRadiosOffNvs(kit, image);

  const t0 = Date.now();
  const chip = await startChip(kit, image);
  let output = "";
  try {
    await waitForPrompt(chip);
    install.bootMs = Date.now() - t0;
    project.provide("cliInstall", install);

    // Step 2: a profile asking for a newer Espruino than the chip's 2v06.63.
    const profile = JSON.parse(readFileSync(join(ROOT, "boards", "esp32.json"), "utf8")) as { espruino: { minVersion: string }; $schema?: string };
    profile.espruino.minVersion = "2v07";
    delete profile.$schema;
    const needsNewer = join(workDir, "needs-2v07.json");
    writeFileSync(needsNewer, JSON.stringify(profile));
    const before = readFileSync(image);
    const refused = await npmUpload(chip, needsNewer);
    project.provide("refusedUpload", { code: refused.code, out: refused.out, flashUnchanged: readFileSync(image).equals(before) });

    // Step 3: the upload.
    const r = await npmUpload(chip, "");
    if (r.code !== 0) throw new Error("npm run upload to the emulated ESP32 failed: " + r.out.trim() + " (QEMU's log: " + chip.log + ")");
    output = r.out;
  } finally {
    await chip.stop();
  }
  const template = join(workDir, "uploaded.bin");
  copyFileSync(image, template);
  project.provide("chipImage", template);
  project.provide("uploadOutput", output);
  project.provide("chipKit", kit);
}

export function teardown(): void {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}
