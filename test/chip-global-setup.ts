/**
 * vitest global setup of the emulated-ESP32 tier (vitest.chip.config.ts): finds the kit and its QEMU
 * (ESP32_QEMU; without them the run fails in one line saying how to get them), then installs the pet
 * once as a person does, through the product's own command: a fresh 4 MiB flash with Espruino 2v06.63
 * as the kit ships it, the chip booted, `npm run upload -- --port tcp://...` (which identifies the
 * board, builds, and writes the firmware into Storage in acknowledged pieces), and the chip stopped.
 * The tests each start from a copy of that flash file (inject("chipImage")), and read what the
 * upload said (inject("uploadOutput")).
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { findKit, KitMissing, makeFlashImage, startChip, waitForPrompt } from "../src/host/node/emulatedChip/qemuChip";

const ROOT = join(__dirname, "..");

declare module "vitest" {
  export interface ProvidedContext {
    /** A flash file with Espruino and the pet uploaded (the chip stopped cleanly after the upload). */
    chipImage: string;
    /** What `npm run upload` printed. */
    uploadOutput: string;
    /** The kit's folder and QEMU. */
    chipKit: { dir: string; qemu: string };
  }
}

let workDir = "";

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
  await makeFlashImage(kit, image);
  const chip = await startChip(kit, image);
  let output = "";
  try {
    await waitForPrompt(chip);
    output = await new Promise<string>((done, fail) => {
      execFile("npm", ["run", "-s", "upload", "--", "--port", chip.consoleUrl], { cwd: ROOT, timeout: 300_000, env: { ...process.env, BOARD: "" } }, (e, out, err) =>
        e ? fail(new Error("npm run upload to the emulated ESP32 failed: " + (String(out) + String(err)).trim() + " (QEMU's log: " + chip.log + ")")) : done(String(out) + String(err)),
      );
    });
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
