/**
 * What the product refuses on the emulated ESP32 before anything is written, and a chip that never
 * boots: a profile the chip's Espruino cannot serve (here, one asking for a newer Espruino than the
 * chip's 2v06.63) is refused by `npm run upload` in one line that says what to do, and the flash file
 * stays byte for byte as it was; an emulated chip that gives no Espruino prompt fails with the path of
 * QEMU's log.
 */
import { describe, expect, inject, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeFlashImage, startChip, waitForPrompt } from "../src/host/node/emulatedChip/qemuChip";
import { chipKit } from "./chip-fixtures";

describe("the emulated ESP32 refuses before it writes", () => {
  it("a profile that needs a newer Espruino than the chip's: one line, what to do, nothing written", () => {
    // Run by the tier's global set-up on the chip Espruino was just installed on, before the upload
    // (test/chip-global-setup.ts, step 2): `npm run upload` with boards/esp32.json asking for 2v07.
    const r = inject("refusedUpload");
    expect(r.code).toBe(1);
    const failed = r.out.split("\n").filter((l) => l.startsWith("upload failed: "));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/\(Espruino 2v06\.63 on ESP32\) does not fit .*needs-2v07\.json: this board runs Espruino 2v06\.63; .* needs 2v07 or later.*Install a newer Espruino on it first.*Nothing was sent\.$/);
    expect(r.out).not.toMatch(/^built /m);
    expect(r.flashUnchanged).toBe(true);
  });

  it("a chip that gives no Espruino prompt fails naming QEMU's log", async () => {
    const blank = join(mkdtempSync(join(tmpdir(), "pet-chip-test-")), "blank.bin");
    await makeFlashImage(chipKit(), blank, "erased");
    const silent = await startChip(chipKit(), blank);
    try {
      await expect(waitForPrompt(silent, 5_000)).rejects.toThrow(/gave no Espruino prompt within 5 s \(QEMU's log: .*blank\.bin\.qemu\.log/);
    } finally {
      // Cut rather than stopped: nothing on a blank chip to keep, and QEMU in the ROM takes 5 s to quit.
      await silent.powerCut(undefined, true);
    }
  });
});
