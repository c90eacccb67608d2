/**
 * What the product does with u64 values (compare, zero, decimal text, numbers), against BigInt as
 * the independent oracle, across the full range: zero, values around 2^32 and 2^53, and 2^64 - 1.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { U64_MAX } from "./core-arbitraries";
import { MAX_SAFE, TWO_POW_32, type U64, U64_ZERO, isU64, u64Compare, u64FromDecimal, u64FromNumber, u64IsSafe, u64IsZero, u64ToDecimal, u64ToNumber } from "../src/core/u64";

const MAX = (1n << 64n) - 1n;
const toBig = (v: U64): bigint => (BigInt(v.hi) << 32n) | BigInt(v.lo);
const fromBig = (b: bigint): U64 => ({ hi: Number(b >> 32n), lo: Number(b & 0xffffffffn) });

/** Any u64, biased towards the edges where carries and precision loss live. */
const anyU64 = fc.oneof(
  fc.bigInt({ min: 0n, max: MAX }),
  fc.constantFrom(0n, 1n, 0xffffffffn, 1n << 32n, (1n << 53n) - 1n, 1n << 53n, (1n << 53n) + 1n, MAX - 1n, MAX),
  fc.bigInt({ min: 0n, max: 1n << 34n }),
);

describe("u64 compare and zero against BigInt", () => {
  it("compare agrees with BigInt ordering", () => {
    fc.assert(
      fc.property(anyU64, anyU64, (a, b) => {
        const want = a < b ? -1 : a > b ? 1 : 0;
        expect(u64Compare(fromBig(a), fromBig(b))).toBe(want);
        expect(u64Compare(fromBig(a), fromBig(a))).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it("zero is zero and nothing else", () => {
    fc.assert(
      fc.property(anyU64, (a) => {
        expect(u64IsZero(fromBig(a))).toBe(a === 0n);
      }),
    );
    expect(u64IsZero(U64_ZERO)).toBe(true);
    expect(u64IsZero({ hi: 1, lo: 0 })).toBe(false);
  });
});

describe("u64 decimal text", () => {
  it("round trips every u64 and matches BigInt's digits", () => {
    fc.assert(
      fc.property(anyU64, (a) => {
        const text = u64ToDecimal(fromBig(a));
        expect(text).toBe(a.toString());
        expect(u64FromDecimal(text)).toEqual(fromBig(a));
      }),
      { numRuns: 2000 },
    );
  });

  it("knows the edges by hand", () => {
    expect(u64ToDecimal(U64_MAX)).toBe("18446744073709551615");
    expect(u64FromDecimal("18446744073709551615")).toEqual(U64_MAX);
    expect(u64FromDecimal("18446744073709551616")).toBeNull();
    expect(u64FromDecimal("99999999999999999999")).toBeNull();
    expect(u64FromDecimal("9007199254740993")).toEqual({ hi: 0x200000, lo: 1 });
    expect(u64FromDecimal("0")).toEqual(U64_ZERO);
    expect(u64FromDecimal("007")).toEqual({ hi: 0, lo: 7 });
  });

  it("refuses text that is not plain digits", () => {
    for (const bad of ["", "-1", "+1", "1.0", "1e3", " 1", "1 ", "0x10", "１"]) {
      expect(u64FromDecimal(bad), JSON.stringify(bad)).toBeNull();
    }
    expect(u64FromDecimal(42 as unknown as string)).toBeNull();
  });
});

describe("u64 and JavaScript numbers", () => {
  it("u64FromNumber is exact for every safe integer", () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (n) => {
        const v = u64FromNumber(n) as U64;
        expect(isU64(v)).toBe(true);
        expect(toBig(v)).toBe(BigInt(n));
        expect(u64ToNumber(v)).toBe(n);
        expect(u64IsSafe(v)).toBe(true);
      }),
    );
  });

  it("u64FromNumber refuses what is not a safe non-negative integer", () => {
    for (const bad of [-1, -0.5, 0.5, MAX_SAFE + 1, 2 ** 64, NaN, Infinity, -Infinity]) {
      expect(u64FromNumber(bad), String(bad)).toBeNull();
    }
    expect(u64FromNumber("5" as unknown as number)).toBeNull();
  });

  it("u64IsSafe turns false exactly at 2^53", () => {
    expect(u64IsSafe(fromBig((1n << 53n) - 1n))).toBe(true);
    expect(u64IsSafe(fromBig(1n << 53n))).toBe(false);
    expect(u64IsSafe(U64_MAX)).toBe(false);
  });

  it("isU64 accepts only integral u32 halves", () => {
    expect(isU64({ hi: 0, lo: 0 })).toBe(true);
    expect(isU64(U64_MAX)).toBe(true);
    for (const bad of [null, 5, {}, { hi: 0 }, { hi: -1, lo: 0 }, { hi: 0, lo: TWO_POW_32 }, { hi: 0.5, lo: 0 }]) {
      expect(isU64(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
