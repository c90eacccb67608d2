/**
 * src/core/bytes.ts answers the same through Espruino's built-ins (E.sum, E.toString, E.mapInPlace,
 * here the desktop host's imitation of them) as through its plain loops, for any bytes (and each
 * test counts the built-ins' calls, so that it cannot pass with the plain loop twice); and an `E`
 * that is only a plain object with E.CRC32 (as several tests install) never sends it down the
 * native path, where Object.prototype.toString would make every two arrays look equal.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { allErased, byteKinds, byteString, byteSum, bytesEqual, bytesToHex, joinBytes, pickWords } from "../src/core/bytes";
import { createEspruinoE } from "../src/host/emulator/espruinoE";

const g = globalThis as { E?: unknown };
afterEach(() => {
  delete g.E;
});

/** Calls of each built-in during the native runs since the last reset: the native path really ran. */
const nativeCalls = new Map<string, number>();

function both<T>(fn: () => T): { plain: T; native: T } {
  delete g.E;
  const plain = fn();
  // E.toUint8Array of an array of byte arrays, as the interpreter flattens it (the emulator leaves
  // it out: its string form differs between interpreter builds, see src/host/espruino/env.ts).
  const e = Object.assign(createEspruinoE(), {
    toUint8Array: (parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p))),
  }) as unknown as Record<string, unknown>;
  for (const name of ["sum", "toString", "mapInPlace", "toUint8Array"]) {
    const f = e[name] as (...args: unknown[]) => unknown;
    e[name] = (...args: unknown[]) => {
      nativeCalls.set(name, (nativeCalls.get(name) ?? 0) + 1);
      return f.apply(e, args);
    };
  }
  g.E = e;
  const native = fn();
  delete g.E;
  return { plain, native };
}

beforeEach(() => {
  nativeCalls.clear();
});

const bytes = fc.uint8Array({ minLength: 0, maxLength: 300 });

describe("native and plain paths agree", () => {
  it("byteSum, allErased, bytesToHex over random bytes, and all-0xFF runs", () => {
    fc.assert(
      fc.property(fc.oneof(bytes, fc.integer({ min: 0, max: 100 }).map((n) => new Uint8Array(n).fill(255))), (b) => {
        const r = both(() => [byteSum(b), allErased(b), bytesToHex(b)]);
        expect(r.native).toEqual(r.plain);
        expect(r.plain[2]).toBe(Buffer.from(b).toString("hex"));
        expect(r.plain[1]).toBe(b.every((x) => x === 255));
      }),
      { numRuns: 400 },
    );
    // Each ran its native form: E.sum for the sum and the erased test, E.mapInPlace and E.toString for hex.
    expect(nativeCalls.get("sum")).toBeGreaterThanOrEqual(2 * 400);
    expect(nativeCalls.get("mapInPlace")).toBeGreaterThanOrEqual(350);
  });

  it("byteString: one character a byte, of the byte's value", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const r = both(() => byteString(b));
        expect(r.native).toBe(r.plain);
        expect(r.plain).toBe(Buffer.from(b).toString("latin1"));
      }),
      { numRuns: 400 },
    );
    expect(nativeCalls.get("toString")).toBeGreaterThanOrEqual(400);
  });

  it("bytesEqual on equal arrays, one-byte differences and different lengths", () => {
    fc.assert(
      fc.property(bytes, fc.nat(), fc.integer({ min: 1, max: 255 }), (a, at, flip) => {
        const same = new Uint8Array(a);
        const other = new Uint8Array(a);
        if (other.length > 0) other[at % other.length] = (other[at % other.length] as number) ^ flip;
        const r = both(() => [bytesEqual(a, same), bytesEqual(a, other), bytesEqual(a, a.subarray(0, Math.max(0, a.length - 1)))]);
        expect(r.native).toEqual(r.plain);
        expect(r.plain).toEqual([true, a.length === 0, a.length === 0]);
      }),
      { numRuns: 400 },
    );
    expect(nativeCalls.get("toString")).toBeGreaterThanOrEqual(400);
  });
});

describe("pickWords", () => {
  it("to[i] = from[picks[i]] for every i of the target, whole 32-bit words kept, on both paths", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -0x80000000, max: 0x7fffffff }), { minLength: 1, maxLength: 100 }), fc.uint8Array({ maxLength: 20 }), fc.nat({ max: 24 }), (words, raw, n) => {
        const from = new Int32Array(words);
        const picks = raw.map((p) => p % from.length);
        const r = both(() => {
          const to = new Int32Array(n);
          pickWords(picks, to, from);
          return Array.from(to);
        });
        expect(r.native).toEqual(r.plain);
        expect(r.plain).toEqual(Array.from({ length: n }, (_, i) => (i < picks.length ? from[picks[i]!] : 0)));
      }),
      { numRuns: 300 },
    );
  });
});

describe("byteKinds and joinBytes", () => {
  it("byteKinds is one table value per byte, as a string", () => {
    const table = new Uint8Array(256).map((_, i) => (i * 7) % 3);
    fc.assert(
      fc.property(bytes, (b) => {
        const r = both(() => byteKinds(b, table));
        expect(r.native).toBe(r.plain);
        expect(Array.from(r.plain, (c) => c.charCodeAt(0))).toEqual(Array.from(b, (x) => table[x]));
      }),
      { numRuns: 200 },
    );
    expect(nativeCalls.get("mapInPlace")).toBeGreaterThanOrEqual(150);
  });

  it("joinBytes puts the arrays one after another", () => {
    fc.assert(
      fc.property(fc.array(bytes, { maxLength: 20 }), (parts) => {
        const r = both(() => Array.from(joinBytes(parts)));
        expect(r.native).toEqual(r.plain);
        expect(r.plain).toEqual(parts.flatMap((p) => Array.from(p)));
      }),
      { numRuns: 200 },
    );
    expect(nativeCalls.get("toUint8Array")).toBe(200);
  });
});

describe("a plain-object E is not taken for the interpreter's", () => {
  it("bytesEqual still tells different arrays apart when E only has CRC32", () => {
    g.E = { CRC32: () => 0 };
    expect(bytesEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(bytesToHex(new Uint8Array([0xab]))).toBe("ab");
    expect(allErased(new Uint8Array([255, 254]))).toBe(false);
  });
});
