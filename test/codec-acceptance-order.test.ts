/**
 * loadWorld checks in the contract's order and reports the first failure. Each case breaks two
 * things at once and expects the earlier check to win; the status list itself is pinned too.
 */
import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadWorld } from "../src/save/codec";
import { describeStatus, LOAD_STATUSES, type LoadStatus } from "../src/save/status";

/** A valid payload for pet "Bo": elapsed 5000, saved at 1000 (byte-level, built with Buffer). */
function base(): Buffer {
  const p = Buffer.alloc(84);
  p.write("PETS", 0, "latin1");
  p.writeUInt16LE(1, 4);
  p.writeBigUInt64LE(5000n, 6); // elapsed
  p.writeBigUInt64LE(3n, 14); // update count
  p.writeBigUInt64LE(1000n, 22); // saved at
  p[30] = 1; // wandering
  p[31] = 1; // happy
  p.writeBigUInt64LE(4000n, 32);
  p.writeBigUInt64LE(4500n, 40);
  p[48] = 2;
  p.write("Bo", 49, "latin1");
  return p;
}

/** Recomputes the CRC so only the intended breakage shows (a truncated payload has no CRC to fix). */
const seal = (p: Buffer): Buffer => {
  if (p.length >= 84) p.writeUInt32LE(zlibCrc32(p.subarray(0, 80)), 80);
  return p;
};

type Breakage = (p: Buffer) => Buffer;
const badMagic: Breakage = (p) => seal(((p[3] = 0x58), p));
const badVersion: Breakage = (p) => seal((p.writeUInt16LE(2, 4), p));
const truncate: Breakage = (p) => p.subarray(0, 60);
const badCrc: Breakage = (p) => ((p[80] = (p[80] as number) ^ 0xff), p);
const badActivity: Breakage = (p) => seal(((p[30] = 9), p));
const badExpression: Breakage = (p) => seal(((p[31] = 9), p));
const badName: Breakage = (p) => seal(((p[48] = 0), p));
// Elapsed near the ceiling with a future now: the absence overflows the clock.
const nearCeiling: Breakage = (p) => seal((p.writeBigUInt64LE((1n << 64n) - 10n, 6), p));
// One past the loaded clock: elapsed 5000 plus the 1000 ms absence at NOW is 6000.
const sinceAfterClock: Breakage = (p) => seal((p.writeBigUInt64LE(6001n, 32), p));

const NOW = 2000; // 1000 ms after the save

/** [earlier breakage, later breakage, expected status]: the breakages applied later first. */
const CASES: Array<[string, Breakage, Breakage, LoadStatus]> = [
  ["too short beats bad magic", badMagic, (p) => p.subarray(0, 5), "too-short"],
  ["bad magic beats unsupported version", badVersion, badMagic, "bad-magic"],
  ["unsupported version beats bad length", truncate, badVersion, "unsupported-version"],
  ["bad length beats bad checksum", badCrc, truncate, "bad-length"],
  ["bad checksum beats unknown activity", badActivity, badCrc, "bad-checksum"],
  ["unknown activity beats unknown expression", badExpression, badActivity, "unknown-activity"],
  ["unknown expression beats bad name", badName, badExpression, "unknown-expression"],
  ["bad name beats clock overflow", nearCeiling, badName, "bad-name"],
  ["clock overflow beats invalid world", sinceAfterClock, nearCeiling, "clock-overflow"],
];

describe("acceptance order", () => {
  it("the base payload is accepted", () => {
    expect(loadWorld(new Uint8Array(seal(base())), NOW).status).toBe("ok");
  });

  for (const [title, later, earlier, expected] of CASES) {
    it(title, () => {
      // Apply the later-checked breakage first so that the earlier one is not undone by a re-seal.
      const p = earlier(later(seal(base())));
      expect(loadWorld(new Uint8Array(p), NOW).status).toBe(expected);
      // ...and each breakage alone gives its own status (the case is really testing two checks).
      const alone = later(seal(base()));
      expect(loadWorld(new Uint8Array(alone), NOW).status).not.toBe(expected);
      expect(loadWorld(new Uint8Array(alone), NOW).status).not.toBe("ok");
    });
  }

  it("lists the statuses in acceptance order, each with its own one-line explanation", () => {
    expect(LOAD_STATUSES).toEqual([
      "ok",
      "too-short",
      "bad-magic",
      "unsupported-version",
      "bad-length",
      "bad-checksum",
      "unknown-activity",
      "unknown-expression",
      "bad-name",
      "clock-overflow",
      "invalid-world",
    ]);
    const texts = LOAD_STATUSES.map(describeStatus);
    expect(new Set(texts).size).toBe(texts.length);
    for (const t of texts) {
      expect(t.length).toBeGreaterThan(10);
      expect(t).not.toContain("\n");
    }
    expect(describeStatus("bad-saved-at")).toMatch(/save time/);
  });
});
