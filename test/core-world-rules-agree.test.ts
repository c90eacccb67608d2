/**
 * The world's rules that are checked in several places are each written once (src/core/world.ts):
 * the name rule (isValidName) and the since-stamp rule (sinceStampsWithin). validateWorld carries
 * both written out, because every save runs it on the interpreter; here the copies are held to the
 * originals, over random worlds whose names and stamps sit on both sides of each rule's edges.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isValidName, sinceStampsWithin, validateWorld } from "../src/core/world";
import type { World } from "../src/core/types";
import { validWorld } from "./core-arbitraries";

/** Names of every length 0..33 (the rule's edges are 1 and 31), some holding a zero byte. */
const anyName = fc
  .record({ bytes: fc.uint8Array({ minLength: 0, maxLength: 33 }), zeroAt: fc.option(fc.nat(40), { nil: undefined }) })
  .map(({ bytes, zeroAt }) => {
    if (zeroAt !== undefined && bytes.length > 0) bytes[zeroAt % bytes.length] = 0;
    return bytes;
  });

/** A u64 half near a clock's: equal, one either side, or anywhere. */
const near = (v: number): fc.Arbitrary<number> =>
  fc.oneof(fc.constant(v), fc.constant(Math.max(0, v - 1)), fc.constant(Math.min(0xffffffff, v + 1)), fc.integer({ min: 0, max: 0xffffffff }));

/** A valid world with a name and since stamps drawn to cross the rules' edges. */
const edgyWorld: fc.Arbitrary<World> = fc.tuple(validWorld, anyName).chain(([w, name]) =>
  fc
    .record({ aHi: near(w.elapsed.hi), aLo: near(w.elapsed.lo), eHi: near(w.elapsed.hi), eLo: near(w.elapsed.lo) })
    .map((s) => ({ ...w, name, activitySince: { hi: s.aHi, lo: s.aLo }, expressionSince: { hi: s.eHi, lo: s.eLo } })),
);

describe("validateWorld's written-out checks are the world's rules", () => {
  it("a name is refused (bad-name) exactly when isValidName refuses it", () => {
    let refused = 0;
    fc.assert(
      fc.property(validWorld, anyName, (w, name) => {
        const status = validateWorld({ ...w, name });
        expect(status === "bad-name").toBe(!isValidName(name));
        if (status === "bad-name") refused++;
      }),
      { numRuns: 2000 },
    );
    expect(refused).toBeGreaterThan(200);
  });

  it("a world with a good name is refused (invalid-world) exactly when sinceStampsWithin refuses its stamps at its own clock", () => {
    let outside = 0;
    let inside = 0;
    fc.assert(
      fc.property(edgyWorld, (w) => {
        if (!isValidName(w.name)) return;
        const within = sinceStampsWithin(w, w.elapsed.hi, w.elapsed.lo);
        expect(validateWorld(w)).toBe(within ? "ok" : "invalid-world");
        if (within) inside++;
        else outside++;
      }),
      { numRuns: 3000 },
    );
    expect(outside).toBeGreaterThan(200);
    expect(inside).toBeGreaterThan(80);
  });
});
