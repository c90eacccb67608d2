/** fast-check generators and BigInt helpers shared by the test/core-*.test.ts files. */
import fc from "fast-check";
import type { World } from "../src/core/types";
import type { U64 } from "../src/core/u64";
import { copyWorld } from "../src/core/world";

export const U64_MAX_BIG = (1n << 64n) - 1n;
/** 2^64 - 1 as a U64. */
export const U64_MAX: U64 = { hi: 0xffffffff, lo: 0xffffffff };
export const toBig = (v: U64): bigint => (BigInt(v.hi) << 32n) | BigInt(v.lo);
export const fromBig = (b: bigint): U64 => ({ hi: Number(b >> 32n), lo: Number(b & 0xffffffffn) });
/** A copy of a world to compare against after a call (its name bytes copied; u64 values are never changed in place). */
export const cloneWorld = (w: World): World => copyWorld({} as World, w);

/** A clock value, biased towards zero, the 2^32 and 2^53 borders and the top of the range. */
export const clockBig = fc.oneof(
  fc.bigInt({ min: 0n, max: 1000000n }),
  fc.bigInt({ min: 0n, max: U64_MAX_BIG }),
  fc.bigInt({ min: (1n << 32n) - 200000n, max: (1n << 32n) + 200000n }),
  fc.bigInt({ min: (1n << 53n) - 200000n, max: (1n << 53n) + 200000n }),
  fc.bigInt({ min: U64_MAX_BIG - 400000n, max: U64_MAX_BIG }),
);

/** How long ago a stamp was set: mostly around the dwell times, sometimes anything. */
const ageBig = fc.oneof(fc.bigInt({ min: 0n, max: 200000n }), fc.bigInt({ min: 0n, max: U64_MAX_BIG }));

export const nameBytes = fc
  .array(fc.integer({ min: 1, max: 255 }), { minLength: 1, maxLength: 31 })
  .map((a) => new Uint8Array(a));

/** Any world that passes validateWorld. */
export const validWorld: fc.Arbitrary<World> = fc
  .record({
    name: nameBytes,
    activity: fc.integer({ min: 0, max: 4 }),
    expression: fc.integer({ min: 0, max: 5 }),
    elapsed: clockBig,
    activityAge: ageBig,
    expressionAge: ageBig,
    updateCount: fc.oneof(clockBig, fc.constant(U64_MAX_BIG)),
  })
  .map((r) => {
    const aAge = r.activityAge > r.elapsed ? r.elapsed : r.activityAge;
    const eAge = r.expressionAge > r.elapsed ? r.elapsed : r.expressionAge;
    return {
      name: r.name,
      activity: r.activity,
      expression: r.expression,
      activitySince: fromBig(r.elapsed - aAge),
      expressionSince: fromBig(r.elapsed - eAge),
      elapsed: fromBig(r.elapsed),
      updateCount: fromBig(r.updateCount),
    };
  });

/** A delta the rules accept: small, around the dwell times, or anything up to 2^53 - 1. */
export const goodDelta = fc.oneof(
  fc.integer({ min: 0, max: 250000 }),
  fc.constantFrom(0, 1, 2000, 12000, 15000, 20000, 30000, 180000),
  fc.maxSafeNat(),
);

export const maybeEvent = fc.constantFrom(undefined, "interact" as const, "wake" as const);
