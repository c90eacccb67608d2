/**
 * The kit's esptool for the emulated-ESP32 tier (its global set-up and test/chip-install-from-erased-chip.test.ts):
 * running it, and the emulator's own step of writing the radios-off NVS partition.
 */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { closeSync, copyFileSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { makeFlashImage, type Kit } from "../src/host/node/emulatedChip/qemuChip";

/** Debian's python3, which has pyserial (a python3 earlier on PATH, pyenv's, may not); the kit's esptool needs it. */
export const ESPTOOL_PYTHON = "/usr/bin/python3";

/** The kit's esptool (tools/esptool.py, esptool v3.3.3) with `args`, in `cwd`; never rejects. */
export function runEsptool(kit: Kit, args: string[], { cwd, timeoutMs = 300_000 }: { cwd?: string; timeoutMs?: number } = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(ESPTOOL_PYTHON, [join(kit.dir, "tools", "esptool.py"), ...args], { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (e, out, err) =>
      done({ code: e ? (typeof e.code === "number" ? e.code : 1) : 0, out: String(out), err: String(err) }),
    );
  });
}

/** The address of the NVS partition in Espruino's ESP32 partition tables. */
export const NVS_ADDRESS = 0x9000;

/**
 * The emulator's own step after Espruino is written to an erased flash, and no board's: the kit's
 * radios-off NVS partition (mkimage.py --nvs) written at 0x9000 into the flash file while the chip
 * is off (as esptool would write it: the same bytes at the same place, without the 6 s of a
 * download-mode start and a transfer). QEMU emulates neither WiFi nor BT, and Espruino 2v06 with a
 * blank NVS (BLE on, as on a freshly flashed board) stops in a ROM assert there (the kit's README).
 * A board boots with its blank NVS.
 */
export async function writeRadiosOffNvs(kit: Kit, image: string): Promise<void> {
  const nvs = resolve(image) + ".nvs.bin";
  await makeFlashImage(kit, nvs, "nvs");
  const bytes = readFileSync(nvs);
  const fd = openSync(image, "r+");
  try {
    writeSync(fd, bytes, 0, bytes.length, NVS_ADDRESS);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Espruino's ESP32 release as espruino.com ships it (a folder of three files), made from the kit's files. */
export const RELEASE = "espruino_2v06.63_esp32";
/** The release's files and the addresses docs/firmware.md writes them at. */
export const RELEASE_FILES = [
  { name: "bootloader.bin", address: 0x1000 },
  { name: "partitions_espruino.bin", address: 0x8000 },
  { name: "espruino_esp32.bin", address: 0x10000 },
];

/** The release folder RELEASE in `dir`, its files copied from the kit; answers the folder. */
export function makeRelease(kit: Kit, dir: string): string {
  const folder = join(dir, RELEASE);
  mkdirSync(folder, { recursive: true });
  for (const f of RELEASE_FILES) copyFileSync(join(kit.dir, "fw", f.name), join(folder, f.name));
  return folder;
}

/**
 * The esptool commands in docs/firmware.md's "Installing Espruino on an ESP32", as argument lists
 * (lines indented as code, continued with a backslash, starting with esptool.py); [] when the
 * section is missing.
 */
export function documentedInstallCommands(doc: string): string[][] {
  const start = doc.indexOf("\n## Installing Espruino on an ESP32");
  if (start < 0) return [];
  const end = doc.indexOf("\n## ", start + 1);
  const code = doc
    .slice(start, end < 0 ? undefined : end)
    .split("\n")
    .filter((l) => l.startsWith("    "))
    .join("\n")
    .replace(/\\\n/g, " ");
  return code
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((a) => a[0] === "esptool.py");
}
