/**
 * The `E` object as the firmware uses it: only E.CRC32.
 *
 * Espruino's E.CRC32 walks any iterable, taking each element as a byte (the low 8 bits of its
 * integer value; a string gives its character codes), runs the standard reflected CRC-32 and returns
 * the result as an unsigned number. Node's zlib.crc32 is the same CRC, so the bytes are gathered the
 * interpreter's way and handed to it.
 */
import { crc32 as zlibCrc32 } from "node:zlib";

/** The bytes Espruino's iterator would feed the CRC for `data`. */
export function espruinoBytes(data: unknown): Buffer {
  if (typeof data === "string") {
    const out = Buffer.alloc(data.length);
    for (let i = 0; i < data.length; i++) out[i] = data.charCodeAt(i) & 0xff;
    return out;
  }
  if (Object.prototype.toString.call(data) === "[object ArrayBuffer]") return Buffer.from(new Uint8Array(data as ArrayBuffer));
  if (data !== null && typeof data === "object" && typeof (data as { length?: unknown }).length === "number") {
    const a = data as ArrayLike<unknown>;
    const out = Buffer.alloc(a.length);
    for (let i = 0; i < a.length; i++) out[i] = Math.trunc(Number(a[i])) & 0xff;
    return out;
  }
  if (typeof data === "number") return Buffer.from([Math.trunc(data) & 0xff]);
  return Buffer.alloc(0);
}

export function createEspruinoE(): { CRC32: (data: unknown) => number } {
  return {
    CRC32: (data: unknown): number => zlibCrc32(espruinoBytes(data)) >>> 0,
  };
}
