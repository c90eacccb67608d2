/**
 * CRC-32: the bitwise reference and the E.CRC32 fast path give the same unsigned value, and both match
 * Node's zlib.crc32 (independent code). The fast path is exercised with a fake global `E` whose CRC32
 * is zlib's, returning a signed value the way Espruino may.
 */
import { crc32 as zlibCrc32 } from "node:zlib";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { crc32, crc32Bitwise } from "../src/save/crc32";

const g = globalThis as { E?: unknown };

/** Installs a fake Espruino `E` and counts its calls; the value is made signed like the interpreter's. */
function installFakeE(): { calls: number; lengths: number[] } {
  const record = { calls: 0, lengths: [] as number[] };
  g.E = {
    CRC32(data: Uint8Array): number {
      record.calls++;
      record.lengths.push(data.length);
      return zlibCrc32(data) | 0;
    },
  };
  return record;
}

afterEach(() => {
  delete g.E;
});

const ascii = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "ascii"));

/** A byte array plus a [start, end) range inside it. */
const bytesWithRange = fc
  .uint8Array({ minLength: 0, maxLength: 300 })
  .chain((bytes) =>
    fc
      .tuple(fc.nat({ max: bytes.length }), fc.nat({ max: bytes.length }))
      .map(([a, b]) => ({ bytes, start: Math.min(a, b), end: Math.max(a, b) })),
  );

describe("crc32Bitwise", () => {
  it('gives 0xCBF43926 for "123456789"', () => {
    expect(crc32Bitwise(ascii("123456789"))).toBe(0xcbf43926);
  });

  it("gives 0 for no bytes and is unsigned for a high-bit result", () => {
    expect(crc32Bitwise(new Uint8Array(0))).toBe(0);
    const v = crc32Bitwise(ascii("a")); // 0xE8B7BE43 has the top bit set
    expect(v).toBe(0xe8b7be43);
    expect(v).toBeGreaterThan(0);
  });

  it("equals zlib.crc32 on random bytes and ranges", () => {
    fc.assert(
      fc.property(bytesWithRange, ({ bytes, start, end }) => {
        expect(crc32Bitwise(bytes, start, end)).toBe(zlibCrc32(bytes.subarray(start, end)));
      }),
      { numRuns: 300 },
    );
  });
});

describe("crc32 (fast path when E.CRC32 exists)", () => {
  it("falls back to the bitwise CRC when there is no E", () => {
    expect(typeof g.E).toBe("undefined");
    expect(crc32(ascii("123456789"))).toBe(0xcbf43926);
  });

  it("uses E.CRC32 on the requested range and normalises its signed answer", () => {
    const fake = installFakeE();
    const bytes = ascii("xx123456789yy");
    expect(crc32(bytes, 2, 11)).toBe(0xcbf43926);
    expect(fake.calls).toBe(1);
    expect(fake.lengths).toEqual([9]);
  });

  it("agrees with the bitwise path and zlib on random bytes and ranges", () => {
    const fake = installFakeE();
    fc.assert(
      fc.property(bytesWithRange, ({ bytes, start, end }) => {
        const fast = crc32(bytes, start, end);
        expect(fast).toBe(crc32Bitwise(bytes, start, end));
        expect(fast).toBe(zlibCrc32(bytes.subarray(start, end)));
        expect(fast).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
    expect(fake.calls).toBeGreaterThanOrEqual(300);
  });

  it("ignores an E without CRC32", () => {
    g.E = {};
    expect(crc32(ascii("123456789"))).toBe(0xcbf43926);
  });
});
