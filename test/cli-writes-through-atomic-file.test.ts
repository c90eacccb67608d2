/**
 * `pet-save` writes its output files through the desktop's shared atomic replace
 * (src/host/node/atomicFile.ts): a temporary file left by a crashed earlier run is removed by the
 * next successful write of the same target, and a write into a missing directory is a one-line
 * message naming the directory, exit 1, with nothing written.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/host/node/cli";
import { cleanImage, memoryIo, petPayload, tempDir, writeImage } from "./region-tools-fixtures";

const dir = tempDir("pet-save-atomic-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PET_JSON = JSON.stringify({
  name: "A",
  activity: 0,
  expression: 0,
  elapsedMs: 0,
  updateCount: 0,
  savedAtMs: 0,
  activitySinceMs: 0,
  expressionSinceMs: 0,
});

/** A directory holding what a crash during an earlier write of `target` leaves: an orphan temp. */
function withCrashLeftover(name: string, target: string): { sub: string; leftover: string } {
  const sub = join(dir, name);
  mkdirSync(sub);
  // The name writeFileAtomic gives its temporaries: .<target>.tmp-<pid>-<n>
  const leftover = "." + target + ".tmp-99999-3";
  writeFileSync(join(sub, leftover), "half a save");
  return { sub, leftover };
}

describe("pet-save output files", () => {
  it("encode removes the temp a crashed run left beside its target", async () => {
    const { sub } = withCrashLeftover("encode", "pet.pay");
    const json = join(dir, "pet.json");
    writeFileSync(json, PET_JSON);
    const io = memoryIo();
    expect(await main(["encode", json, "-o", join(sub, "pet.pay")], io)).toBe(0);
    expect(io.err).toBe("");
    expect(readdirSync(sub)).toEqual(["pet.pay"]);
    expect(readFileSync(join(sub, "pet.pay")).length).toBe(84);
  });

  it("extract removes the temp a crashed run left beside its target", async () => {
    const { sub } = withCrashLeftover("extract", "board.pay");
    const image = writeImage(dir, "clean.bin", cleanImage().sim);
    const io = memoryIo();
    expect(await main(["extract", image, "-o", join(sub, "board.pay")], io)).toBe(0);
    expect(readdirSync(sub)).toEqual(["board.pay"]);
    expect(Buffer.from(readFileSync(join(sub, "board.pay"))).equals(Buffer.from(petPayload("Mochi", 3)))).toBe(true);
  });

  it("a temp of another file is left alone", async () => {
    const { sub, leftover } = withCrashLeftover("other", "other.pay");
    const json = join(dir, "pet2.json");
    writeFileSync(json, PET_JSON);
    expect(await main(["encode", json, "-o", join(sub, "pet.pay")], memoryIo())).toBe(0);
    expect(readdirSync(sub).sort()).toEqual([leftover, "pet.pay"].sort());
  });

  it("writing into a missing directory: exit 1, a message naming the directory, nothing written", async () => {
    const missing = join(dir, "no-such-dir");
    const json = join(dir, "pet3.json");
    writeFileSync(json, PET_JSON);
    for (const argv of [
      ["encode", json, "-o", join(missing, "pet.pay")],
      ["extract", writeImage(dir, "clean2.bin", cleanImage().sim), "-o", join(missing, "board.pay")],
    ]) {
      const io = memoryIo();
      expect(await main(argv, io)).toBe(1);
      expect(io.err).toBe(
        "cannot save " + argv[3] + ": the directory " + missing + " does not exist; the previous file, if any, is unchanged\n",
      );
      expect(existsSync(missing)).toBe(false);
    }
  });
});
