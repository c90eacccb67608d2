/**
 * Espruino installed on an erased ESP32 as a person installs it, on the emulated chip (an erased
 * 4 MiB flash), both ways the docs give, from an Espruino ESP32 release made here from the kit's
 * files (2v06.63, in the shape of espruino.com's .tgz):
 *
 * - The page: its Device tab's installer (esptool-js in Chromium) through a stand-in Web Serial port
 *   bridged to the chip's console (test/chip-usb-serial-bridge.ts: the reset lines restart the chip
 *   into its download mode or from flash, as a dev board's auto-reset does) installs the release,
 *   with the flasher stub of the kit's esptool in place of esptool-js's, which the emulated chip
 *   cannot run (test/chip-page-with-kit-stub.ts says why); the
 *   flash then holds the three files at their addresses; the chip boots Espruino, and the page
 *   connects (Espruino 2v06.63, supported), uploads the pet in the function form that version needs,
 *   and shows it; it is renamed there. Then the power is cut (QEMU killed) while the pet saves again
 *   and again, and `pet-save inspect` on the flash file finds the last save the chip confirmed before
 *   the cut, no slot mixed; the chip powered on again restores that pet, and the page shows it.
 * - The command line: the esptool commands of docs/firmware.md, read from the page and run as
 *   written with the kit's esptool against the chip in its download mode, by the tier's global
 *   set-up (test/chip-global-setup.ts, which says how), since the flash they make is the one the rest
 *   of the tier uploads the pet to and plays on: here, each command succeeded, the flash then held
 *   the three files at their addresses and equals, byte for byte, the kit's mkimage.py image, and the
 *   chip booted Espruino 2v06.63 from it (the upload found that Espruino there).
 * One step is the emulator's and no board's, in both: after Espruino is written, the kit's radios-off
 * NVS partition is written at 0x9000 into the flash file, the chip off (writeRadiosOffNvs: QEMU emulates neither
 * radio, and Espruino 2v06 with a blank NVS stops there; a board boots with its blank NVS).
 *
 * Timings are printed; they are the emulator's on this host, not a board's.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeFlashImage, type Chip } from "../src/host/node/emulatedChip/qemuChip";
import { makeRelease, RELEASE, RELEASE_FILES as FILES, writeRadiosOffNvs } from "./chip-esptool";
import type { BoardConsole } from "../src/host/node/serial/boardConsole";
import { chipConsole, chipKit, evaluate, petSave } from "./chip-fixtures";
import { UsbSerialBridge } from "./chip-usb-serial-bridge";
import { openPageWithKitStub, type StubPage } from "./chip-page-with-kit-stub";
import { acceptDialogs, watchErrors } from "./web-page";

const NVS = 0x9000;
/** Where screenshots of the page go, when asked for (PET_CHIP_SHOTS=DIR). */
const SHOTS = process.env.PET_CHIP_SHOTS ?? "";

interface Status {
  name: string;
  updateCount: string;
  storage: string;
}

const kit = chipKit();
const work = mkdtempSync(join(tmpdir(), "pet-install-"));
const releaseTgz = join(work, RELEASE + ".tgz");
const timings: string[] = [];
const since = (t0: number): string => ((Date.now() - t0) / 1000).toFixed(1) + " s";

beforeAll(() => {
  // The release as espruino.com ships it: a folder of the three files in a gzipped tar.
  makeRelease(kit, work);
  execFileSync("tar", ["czf", releaseTgz, "-C", work, RELEASE]);
});

afterAll(() => {
  console.log("install from an erased chip, on the emulated ESP32 (QEMU on this host, not a board's times):\n  " + timings.join("\n  "));
  if (!process.env.PET_CHIP_KEEP) rmSync(work, { recursive: true, force: true });
});

/** What the boots that panicked before Espruino started printed (the emulator starved of CPU), for the record. */
function panics(b: UsbSerialBridge): string {
  const p = b.record.bootPanics;
  return p.length === 0 ? "" : "; " + p.length + " boot(s) panicked or hung before Espruino started and were powered on again, the first with:\n    " + (p[0] as string).split("\n").slice(0, 2).join("\n    ");
}

/** The flash file holds each release file, byte for byte, at its address. */
function expectReleaseWritten(image: string): void {
  const flash = readFileSync(image);
  for (const f of FILES) {
    const bytes = readFileSync(join(chipKit().dir, "fw", f.name));
    expect(flash.subarray(f.address, f.address + bytes.length).equals(bytes), f.name + " at 0x" + f.address.toString(16)).toBe(true);
  }
}

/** The radios-off NVS is only written over a blank NVS, once Espruino is there (the emulator's step). */
async function radiosOffOnceInstalled(image: string): Promise<void> {
  const flash = readFileSync(image);
  if (flash[0x10000] !== 0xe9 || !flash.subarray(NVS, NVS + 0x3000).every((b) => b === 0xff)) return;
  const t0 = Date.now();
  await writeRadiosOffNvs(kit, image);
  timings.push("the emulator's radios-off NVS written into the flash file: " + since(t0));
}

/** pet-save inspect on the flash file: the current save, and no slot that is complete but wrong. */
async function inspectFlash(image: string): Promise<{ name: string; updateCount: bigint; torn: number }> {
  const r = await petSave(["inspect", image, "--json"]);
  expect(r.code, r.err).toBe(0);
  const j = JSON.parse(r.out) as {
    chipOffset: number;
    current: { status: string; payload: { name: string; updateCount: string } | null };
    sectors: { slots: { verdict: string; updateCount?: string }[] }[];
  };
  expect(j.chipOffset).toBe(0x310000);
  expect(j.current.status).toBe("ok");
  const slots = j.sectors.flatMap((s) => s.slots);
  expect(slots.filter((s) => s.verdict === "invalid")).toEqual([]);
  const torn = slots.filter((s) => s.verdict === "torn").length;
  expect(torn).toBeLessThanOrEqual(1);
  const newest = slots.filter((s) => s.verdict === "valid").reduce((m, s) => (BigInt(s.updateCount as string) > m ? BigInt(s.updateCount as string) : m), -1n);
  const current = j.current.payload as { name: string; updateCount: string };
  expect(BigInt(current.updateCount)).toBe(newest);
  return { name: current.name, updateCount: BigInt(current.updateCount), torn };
}

/** Waits until the page shows `done` (a selector), failing at once with what the page said if it shows an error instead. */
async function pageReaches(page: Page, done: string, ms: number): Promise<void> {
  const handle = await page.waitForFunction(
    (sel) => {
      if (document.querySelector(sel)) return "done";
      const esp = document.getElementById("esp-result") as HTMLElement;
      if (esp.dataset.state === "error") return "step 1: " + esp.innerText;
      const info = document.getElementById("dev-info") as HTMLElement;
      if (info.dataset.state === "error" || info.dataset.upload === "failed") return "device: " + info.innerText;
      return null;
    },
    done,
    { timeout: ms, polling: 250 },
  );
  const got = await handle.jsonValue();
  if (got !== "done") {
    const log = ((await page.locator("#esp-log").textContent()) ?? "").split("\n").slice(-25).join("\n");
    expect.fail(got + "\n(esptool's log, last lines:\n" + log + ")");
  }
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, name + ".png"), fullPage: true });
}

describe("Espruino installed on an erased ESP32 as a person does it", () => {
  let fx: StubPage | null = null;
  let bridge: UsbSerialBridge | null = null;
  let con: BoardConsole | null = null;
  afterAll(async () => {
    await con?.close();
    await bridge?.unplug();
    await fx?.close();
  });

  it("by the page: esptool-js writes the release, the chip boots it, the pet is uploaded, a power cut while it saves, and it comes back", async () => {
    const image = join(work, "page-flash.bin");
    await makeFlashImage(kit, image, "erased");
    fx = await openPageWithKitStub(kit);
    const page = await fx.browser.context.newPage();
    const errors = watchErrors(page);
    const dialogs = acceptDialogs(page);
    bridge = new UsbSerialBridge(kit, image, { beforeFlashBoot: radiosOffOnceInstalled });
    await bridge.attach(page);
    await page.goto(fx.url);
    await page.click("#tab-device");
    await bridge.plugIn(); // the erased chip, powered by its USB cable

    await page.setInputFiles("#esp-files", releaseTgz);
    await page.waitForSelector("#esp-result[data-state=ok]");
    const ready = await page.locator("#esp-result").innerText();
    expect(ready).toContain("from " + RELEASE + ".tgz: bootloader.bin, partitions_espruino.bin, espruino_esp32.bin");
    expect(ready).toMatch(/0x8000 +partitions_espruino\.bin \(partition table, 3072 bytes\)/);

    const t0 = Date.now();
    await page.click("#esp-install");
    await pageReaches(page, "#esp-result[data-state=done]", 400_000);
    timings.push("page install (connect, back-up read, write 3 files with MD5, reset, Espruino's boot): " + since(t0) + " (the boot " + bridge.record.bootMs.map((ms) => ms / 1000 + " s").join(", ") + ")");
    const t1 = Date.now();
    await pageReaches(page, "#dev-info[data-upload=done]", 300_000);
    timings.push("page: identify, the backup (what the slot log reads) and the pet's upload: " + since(t1) + panics(bridge));

    // One question, the install's: the upload's backup read of the region (256 flash reads, a quarter
    // of a second each on the emulated chip) went through, page by page, without asking to go on.
    expect(dialogs, dialogs.join("\n---\n")).toHaveLength(1);
    const installQuestion = dialogs[0];
    expect(installQuestion).toMatch(/^Install Espruino on this ESP32-\S+ \(revision \d+\), MAC 00:00:00:00:00:00, flash 4MB \(writing at 921600 baud\)\?/);
    expect(installQuestion).not.toContain("erased first");
    const log = await page.locator("#esp-log").textContent();
    expect(log?.match(/Hash of data verified/g)).toHaveLength(3);
    expect(log).not.toContain("its firmware in flash");
    expect(log).not.toContain("No connection");
    // The chip was put into its download mode by esptool-js's reset, and into Espruino by the page's.
    expect(bridge.record.boots[0]).toBe("flash");
    expect(bridge.record.boots.slice(-2)).toEqual(["download", "flash"]);
    expect(bridge.record.bauds).toContain(921600);
    expectReleaseWritten(image);

    // Identified as what it is, supported, and given the bundle's function form (2v06 has no block scope).
    expect(await page.locator("#step-espruino-state").innerText()).toBe("done: Espruino 2v06.63");
    expect(await page.locator("#dev-info").innerText()).toContain("Uploaded and running");
    expect(await page.getAttribute("#step-pet", "open")).not.toBeNull();
    await page.waitForSelector("#dev-status[data-name=Pip]", { timeout: 30_000 });
    await shot(page, "1-installed-and-uploaded");

    // Renamed on the page, so that the pet that comes back is this one and not a new one.
    await page.fill("#dev-name", "Kiwi");
    await page.click("#dev-rename");
    await page.waitForSelector("#dev-status[data-name=Kiwi]", { timeout: 30_000 });
    await page.click("#dev-disconnect");
    bridge.release();

    // Saving again and again; the power is cut at a random moment after a few confirmed saves.
    con = await chipConsole(bridge.chip as Chip);
    expect(await evaluate<Status>(con, "pet.status()")).toMatchObject({ name: "Kiwi", storage: "ok" });
    // The function form: a head in .bootcde, the body in a file of its own.
    // The head is a short call of a function given Storage and the body file's name (bundleForm.ts).
    const head = await evaluate<string>(con, 'require("Storage").read(".bootcde")');
    expect(head).toMatch(/^\(function\(.*\)\(require\("Storage"\),"petfw\.js"\)$/);
    expect(head.length).toBeLessThan(400);
    expect(await evaluate(con, 'require("Storage").read("petfw.js").length')).toBeGreaterThan(20_000);
    expect(await evaluate(con, "(function(){setInterval(function(){pet.interact();var s=pet.save();print('#cut '+s+' '+pet.status().updateCount)},20);return 1})()")).toBe(1);
    const saves = (): string[] => (con as BoardConsole).lines.map((l) => /#cut ([a-z-]+ \d+)$/.exec(l)).flatMap((m) => (m ? ["#cut " + m[1]] : []));
    const t2 = Date.now();
    while (saves().length < 5 && Date.now() - t2 < 120_000) await new Promise((r) => setTimeout(r, 100));
    const extraMs = Math.floor(Math.random() * 2000);
    await new Promise((r) => setTimeout(r, extraMs));
    const confirmed = saves();
    await (bridge.chip as Chip).powerCut(undefined, true);
    await con.close();
    con = null;
    expect(confirmed.length).toBeGreaterThanOrEqual(5);
    expect(confirmed.every((l) => /^#cut ok \d+$/.test(l)), confirmed.join(" / ")).toBe(true);
    const last = BigInt((confirmed[confirmed.length - 1] as string).split(" ")[2] as string);
    timings.push("saves confirmed before the cut: " + confirmed.length + " in " + since(t2) + ", the cut " + extraMs + " ms after the fifth");

    const onFlash = await inspectFlash(image);
    expect(onFlash.name).toBe("Kiwi");
    expect(onFlash.updateCount).toBeGreaterThanOrEqual(last);

    // Powered on again: the pet restored from the flash, on the chip and on the page.
    const t3 = Date.now();
    const panicsBefore = bridge.record.bootPanics.length;
    await bridge.powerOn();
    timings.push("power on after the cut to Espruino's prompt: " + since(t3) + (bridge.record.bootPanics.length > panicsBefore ? " (with boots that panicked first)" : ""));
    bridge.release();
    con = await chipConsole(bridge.chip as Chip);
    const after = await evaluate<Status>(con, "pet.status()");
    expect(after.name).toBe("Kiwi");
    expect(after.storage).toBe("ok");
    expect(BigInt(after.updateCount)).toBeGreaterThanOrEqual(onFlash.updateCount);
    await con.close();
    con = null;
    await bridge.reconnect();
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-status[data-name=Kiwi]", { timeout: 30_000 });
    await shot(page, "2-back-after-the-cut");
    expect(errors).toEqual([]);
    await bridge.unplug();
    bridge = null;
    await fx.close();
    fx = null;
  });

  it("by the esptool commands of docs/firmware.md: the flash the tier uploads the pet to, and Espruino boots from it", async () => {
    const cli = inject("cliInstall");
    expect(cli.commands.map((c) => c.find((a) => /^[a-z_]+_flash$/.test(a)))).toEqual(["erase_flash", "write_flash"]);
    const write = cli.commands[1] as string[];
    for (const f of FILES) expect(write[write.indexOf(f.name) - 1]).toBe("0x" + f.address.toString(16));
    expect(cli.runs.map((r) => r.args)).toEqual(cli.commands);
    for (const r of cli.runs) {
      expect(r.code, r.out).toBe(0);
      timings.push("command line (the tier's global set-up): esptool.py " + r.args.find((a) => a.endsWith("_flash")) + ": " + (r.ms / 1000).toFixed(1) + " s");
    }
    expect((cli.runs[1] as { out: string }).out.match(/Hash of data verified/g)).toHaveLength(3);
    expectReleaseWritten(cli.flashAfterEsptool);

    // With the emulator's radios-off NVS, the flash is, byte for byte, what the kit's mkimage.py makes
    // (its Espruino, the NVS, the rest erased).
    const image = join(work, "cli-flash.bin");
    copyFileSync(cli.flashAfterEsptool, image);
    await radiosOffOnceInstalled(image);
    const kitImage = join(work, "kit-flash.bin");
    await makeFlashImage(kit, kitImage, "espruino");
    expect(readFileSync(image).equals(readFileSync(kitImage)), "the installed flash equals mkimage.py's").toBe(true);

    // Powered on, the chip booted Espruino 2v06.63 from it: the upload found it there.
    timings.push("command line: power-on to Espruino's prompt: " + (cli.bootMs / 1000).toFixed(1) + " s");
    expect(inject("uploadOutput")).toMatch(/^Espruino 2v06\.63 on ESP32 at tcp:/m);
  });
});
