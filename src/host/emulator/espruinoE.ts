/**
 * The `E` object as the firmware uses it: only E.CRC32.
 *
 * Espruino's E.CRC32 walks any iterable, taking each element as a byte (the low 8 bits of its
 * integer value; a string gives its character codes), runs the standard reflected CRC-32 and returns
 * the result as an unsigned number. The codec's own bitwise CRC-32 (src/save/crc32.ts) is the same
 * CRC and runs in Node and in a browser alike, so the bytes are gathered the interpreter's way and
 * handed to it.
 */
import { crc32Bitwise } from "../../save/crc32";

/** The bytes Espruino's iterator would feed the CRC for `data`. */
export function espruinoBytes(data: unknown): Uint8Array {
  if (typeof data === "string") {
    const out = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = data.charCodeAt(i) & 0xff;
    return out;
  }
  if (Object.prototype.toString.call(data) === "[object ArrayBuffer]") return new Uint8Array(data as ArrayBuffer).slice();
  if (data !== null && typeof data === "object" && typeof (data as { length?: unknown }).length === "number") {
    const a = data as ArrayLike<unknown>;
    const out = new Uint8Array(a.length);
    for (let i = 0; i < a.length; i++) out[i] = Math.trunc(Number(a[i])) & 0xff;
    return out;
  }
  if (typeof data === "number") return new Uint8Array([Math.trunc(data) & 0xff]);
  return new Uint8Array(0);
}

export function createEspruinoE(): { CRC32: (data: unknown) => number } {
  return {
    CRC32: (data: unknown): number => crc32Bitwise(espruinoBytes(data)) >>> 0,
  };
}
