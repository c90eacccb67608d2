/**
 * Unsigned 64-bit integers as two u32 halves.
 *
 * Espruino has no BigInt and a JavaScript number is exact only up to 2^53 - 1, but a save payload
 * written by another implementation may carry any u64. Keeping the halves apart lets decode then
 * encode reproduce the same bytes for every value. See docs/adr/0001-u64-as-two-u32-halves.md.
 *
 * Values are plain objects treated as immutable: every operation returns a new one. No `Math.pow`
 * (inexact on Espruino), no `**`, no BigInt.
 */

/** An unsigned 64-bit integer: `hi * 2^32 + lo`, both halves integers in [0, 2^32). */
export interface U64 {
  readonly hi: number;
  readonly lo: number;
}

/** 2^32, written out because Espruino's Math.pow(2, 32) is not exact. */
export const TWO_POW_32 = 4294967296;
/** 2^53 - 1, the largest integer a JavaScript number holds exactly (Espruino lacks Number.MAX_SAFE_INTEGER). */
export const MAX_SAFE = 9007199254740991;

export const U64_ZERO: U64 = { hi: 0, lo: 0 };

function isU32(n: unknown): boolean {
  return typeof n === "number" && n >= 0 && n < TWO_POW_32 && Math.floor(n) === n;
}

/** True when `v` is a well-formed U64 (both halves integral u32 values). */
export function isU64(v: unknown): v is U64 {
  if (typeof v !== "object" || v === null) return false;
  const o = v as { hi?: unknown; lo?: unknown };
  return isU32(o.hi) && isU32(o.lo);
}

/** A U64 from a non-negative integral number up to 2^53 - 1, or null for anything else. */
export function u64FromNumber(n: number): U64 | null {
  if (typeof n !== "number" || !(n >= 0) || n > MAX_SAFE || Math.floor(n) !== n) return null;
  const hi = Math.floor(n / TWO_POW_32);
  return { hi: hi, lo: n - hi * TWO_POW_32 };
}

/** True when the value fits a JavaScript number exactly (below 2^53). */
export function u64IsSafe(v: U64): boolean {
  return v.hi < 0x200000;
}

/** The value as a number; exact when u64IsSafe(v), otherwise the nearest double. */
export function u64ToNumber(v: U64): number {
  return v.hi * TWO_POW_32 + v.lo;
}

export function u64IsZero(v: U64): boolean {
  return v.hi === 0 && v.lo === 0;
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function u64Compare(a: U64, b: U64): number {
  if (a.hi !== b.hi) return a.hi < b.hi ? -1 : 1;
  if (a.lo !== b.lo) return a.lo < b.lo ? -1 : 1;
  return 0;
}

/** The decimal digits of v, without sign or leading zeros ("0" for zero). */
export function u64ToDecimal(v: U64): string {
  let hi = v.hi;
  let lo = v.lo;
  // Below 2^53 the value is an exact number, and String() prints every such integer exactly (on
  // Espruino too): one native call instead of a division loop per digit.
  if (hi < 0x200000) return String(hi * TWO_POW_32 + lo);
  let out = "";
  while (hi !== 0 || lo !== 0) {
    // Long division by 10 over the two halves; every intermediate stays below 2^36, so exact.
    const hiRem = hi % 10;
    hi = (hi - hiRem) / 10;
    const t = hiRem * TWO_POW_32 + lo;
    const digit = t % 10;
    lo = (t - digit) / 10;
    out = String(digit) + out;
  }
  return out;
}

/**
 * Parses a decimal string of 1 to 20 ASCII digits into a U64, or null when it is not such a string
 * or its value passes 2^64 - 1. Leading zeros are accepted.
 */
export function u64FromDecimal(s: string): U64 | null {
  if (typeof s !== "string" || s.length === 0 || s.length > 40) return null;
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return null;
    // (hi, lo) * 10 + c, with the carry out of the low half computed exactly in doubles.
    const loTimes = lo * 10 + c;
    const carry = Math.floor(loTimes / TWO_POW_32);
    lo = loTimes - carry * TWO_POW_32;
    hi = hi * 10 + carry;
    if (hi >= TWO_POW_32) return null;
  }
  return { hi: hi, lo: lo };
}
