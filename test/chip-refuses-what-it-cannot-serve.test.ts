/**
 * What the product refuses on the emulated ESP32 before anything is written, and a chip that never
 * boots: a profile the chip's Espruino cannot serve (here, one asking for a newer Espruino than the
 * chip's 2v06.63) is refused by `npm run upload` in one line that says what to do, and the flash file
 * stays byte for byte as it was; an emulated chip that gives no Espruino prompt fails with the path of
 * QEMU's log.
 */
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { makeFlashImage, startChip, waitForPrompt, type Chip } from "../src/host/node/emulatedChip/qemuChip";
import { bootChip, chipKit, installedImage, ROOT, runCommand } from "./chip-fixtures";

describe("the emulated ESP32 refuses before it writes", () => {
  const image = installedImage();
  let chip: Chip | null = null;
  afterAll(async () => {
    await chip?.stop();
  });

  it("a profile that needs a newer Espruino than the chip's: one line, what to do, nothing written", async () => {
    const profile = JSON.parse(readFileSync(join(ROOT, "boards", "esp32.json"), "utf8")) as { espruino: { minVersion: string }; $schema?: string };
    profile.espruino.minVersion = "2v07";
    delete profile.$schema;
    const file = join(dirname(image), "needs-2v07.json");
    writeFileSync(file, JSON.stringify(profile));
    chip = await bootChip(image);
    const before = readFileSync(image);
    const r = await runCommand("npm", ["run", "-s", "upload", "--", "--port", chip.consoleUrl], { BOARD: file });
    expect(r.code).toBe(1);
    const failed = (r.out + r.err).split("\n").filter((l) => l.startsWith("upload failed: "));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/\(Espruino 2v06\.63 on ESP32\) does not fit .*needs-2v07\.json: this board runs Espruino 2v06\.63; .* needs 2v07 or later.*Install a newer Espruino on it first.*Nothing was sent\.$/);
    expect(r.out + r.err).not.toMatch(/^built /m);
    expect(readFileSync(image).equals(before)).toBe(true);
  });

  it("a chip that gives no Espruino prompt fails naming QEMU's log", async () => {
    const blank = join(dirname(image), "blank.bin");
    await makeFlashImage(chipKit(), blank, "erased");
    const silent = await startChip(chipKit(), blank);
    try {
      await expect(waitForPrompt(silent, 5_000)).rejects.toThrow(/gave no Espruino prompt within 5 s \(QEMU's log: .*blank\.bin\.qemu\.log/);
    } finally {
      await silent.powerCut(undefined, true);
    }
  });
});
