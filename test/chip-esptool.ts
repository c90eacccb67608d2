/**
 * The kit's esptool for the emulated-ESP32 tier (test/chip-install-from-erased-chip.test.ts):
 * running it, and the emulator's own step of writing the radios-off NVS partition.
 */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { makeFlashImage, startChip, type Kit } from "../src/host/node/emulatedChip/qemuChip";

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
 * radios-off NVS partition (mkimage.py --nvs) written at 0x9000 with the kit's esptool, the chip
 * started in its download mode for it and stopped after. QEMU emulates neither WiFi nor BT, and
 * Espruino 2v06 with a blank NVS (BLE on, as on a freshly flashed board) stops in a ROM assert
 * there (the kit's README). A board boots with its blank NVS. Resolves with esptool's output; fails
 * saying what esptool said.
 */
export async function writeRadiosOffNvs(kit: Kit, image: string, port?: number): Promise<string> {
  const nvs = resolve(image) + ".nvs.bin";
  await makeFlashImage(kit, nvs, "nvs");
  const chip = await startChip(kit, image, { download: true, port });
  try {
    const r = await runEsptool(kit, ["--chip", "esp32", "--port", "socket://127.0.0.1:" + chip.port, "--before", "no_reset", "--after", "no_reset", "--baud", "921600", "write_flash", "0x" + NVS_ADDRESS.toString(16), nvs]);
    if (r.code !== 0 || !r.out.includes("Hash of data verified")) {
      throw new Error("the kit's esptool did not write the radios-off NVS (status " + r.code + "): " + (r.out + r.err).trim().split("\n").slice(-3).join(" / ") + " (QEMU's log: " + chip.log + ")");
    }
    return r.out;
  } finally {
    await chip.stop();
  }
}
