/**
 * Whole-array byte work (sum, equality, hex digits, picking words) with Espruino's built-ins as the fast path.
 *
 * Inside the interpreter a loop over 84 bytes costs about 2 ms (every iteration re-reads the loop's
 * text), while E.sum, E.toString and E.mapInPlace do the same work natively in a few hundredths of a
 * millisecond. So each function here asks for the built-in first and falls back to a plain loop in
 * Node, the browser and tests; both paths give the same answer for every input (pinned by
 * test/core-bytes-native-paths-agree.test.ts with an `E` that imitates the interpreter's).
 * The check is made per call, not once at load, so tests can install and remove a stand-in `E`.
 * The device bundle makes no check at all: its build defines ESPRUINO_BUILD (see below).
 * E.sum marks the interpreter's `E` (a plain object also answers toString, from its prototype, so
 * toString alone proves nothing); a stand-in must provide all three with the interpreter's meaning
 * (the emulator the desktop and browser hosts share does: src/host/emulator/espruinoE.ts).
 */

/** The part of Espruino's `E` used here. */
interface EspruinoBytes {
  sum?: (data: Uint8Array) => number;
  toString?: (data: Uint8Array) => string;
  mapInPlace?: (from: Uint8Array, to: Uint8Array | Int32Array, map: number[] | Uint8Array | Int32Array, bitsPerElement?: number) => void;
  toUint8Array?: (parts: Uint8Array[]) => Uint8Array;
}
// Module-local ambient name: the interpreter's global `E` at run time, or undefined.
declare const E: EspruinoBytes | undefined;
/** The interpreter's `E` with the built-ins used here, for the branches that have established it. */
type NativeBytes = Required<EspruinoBytes>;
/**
 * Defined as `true` only by the device build (scripts/lib/build.js, terser's global_defs), which
 * then folds every `typeof ESPRUINO_BUILD !== "undefined"` below to true: the native branch is
 * taken without asking, and the plain loops behind it drop out of the bundle. On the interpreter
 * the question itself costs more than the call (docs/speed.md),
 * and Espruino 2v26, the oldest the profiles accept, has every built-in used here. Everywhere else
 * the name is undeclared, so typeof answers "undefined" and `E` is asked per call as before.
 */
declare const ESPRUINO_BUILD: true | undefined;

/** Sum of the byte values (E.sum on Espruino). */
export function byteSum(bytes: Uint8Array): number {
  if (typeof ESPRUINO_BUILD !== "undefined" || (typeof E !== "undefined" && E && typeof E.sum === "function")) return (E as NativeBytes).sum(bytes);
  let sum = 0;
  for (let i = 0; i < bytes.length; i++) sum += bytes[i] as number;
  return sum;
}

/**
 * True when every byte is 0xFF (erased NOR flash). Exact through the sum: no byte exceeds 255, so
 * the sum reaches 255 * length only when every byte is 255.
 */
export function allErased(bytes: Uint8Array): boolean {
  if (typeof ESPRUINO_BUILD !== "undefined" || (typeof E !== "undefined" && E && typeof E.sum === "function")) return (E as NativeBytes).sum(bytes) === 255 * bytes.length;
  return byteSum(bytes) === 255 * bytes.length;
}

/** True when both arrays hold the same bytes (on Espruino: the two as strings, compared natively). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  if (typeof ESPRUINO_BUILD !== "undefined" || (typeof E !== "undefined" && E && typeof E.sum === "function" && typeof E.toString === "function")) {
    const sa = (E as NativeBytes).toString(a);
    // E.toString answers undefined when it cannot allocate: then compare the slow way.
    if (typeof sa === "string" && sa.length === a.length) return sa === (E as NativeBytes).toString(b);
  }
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The bytes as a string of one character a byte, of the byte's value as its code (E.toString on
 * Espruino: one native call, where building the string a character at a time costs a loop step per
 * byte).
 */
export function byteString(bytes: Uint8Array): string {
  if (typeof ESPRUINO_BUILD !== "undefined" || (typeof E !== "undefined" && E && typeof E.sum === "function" && typeof E.toString === "function")) {
    const text = (E as NativeBytes).toString(bytes);
    if (typeof text === "string" && text.length === bytes.length) return text;
  }
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i] as number);
  return s;
}

/**
 * Each byte looked up in a 256-entry table, as a string of the table's values (one character a
 * byte): a byte class per position that the string's native indexOf/lastIndexOf can then search.
 */
export function byteKinds(bytes: Uint8Array, table: Uint8Array): string {
  if (typeof ESPRUINO_BUILD !== "undefined" || (typeof E !== "undefined" && E && typeof E.mapInPlace === "function" && typeof E.toString === "function")) {
    const mapped = new Uint8Array(bytes.length);
    (E as NativeBytes).mapInPlace(bytes, mapped, table);
    const text = (E as NativeBytes).toString(mapped);
    if (typeof text === "string" && text.length === bytes.length) return text;
  }
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(table[bytes[i] as number] as number);
  return s;
}

/**
 * Defined only by the build, as `true` in a bundle for a profile that runs on Espruino itself and
 * `false` in the simulators' (buildDefines): the shared emulator has no E.toUint8Array (with one,
 * the firmware's env would take the emulator's strings for Espruino's byte strings,
 * src/host/espruino/env.ts), so there joinBytes still asks.
 */
declare const ESPRUINO_FIRMWARE: boolean | undefined;

/**
 * The arrays one after another in one new array (E.toUint8Array on Espruino). Not asked on the
 * device (ESPRUINO_FIRMWARE): the question cost every boot's header read more than the join, and
 * the rest of the function came along as its one caller's function expression, made at every boot.
 */
export function joinBytes(parts: Uint8Array[]): Uint8Array {
  if ((typeof ESPRUINO_FIRMWARE !== "undefined" && ESPRUINO_FIRMWARE) || (typeof E !== "undefined" && E && typeof E.toUint8Array === "function" && typeof E.sum === "function")) {
    return (E as NativeBytes).toUint8Array(parts);
  }
  let n = 0;
  for (let i = 0; i < parts.length; i++) n += (parts[i] as Uint8Array).length;
  const out = new Uint8Array(n);
  for (let i = 0, at = 0; i < parts.length; at += (parts[i] as Uint8Array).length, i++) out.set(parts[i] as Uint8Array, at);
  return out;
}

/**
 * Picks words out of `from`: `to[i] = from[picks[i]]` for every i of `to` (E.mapInPlace on Espruino,
 * with the picks as its source and `from` as its map: one native pass, where a loop costs a few
 * statements a word). The slot log's quick scan takes each sector's sequence word this way.
 */
export function pickWords(picks: Uint8Array, to: Int32Array, from: Int32Array): void {
  if (typeof ESPRUINO_BUILD !== "undefined" || (typeof E !== "undefined" && E && typeof E.mapInPlace === "function" && typeof E.sum === "function")) {
    (E as NativeBytes).mapInPlace(picks, to, from);
    return;
  }
  for (let i = 0; i < to.length && i < picks.length; i++) to[i] = from[picks[i] as number] as number;
}

/**
 * The ASCII codes of "0123456789abcdef", for E.mapInPlace. A typed array: on the interpreter its
 * sixteen bytes are one block of RAM, where an array holds one variable per element for good.
 */
const HEX_CODES = new Uint8Array([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102]);
const HEX_DIGITS = "0123456789abcdef";

/**
 * Lower-case hex of the bytes, high digit first. On Espruino E.mapInPlace maps each 4-bit half of
 * every byte (high half first) to its digit's code in one native pass.
 */
export function bytesToHex(bytes: Uint8Array): string {
  if (typeof ESPRUINO_BUILD !== "undefined" || (typeof E !== "undefined" && E && typeof E.mapInPlace === "function" && typeof E.toString === "function")) {
    const codes = new Uint8Array(bytes.length * 2);
    (E as NativeBytes).mapInPlace(bytes, codes, HEX_CODES, 4);
    const text = (E as NativeBytes).toString(codes);
    if (typeof text === "string" && text.length === codes.length) return text;
  }
  let s = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    s += HEX_DIGITS.charAt(b >> 4) + HEX_DIGITS.charAt(b & 15);
  }
  return s;
}
