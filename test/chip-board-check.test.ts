/**
 * `npm run board-check -- --json` against Espruino's own ESP32 firmware in the emulated chip, with
 * the pet running: the chip fits boards/esp32.json (2v06.63, Storage 256 KiB at 0x320000, the pet's
 * region free at 0x310000), its region reads as pet-save inspect reads the flash file, every timing
 * is taken (by the chip's own clock, which under emulation is not a board's), the pet is as it was,
 * and nothing outside the pet's region changed in the flash file.
 */
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import type { Chip } from "../src/host/node/emulatedChip/qemuChip";
import { bootChip, installedImage, runCommand } from "./chip-fixtures";

const REGION = { address: 0x310000, size: 0x10000 };

/** The flash file's bytes outside the pet's region. */
function outsideRegion(image: string): Buffer {
  const f = readFileSync(image);
  return Buffer.concat([f.subarray(0, REGION.address), f.subarray(REGION.address + REGION.size)]);
}

describe("board-check on the emulated ESP32", () => {
  const image = installedImage();
  let chip: Chip | null = null;
  afterAll(async () => {
    await chip?.stop();
  });

  it("fits, reads the region, times the pet beside the floor, and writes nothing outside the region", async () => {
    chip = await bootChip(image);
    const before = outsideRegion(image);
    const r = await runCommand("npm", ["run", "-s", "board-check", "--", "--port", chip.consoleUrl, "--json", "--runs", "1"]);
    expect(r.code, r.err + r.out).toBe(0);
    const j = JSON.parse(r.out) as {
      board: string;
      version: string;
      fits: boolean;
      reported: { storage: number };
      region: { address: number; size: number; free: boolean; contents: { current: { status: string; payload: { name: string } } } };
      timings: Record<string, number | null>;
      failures: string[];
      pet: { checkSave: string };
    };
    expect(j.board).toBe("ESP32");
    expect(j.version).toBe("2v06.63");
    expect(j.fits).toBe(true);
    expect(j.reported.storage).toBe(262144);
    expect(j.region).toMatchObject({ address: REGION.address, size: REGION.size, free: true });
    expect(j.region.contents.current.status).toBe("ok");
    expect(j.region.contents.current.payload.name).toBe("Pip");
    for (const k of ["petSaveMs", "floorSaveMs", "restoreMs", "floorRestoreMs", "statusMs", "floorEncodeMs", "tickMs"]) expect(j.timings[k], k).toBeGreaterThan(0);
    expect(j.failures).toEqual([]);
    expect(j.pet.checkSave).toBe("ok");
    expect(outsideRegion(image).equals(before)).toBe(true);
  });
});
