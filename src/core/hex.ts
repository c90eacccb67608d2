/**
 * Lower-case hex for bytes and back; used for nameHex, exportHex/importHex and golden files.
 * bytesToHex lives in bytes.ts beside the other whole-array helpers with a native fast path.
 */
export { bytesToHex } from "./bytes";

const DIGITS = "0123456789abcdef";

/** Bytes from hex digits (either case, no separators), or null when the text is not that. */
export function hexToBytes(hex: string): Uint8Array | null {
  if (typeof hex !== "string" || hex.length % 2 !== 0) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const h = DIGITS.indexOf(hex.charAt(2 * i).toLowerCase());
    const l = DIGITS.indexOf(hex.charAt(2 * i + 1).toLowerCase());
    if (h < 0 || l < 0) return null;
    out[i] = (h << 4) | l;
  }
  return out;
}
