/** readU64LE / writeU64LE and the u32 pair, against Node's Buffer as the independent oracle. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type U64, U64_MAX, readU32LE, readU64LE, writeU32LE, writeU64LE } from "../src/core/u64";

const MAX = (1n << 64n) - 1n;
const toBig = (v: U64): bigint => (BigInt(v.hi) << 32n) | BigInt(v.lo);
const fromBig = (b: bigint): U64 => ({ hi: Number(b >> 32n), lo: Number(b & 0xffffffffn) });
const anyU64 = fc.oneof(fc.bigInt({ min: 0n, max: MAX }), fc.constantFrom(0n, 1n, (1n << 53n) + 1n, MAX));

describe("u64 little-endian bytes", () => {
  it("reads what Buffer.writeBigUInt64LE wrote, at any offset", () => {
    fc.assert(
      fc.property(anyU64, fc.nat(8), (a, offset) => {
        const buf = Buffer.alloc(16, 0xa5);
        buf.writeBigUInt64LE(a, offset);
        const v = readU64LE(new Uint8Array(buf.buffer, buf.byteOffset, buf.length), offset);
        expect(toBig(v)).toBe(a);
      }),
      { numRuns: 1000 },
    );
  });

  it("writes what Buffer.readBigUInt64LE reads, touching only its 8 bytes", () => {
    fc.assert(
      fc.property(anyU64, fc.nat(8), (a, offset) => {
        const bytes = new Uint8Array(16).fill(0xa5);
        writeU64LE(bytes, offset, fromBig(a));
        expect(Buffer.from(bytes).readBigUInt64LE(offset)).toBe(a);
        for (let i = 0; i < 16; i++) if (i < offset || i >= offset + 8) expect(bytes[i]).toBe(0xa5);
      }),
      { numRuns: 1000 },
    );
  });

  it("lays out 2^64 - 1 and a value above 2^53 byte by byte", () => {
    const bytes = new Uint8Array(8);
    writeU64LE(bytes, 0, U64_MAX);
    expect([...bytes]).toEqual([255, 255, 255, 255, 255, 255, 255, 255]);
    writeU64LE(bytes, 0, { hi: 0x00200000, lo: 0x00000001 }); // 2^53 + 1
    expect([...bytes]).toEqual([1, 0, 0, 0, 0, 0, 0x20, 0]);
  });

  it("u32 halves agree with Buffer's readUInt32LE / writeUInt32LE", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.nat(4), (n, offset) => {
        const bytes = new Uint8Array(8);
        writeU32LE(bytes, offset, n);
        expect(Buffer.from(bytes).readUInt32LE(offset)).toBe(n);
        const buf = Buffer.alloc(8);
        buf.writeUInt32LE(n, offset);
        expect(readU32LE(new Uint8Array(buf), offset)).toBe(n);
      }),
    );
  });
});
