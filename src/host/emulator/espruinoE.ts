/**
 * The `E` object as the firmware uses it: E.CRC32, and E.sum, E.toString and E.mapInPlace, the
 * native byte helpers src/core/bytes.ts prefers (so the bundle takes the same paths here as on the
 * device).
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

export interface EspruinoE {
  CRC32(data: unknown): number;
  /** The sum of the elements (numbers; the interpreter's E.sum over a typed array). */
  sum(data: ArrayLike<number>): number;
  /** A string whose character codes are the bytes of `data` (what E.toString gives for a Uint8Array). */
  toString(data: unknown): string;
  /**
   * Each element of `from` (or each `bits`-wide part of it, high part first, when `bits` is below 8)
   * looked up in `map` and stored in `to`, in order; stops at the end of either array.
   */
  mapInPlace(from: ArrayLike<number>, to: { length: number; [i: number]: number }, map: ArrayLike<number>, bits?: number): void;
}

export function createEspruinoE(): EspruinoE {
  return {
    CRC32: (data: unknown): number => crc32Bitwise(espruinoBytes(data)) >>> 0,
    sum: (data: ArrayLike<number>): number => {
      let s = 0;
      for (let i = 0; i < data.length; i++) s += Number(data[i]);
      return s;
    },
    toString: (data: unknown): string => {
      // Character by character: no Buffer here (this emulator also runs in the browser).
      const bytes = espruinoBytes(data);
      let text = "";
      for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i] as number);
      return text;
    },
    mapInPlace: (from, to, map, bits) => {
      const width = bits === undefined ? 8 : bits;
      const perByte = width < 8 ? 8 / width : 1;
      const mask = (1 << width) - 1;
      let k = 0;
      for (let i = 0; i < from.length && k < to.length; i++) {
        const v = (from[i] as number) & 0xff;
        for (let part = perByte - 1; part >= 0 && k < to.length; part--) {
          // Stored as the target's element type stores a number (a Uint8Array keeps the low 8 bits,
          // an Int32Array the whole word), as Espruino does.
          to[k++] = Number(map[width < 8 ? (v >> (part * width)) & mask : v]);
        }
      }
    },
  };
}
