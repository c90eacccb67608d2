/**
 * `pet-save inspect` and `extract` on region images made by SlotLog with power cuts and damage:
 * every slot gets its verdict (valid / torn / invalid / erased), the current save is the one the
 * firmware would restore, extract writes exactly that payload, and a foreign or damaged image is
 * refused with exit status 1 and nothing written.
 */
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../src/host/node/cli";
import type { RegionJson } from "../src/inspect/regionReport";
import {
  cleanImage,
  foreignImage,
  memoryIo,
  otherLayoutImage,
  petPayload,
  rottenNewestImage,
  tempDir,
  tornImage,
  writeImage,
} from "./region-tools-fixtures";

const dir = tempDir("pet-region-tools-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function inspect(path: string): Promise<{ code: number; json: RegionJson; text: string }> {
  const io = memoryIo();
  const code = await main(["inspect", path, "--json"], io);
  const textIo = memoryIo();
  await main(["inspect", path], textIo);
  return { code, json: JSON.parse(io.out) as RegionJson, text: textIo.out };
}

describe("inspect a region image", () => {
  it("a clean log: three valid slots, the last one current, the other sectors erased", async () => {
    const path = writeImage(dir, "clean.bin", cleanImage().sim);
    const { code, json, text } = await inspect(path);
    expect(code).toBe(0);
    expect(json.board).toBe("Desktop simulator");
    expect(json.current).toMatchObject({ status: "ok", sector: 0, slot: 2 });
    expect(json.current.payload).toMatchObject({ name: "Mochi", updateCount: "3" });
    const s0 = json.sectors[0]!;
    expect(s0.state).toBe("log");
    expect(s0.slots.slice(0, 4).map((s) => s.verdict)).toEqual(["valid", "valid", "valid", "erased"]);
    expect(json.sectors.slice(1).every((s) => s.state === "erased")).toBe(true);
    expect(text).toMatch(/slot  2  valid +"Mochi", updates 3.*<- current/);
    expect(text).toMatch(/sectors 1\.\.15  erased/);
  });

  it("a save cut off before its commit mark is torn, and the one before it stays current", async () => {
    const path = writeImage(dir, "torn.bin", tornImage().sim);
    const { code, json, text } = await inspect(path);
    expect(code).toBe(0);
    expect(json.current).toMatchObject({ status: "ok", sector: 0, slot: 2 });
    expect(json.current.payload?.updateCount).toBe("3");
    const slot3 = json.sectors[0]!.slots[3]!;
    expect(slot3).toMatchObject({ verdict: "torn", payloadStatus: "ok", updateCount: "4" });
    // The second cut tore its payload write at a random word: torn (partly written) or still erased.
    expect(["torn", "erased"]).toContain(json.sectors[0]!.slots[4]!.verdict);
    expect(text).toMatch(/slot  3  torn +never committed/);
  });

  it("a committed slot whose bytes rotted is invalid with the codec's status; the save before it is current", async () => {
    const path = writeImage(dir, "rotten.bin", rottenNewestImage().sim);
    const { code, json, text } = await inspect(path);
    expect(code).toBe(0);
    expect(json.sectors[0]!.slots[2]).toMatchObject({ verdict: "invalid", payloadStatus: "bad-checksum" });
    expect(json.current).toMatchObject({ status: "ok", slot: 1 });
    expect(text).toMatch(/slot  2  invalid +committed but rejected: bad-checksum/);
  });

  it("random data is foreign: every sector says so, no current save, exit status 1", async () => {
    const path = writeImage(dir, "foreign.bin", foreignImage());
    const { code, json } = await inspect(path);
    expect(code).toBe(1);
    expect(json.current.status).toBe("no-log");
    expect(json.sectors.every((s) => s.state === "foreign")).toBe(true);
  });

  it("a slot log of another payload length is not ours", async () => {
    const path = writeImage(dir, "other-layout.bin", otherLayoutImage());
    const { code, json } = await inspect(path);
    expect(code).toBe(1);
    expect(json.sectors[0]!.state).toBe("foreign");
  });

  it("an 84-byte file is shown as decode shows it", async () => {
    const path = join(dir, "one.pay");
    writeFileSync(path, petPayload("Mochi", 9));
    const viaInspect = memoryIo();
    const viaDecode = memoryIo();
    expect(await main(["inspect", path, "--json"], viaInspect)).toBe(0);
    expect(await main(["decode", path, "--json"], viaDecode)).toBe(0);
    expect(viaInspect.out).toBe(viaDecode.out);
    expect(JSON.parse(viaInspect.out)).toMatchObject({ name: "Mochi", updateCount: "9" });
  });

  it("a file of any other size is refused with a message naming the sizes", async () => {
    const path = join(dir, "odd.bin");
    writeFileSync(path, new Uint8Array(1000));
    const io = memoryIo();
    expect(await main(["inspect", path], io)).toBe(1);
    expect(io.err).toMatch(/1000 bytes: neither an 84-byte payload nor a region image/);
  });
});

describe("extract", () => {
  it("writes the current save, byte for byte", async () => {
    const { sim, newest } = cleanImage();
    const out = join(dir, "clean.pay");
    expect(await main(["extract", writeImage(dir, "clean2.bin", sim), "-o", out], memoryIo())).toBe(0);
    expect(Buffer.compare(readFileSync(out), Buffer.from(newest))).toBe(0);
  });

  it("skips a torn save and a rotten one, as the firmware does", async () => {
    const torn = tornImage();
    const out1 = join(dir, "torn.pay");
    expect(await main(["extract", writeImage(dir, "torn2.bin", torn.sim), "-o", out1], memoryIo())).toBe(0);
    expect(Buffer.compare(readFileSync(out1), Buffer.from(torn.newestCommitted))).toBe(0);
    const rot = rottenNewestImage();
    const out2 = join(dir, "rotten.pay");
    expect(await main(["extract", writeImage(dir, "rotten2.bin", rot.sim), "-o", out2], memoryIo())).toBe(0);
    expect(Buffer.compare(readFileSync(out2), Buffer.from(rot.newestGood))).toBe(0);
  });

  it("refuses a foreign image with exit 1 and leaves the output file alone", async () => {
    const out = join(dir, "keep.pay");
    writeFileSync(out, "previous backup");
    const io = memoryIo();
    expect(await main(["extract", writeImage(dir, "foreign2.bin", foreignImage()), "-o", out], io)).toBe(1);
    expect(io.err).toMatch(/no current save \(no-log/);
    expect(readFileSync(out, "utf8")).toBe("previous backup");
    const fresh = join(dir, "never.pay");
    expect(await main(["extract", join(dir, "foreign2.bin"), "-o", fresh], memoryIo())).toBe(1);
    expect(existsSync(fresh)).toBe(false);
  });

  it("needs -o", async () => {
    const io = memoryIo();
    expect(await main(["extract", join(dir, "clean.bin")], io)).toBe(2);
    expect(io.err).toMatch(/-o PAYLOAD/);
  });
});
