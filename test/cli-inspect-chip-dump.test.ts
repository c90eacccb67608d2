/**
 * `pet-save inspect`, `extract` and the page's file check on a dump of a whole chip's flash (what
 * `esptool.py read_flash 0 0x400000` writes, and what the emulated ESP32's flash file is): the pet
 * region is read at its own address (0x310000 on the ESP32), and what is there is told as for a
 * region image. A dump of another size, or one whose region holds foreign bytes, is told so.
 */
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../src/host/node/cli";
import type { RegionJson } from "../src/inspect/regionReport";
import { describeFile } from "../src/web/checkFile/fileView";
import { readProfile } from "../src/host/node/cli/regionFile";
import { ROOT } from "./serial-fake-board";
import { cleanImage, memoryIo, tempDir } from "./region-tools-fixtures";

const dir = tempDir("pet-chip-dump-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHIP = 4 * 1024 * 1024;
const REGION_AT = 0x310000;

/** A 4 MiB chip: erased, with "firmware" bytes below the region, and `region` (64 KiB) at 0x310000. */
function chipDump(name: string, region: Uint8Array | null): string {
  const chip = new Uint8Array(CHIP).fill(0xff);
  for (let i = 0x1000; i < 0x1000 + 50000; i++) chip[i] = (i * 7) & 0xff; // a bootloader and app, anything
  if (region !== null) chip.set(region, REGION_AT);
  const path = join(dir, name);
  writeFileSync(path, chip);
  return path;
}

describe("a whole chip's flash dump", () => {
  it("inspect reads the ESP32's pet region at 0x310000 and names where it was found", async () => {
    const path = chipDump("chip.bin", cleanImage().sim.image());
    const io = memoryIo();
    expect(await main(["inspect", path, "--json"], io), io.err).toBe(0);
    const j = JSON.parse(io.out) as RegionJson & { chipOffset: number };
    expect(j.chipOffset).toBe(REGION_AT);
    expect(j.board).toMatch(/^ESP32/);
    expect(j.current).toMatchObject({ status: "ok", sector: 0, slot: 2 });
    expect(j.current.payload).toMatchObject({ name: "Mochi", updateCount: "3" });
    const text = memoryIo();
    expect(await main(["inspect", path], text)).toBe(0);
    expect(text.out).toContain("(the pet region at 0x310000 of a 4 MiB flash dump)");
  });

  it("extract writes the current save of the region inside the dump", async () => {
    const { sim, newest } = cleanImage();
    const path = chipDump("chip2.bin", sim.image());
    const out = join(dir, "mochi.pay");
    const io = memoryIo();
    expect(await main(["extract", path, "-o", out], io), io.err).toBe(0);
    expect(Array.from(readFileSync(out))).toEqual(Array.from(newest));
    expect(io.err).toContain("of a 4 MiB flash dump");
  });

  it("a chip whose region was never written is an empty region (status 0); foreign bytes there are refused (status 1)", async () => {
    const empty = memoryIo();
    expect(await main(["inspect", chipDump("blank.bin", null), "--json"], empty)).toBe(0);
    expect((JSON.parse(empty.out) as RegionJson).current.status).toBe("empty");
    const foreign = new Uint8Array(65536);
    for (let i = 0; i < foreign.length; i++) foreign[i] = (i * 31 + 7) & 0xff;
    const io = memoryIo();
    expect(await main(["inspect", chipDump("foreign.bin", foreign)], io)).toBe(1);
    expect(io.err).toMatch(/no readable save in this region \(no-log\)/);
  });

  it("a file of another size is neither, and says what a dump would be", async () => {
    const path = join(dir, "odd.bin");
    writeFileSync(path, new Uint8Array(CHIP - 4096).fill(0xff));
    const io = memoryIo();
    expect(await main(["inspect", path], io)).toBe(1);
    expect(io.err).toContain("a chip's dump a power of two of at least 1 MiB holding the region");
  });

  it("the page's Check a file reads the dump the same way", () => {
    const boards = ["esp32.json", "desktop.json"].map((f) => readProfile(join(ROOT, "boards", f)));
    const v = describeFile(new Uint8Array(readFileSync(chipDump("page.bin", cleanImage().sim.image()))), "page.bin", boards);
    expect(v.rejected).toBe(false);
    expect(v.text).toContain("page.bin (the pet region at 0x310000 of a 4 MiB flash dump)");
    expect(v.text).toMatch(/"Mochi", updates 3.*<- current/);
  });
});
