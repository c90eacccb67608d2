/**
 * updateWorld's refusals: each has its own status, they are checked in the documented order
 * (bad-delta, bad-event, invalid-world, clock-overflow, count-overflow), and a refused update leaves
 * the world deep-equal to a copy taken before the call.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { updateWorld } from "../src/core/rules";
import type { PetEvent, World } from "../src/core/types";
import { MAX_SAFE } from "../src/core/u64";
import { U64_MAX } from "./core-arbitraries";
import { createWorld } from "../src/core/world";
import { U64_MAX_BIG, fromBig, toBig, validWorld } from "./core-arbitraries";

const badDeltas: unknown[] = [-1, -0.5, 0.5, 1.5, MAX_SAFE + 1, 2 ** 60, NaN, Infinity, -Infinity, "5", null, undefined, {}, 5n];
const badEvents: unknown[] = ["", "Interact", "WAKE", "feed", "interact ", 0, 1, null, {}, ["wake"], true];

const anyBadDelta = fc.oneof(
  fc.constantFrom(...badDeltas),
  fc.double({ noInteger: true }),
  fc.integer({ max: -1 }),
  fc.double({ min: MAX_SAFE + 2, noNaN: true }),
);
const anyBadEvent = fc.oneof(
  fc.constantFrom(...badEvents),
  fc.string().filter((s) => s !== "interact" && s !== "wake"),
);

/** Ways to spoil a valid world so validateWorld refuses it. */
const spoil = fc.constantFrom<(w: World) => void>(
  (w) => (w.activity = 5),
  (w) => (w.activity = -1),
  (w) => (w.activity = 1.5),
  (w) => (w.expression = 6),
  (w) => (w.expression = NaN),
  (w) => (w.name = new Uint8Array(0)),
  (w) => (w.name = new Uint8Array(32).fill(65)),
  (w) => (w.name = new Uint8Array([65, 0, 66])),
  (w) => (w.elapsed = { hi: -1, lo: 0 }),
  (w) => (w.updateCount = { hi: 0, lo: 2 ** 32 }),
  (w) => (w.activitySince = { hi: 0.5, lo: 0 }),
  (w) => ((w as unknown as { expressionSince: unknown }).expressionSince = null),
  (w) => (w.activitySince = fromBig(toBig(w.elapsed) + 1n)),
  (w) => (w.expressionSince = fromBig(toBig(w.elapsed) + 1n)),
);

function expectRefused(world: World, delta: unknown, event: unknown, status: string): void {
  // structuredClone rather than cloneWorld: independent of the code under test, and copes with
  // the broken worlds (null, missing fields) too.
  const before = structuredClone(world);
  const fields = world === null ? null : { ...world };
  expect(updateWorld(world, delta as number, event as PetEvent)).toBe(status);
  expect(world).toEqual(before);
  // Not even a field object was swapped for an equal one.
  if (fields) for (const k of Object.keys(fields) as (keyof World)[]) expect(world[k]).toBe(fields[k]);
}

describe("each refusal has its status and changes nothing", () => {
  it("bad-delta for any delta that is not an integer in 0..2^53-1", () => {
    fc.assert(
      fc.property(validWorld, anyBadDelta, fc.constantFrom(undefined, "interact", "wake"), (w, d, e) => {
        expectRefused(w, d, e, "bad-delta");
      }),
      { numRuns: 500 },
    );
  });

  it("bad-event for anything but undefined, 'interact' and 'wake'", () => {
    fc.assert(
      fc.property(validWorld, fc.nat(100000), anyBadEvent, (w, d, e) => {
        expectRefused(w, d, e, "bad-event");
      }),
      { numRuns: 500 },
    );
  });

  it("invalid-world for a world validateWorld refuses", () => {
    fc.assert(
      fc.property(validWorld, spoil, fc.nat(100000), (w, breakIt, d) => {
        breakIt(w);
        expectRefused(w, d, undefined, "invalid-world");
      }),
      { numRuns: 500 },
    );
    expectRefused(null as unknown as World, 0, undefined, "invalid-world");
  });

  it("clock-overflow when elapsed + delta passes 2^64 - 1", () => {
    fc.assert(
      fc.property(validWorld, fc.maxSafeNat(), (w, d) => {
        const e = toBig(w.elapsed);
        fc.pre(e + BigInt(d) > U64_MAX_BIG);
        expectRefused(w, d, "wake", "clock-overflow");
      }),
      { numRuns: 300 },
    );
  });

  it("count-overflow when the update count is already 2^64 - 1", () => {
    fc.assert(
      fc.property(validWorld, fc.nat(100000), (w, d) => {
        fc.pre(toBig(w.elapsed) + BigInt(d) <= U64_MAX_BIG);
        w.updateCount = U64_MAX;
        expectRefused(w, d, "interact", "count-overflow");
      }),
      { numRuns: 300 },
    );
  });
});

describe("the checks run in the documented order", () => {
  function world(): World {
    const w = createWorld(new Uint8Array([1])) as World;
    w.elapsed = U64_MAX;
    w.activitySince = U64_MAX;
    w.expressionSince = U64_MAX;
    w.updateCount = U64_MAX; // both overflows pending
    return w;
  }

  it("bad-delta before bad-event before invalid-world before clock-overflow before count-overflow", () => {
    const broken = () => {
      const w = world();
      w.activity = 9;
      return w;
    };
    expectRefused(broken(), -1, "nope", "bad-delta");
    expectRefused(broken(), 1, "nope", "bad-event");
    expectRefused(broken(), 1, "wake", "invalid-world");
    expectRefused(world(), 1, "wake", "clock-overflow");
    expectRefused(world(), 0, "wake", "count-overflow");
  });
});

describe("the clock's top end", () => {
  it("reaches exactly 2^64 - 1 and refuses one more millisecond", () => {
    const w = createWorld(new Uint8Array([0x41])) as World;
    w.elapsed = fromBig(U64_MAX_BIG - 5n);
    w.activitySince = w.elapsed;
    w.expressionSince = w.elapsed;
    expect(updateWorld(w, 5)).toBe("ok");
    expect(w.elapsed).toEqual(U64_MAX);
    expectRefused(w, 1, undefined, "clock-overflow");
    expect(updateWorld(w, 0, "interact")).toBe("ok");
    expect(toBig(w.updateCount)).toBe(2n);
  });

  it("refuses the largest delta at 2^64 - 2^53 + 1 and takes it one lower", () => {
    const w = createWorld(new Uint8Array([0x41])) as World;
    w.elapsed = fromBig(U64_MAX_BIG - BigInt(MAX_SAFE) + 1n);
    expectRefused(w, MAX_SAFE, undefined, "clock-overflow");
    w.elapsed = fromBig(U64_MAX_BIG - BigInt(MAX_SAFE));
    expect(updateWorld(w, MAX_SAFE)).toBe("ok");
    expect(w.elapsed).toEqual(U64_MAX);
  });

  it("takes the last count: 2^64 - 2 becomes 2^64 - 1, then updates are refused", () => {
    const w = createWorld(new Uint8Array([0x41])) as World;
    w.updateCount = fromBig(U64_MAX_BIG - 1n);
    expect(updateWorld(w, 1)).toBe("ok");
    expect(w.updateCount).toEqual(U64_MAX);
    expectRefused(w, 1, undefined, "count-overflow");
  });
});
