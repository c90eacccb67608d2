/**
 * CRC-32 as in IEEE 802.3: reflected polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF.
 *
 * crc32Bitwise is the reference the format names: eight shifts per byte and no lookup table, so the
 * device carries no 1 KiB table in flash. It is slow inside the Espruino interpreter (about 400 times
 * the work of the built-in), so crc32 uses Espruino's native E.CRC32 when it exists and keeps the
 * bitwise one as the fallback for Node and as the reference the tests compare against.
 * See docs/adr/0002-crc32-fast-path.md.
 */

/** The part of Espruino's `E` object this file uses. E.CRC32 may answer a signed 32-bit value. */
interface EspruinoCrc {
  CRC32?: (data: Uint8Array) => number;
}
// Module-local ambient name: resolves to the interpreter's global `E` at run time, or is undefined.
declare const E: EspruinoCrc | undefined;
// true only in the device bundle, whose build defines it (as in src/core/bytes.ts): there the
// built-in is used without asking, and crc32Bitwise is not carried.
declare const ESPRUINO_BUILD: true | undefined;

const POLY_REFLECTED = 0xedb88320;

/** CRC-32 of bytes[start, end), computed bit by bit. Returns an unsigned u32. */
export function crc32Bitwise(bytes: Uint8Array, start?: number, end?: number): number {
  const from = start === undefined ? 0 : start;
  const to = end === undefined ? bytes.length : end;
  let crc = 0xffffffff;
  for (let i = from; i < to; i++) {
    crc ^= bytes[i] as number;
    for (let k = 0; k < 8; k++) {
      // (-(crc & 1)) is all ones when the low bit is set: xor the polynomial in without a branch.
      crc = (crc >>> 1) ^ (POLY_REFLECTED & -(crc & 1));
    }
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * CRC-32 of bytes[start, end): E.CRC32 on Espruino (or under a test's stand-in `E`, looked up per call
 * so tests can install and remove one), crc32Bitwise elsewhere. Same value either way. One function
 * and no helper calls: on the interpreter every call re-reads the callee's text.
 */
export function crc32(bytes: Uint8Array, start?: number, end?: number): number {
  if (typeof ESPRUINO_BUILD !== "undefined" || (typeof E !== "undefined" && E && typeof E.CRC32 === "function")) {
    // A method call on E, as the interpreter expects; >>> 0 because it may answer a signed value.
    return (E as Required<EspruinoCrc>).CRC32(bytes.subarray(start === undefined ? 0 : start, end === undefined ? bytes.length : end)) >>> 0;
  }
  return crc32Bitwise(bytes, start, end);
}
