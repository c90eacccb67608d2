/**
 * How the project reads a file that should hold a save payload: binary (exactly 84 bytes) or hex
 * text. Host-neutral (no Node API), shared by `pet-save` (src/host/node/cli/io.ts) and the web page.
 */
import { PAYLOAD_LENGTH } from "../save/layout";

/** Hex text that cannot be a payload (an odd number of digits); `message` names the file. */
export class PayloadFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PayloadFileError";
  }
}

/** True for the bytes of ASCII hex digits and the whitespace of text files. */
function isHexTextByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66) || b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/**
 * Bytes that were meant as hex text but were read as binary: nearly all of them hex digits or
 * whitespace (an 84-character hex file, or hex with a "0x" prefix or a comment). For a hint only.
 */
export function looksLikeHexText(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  let hexish = 0;
  for (let i = 0; i < bytes.length; i++) if (isHexTextByte(bytes[i] as number)) hexish++;
  return hexish >= bytes.length * 0.9;
}

export interface PayloadInput {
  bytes: Uint8Array;
  /** The file was hex text (as pet.exportHex() and test/golden/*.hex give it) and `bytes` are its decoding. */
  fromHex: boolean;
}

/** The payload magic "PETS" as hex digits: hex text of a payload starts with it. */
const MAGIC_HEX = "50455453";

/**
 * A payload file as the project hands payloads out: exactly 84 bytes is the binary payload; a file
 * of nothing but hex digits and whitespace whose digits begin with the magic 50455453 ("PETS") is
 * hex text (one line with a newline, like the golden vectors and pet.exportHex(), or wrapped over
 * lines) and is decoded; anything else is taken as it is (binary, or a region image) and judged by
 * the command. The magic keeps the two readings apart: a short binary that happens to be made of
 * ASCII digits is still judged as binary, and hex text whose magic is wrong is bad-magic either way.
 */
export function payloadFromBytes(bytes: Uint8Array, path: string): PayloadInput {
  if (bytes.length === PAYLOAD_LENGTH || bytes.length === 0) return { bytes, fromHex: false };
  let digits = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (!isHexTextByte(b)) return { bytes, fromHex: false };
    if (b > 0x20) digits += String.fromCharCode(b);
  }
  if (digits.slice(0, MAGIC_HEX.length).toLowerCase() !== MAGIC_HEX) return { bytes, fromHex: false };
  if (digits.length % 2 !== 0) {
    throw new PayloadFileError(path + " looks like hex text but holds an odd number of hex digits (" + digits.length + "); a payload is 168 digits");
  }
  return { bytes: hexDigitsToBytes(digits), fromHex: true };
}

/** Bytes of an even-length string of hex digits (already checked to be digits only). */
function hexDigitsToBytes(digits: string): Uint8Array {
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.substr(2 * i, 2), 16);
  return out;
}
