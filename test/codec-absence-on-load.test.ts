/**
 * The time away on load: added to the world clock only when both clocks are known and now is later,
 * clamped to seven days, never replayed (update count and since stamps stay), overflow rejected.
 * The expected absence is computed here with BigInt, independently of the codec's u64 halves.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadWorld, saveWorld } from "../src/save/codec";
import { ABSENCE_CLAMP_MS } from "../src/save/layout";
import type { World } from "../src/core/types";
import type { U64 } from "../src/core/u64";
import { clockBig, fromBig, toBig, U64_MAX_BIG, validWorld } from "./core-arbitraries";

const SEVEN_DAYS = 604800000n;

function pet(elapsed: bigint): World {
  return {
    name: new Uint8Array([0x4b, 0x69]),
    activity: 2,
    expression: 1,
    activitySince: fromBig(elapsed / 2n),
    expressionSince: fromBig(elapsed / 3n),
    elapsed: fromBig(elapsed),
    updateCount: fromBig(12n),
  };
}

function loadAt(world: World, savedAt: number | U64, now: number | U64) {
  return loadWorld(saveWorld(world, savedAt).bytes!, now);
}

describe("absence on load", () => {
  const SAVED = 1767225600000;

  it("the clamp constant is seven days", () => {
    expect(ABSENCE_CLAMP_MS).toBe(7 * 24 * 60 * 60 * 1000);
  });

  it("adds now - savedAt to the world clock only", () => {
    const r = loadAt(pet(10000n), SAVED, SAVED + 5000);
    expect(r.status).toBe("ok");
    expect(r.absenceMs).toBe(5000);
    expect(toBig(r.world!.elapsed)).toBe(15000n);
    expect(toBig(r.world!.updateCount)).toBe(12n); // nothing is replayed
    expect(toBig(r.world!.activitySince)).toBe(5000n); // the since stamps keep their values
    expect(toBig(r.world!.expressionSince)).toBe(3333n);
  });

  it("clamps to seven days", () => {
    const r = loadAt(pet(0n), SAVED, SAVED + 30 * 86400000);
    expect(r.absenceMs).toBe(ABSENCE_CLAMP_MS);
    expect(toBig(r.world!.elapsed)).toBe(SEVEN_DAYS);
  });

  it.each([
    ["saved at unknown", 0, SAVED],
    ["now unknown", SAVED, 0],
    ["clock did not move", SAVED, SAVED],
    ["clock went backwards", SAVED, SAVED - 1],
  ])("is zero when %s", (_title, savedAt, now) => {
    const r = loadAt(pet(777n), savedAt, now);
    expect(r.status).toBe("ok");
    expect(r.absenceMs).toBe(0);
    expect(toBig(r.world!.elapsed)).toBe(777n);
  });

  it("takes now as a U64 or a number with a fraction (Espruino's Date.now())", () => {
    expect(loadAt(pet(0n), SAVED, fromBig(BigInt(SAVED) + 42n)).absenceMs).toBe(42);
    expect(loadAt(pet(0n), SAVED, SAVED + 42.75).absenceMs).toBe(42);
  });

  it.each([-5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, { hi: -1, lo: 0 }])(
    "treats a now that is not a clock reading (%s) as unknown",
    (now) => {
      const r = loadAt(pet(9n), SAVED, now as number);
      expect(r.status).toBe("ok");
      expect(r.absenceMs).toBe(0);
    },
  );

  it("rejects a load whose absence would overflow the clock, but accepts landing on 2^64 - 1", () => {
    const world = pet(U64_MAX_BIG - 100n);
    expect(loadAt(world, SAVED, SAVED + 100).status).toBe("ok");
    expect(toBig(loadAt(world, SAVED, SAVED + 100).world!.elapsed)).toBe(U64_MAX_BIG);
    const over = loadAt(world, SAVED, SAVED + 101);
    expect(over.status).toBe("clock-overflow");
    expect(over.world).toBeNull();
    expect(over.absenceMs).toBe(0);
  });

  it("matches min(now - savedAt, 7 days) for any clocks", () => {
    fc.assert(
      fc.property(validWorld, clockBig, clockBig, (world, savedAt, now) => {
        const r = loadAt(world, fromBig(savedAt), fromBig(now));
        let absence = savedAt !== 0n && now !== 0n && now > savedAt ? now - savedAt : 0n;
        if (absence > SEVEN_DAYS) absence = SEVEN_DAYS;
        const sum = toBig(world.elapsed) + absence;
        if (sum > U64_MAX_BIG) {
          expect(r.status).toBe("clock-overflow");
          return;
        }
        expect(r.status).toBe("ok");
        expect(BigInt(r.absenceMs)).toBe(absence);
        expect(toBig(r.world!.elapsed)).toBe(sum);
        expect(toBig(r.savedAt)).toBe(savedAt);
      }),
      { numRuns: 500 },
    );
  });
});
