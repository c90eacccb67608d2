/**
 * Pet names as bytes. The payload stores the name's bytes, not characters, so the Core keeps bytes
 * too: a name from another implementation that is not valid UTF-8 still re-encodes unchanged.
 * Espruino has no TextEncoder, hence the small UTF-8 coder here. What makes a name valid is one of
 * the world's rules (world.ts isValidName).
 */
import { byteString } from "./bytes";
import { isValidName } from "./world";

// Defined in the device bundles (scripts/lib/build.js buildDefines): E.toString is there for sure.
declare const ESPRUINO_BUILD: true | undefined;
declare const E: { toString(bytes: Uint8Array): string | undefined };

/** UTF-8 bytes of a JavaScript string (lone surrogates become U+FFFD). */
export function utf8Encode(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return new Uint8Array(out);
}

/**
 * The code points of UTF-8 bytes, as numbers. Bad input is replaced the way the WHATWG decoder
 * (Node's and browsers' TextDecoder) does it: a lead byte plus the continuation bytes that were still
 * acceptable become ONE U+FFFD, and the byte that broke the sequence is read again as a fresh start.
 * Matching it means a name that is not valid UTF-8 displays the same on the device as in the desktop
 * tools. Numbers, not a string, because on a build without Unicode strings (the ESP32's)
 * String.fromCharCode keeps only a code point's low byte.
 */
export function utf8CodePoints(bytes: Uint8Array): number[] {
  "rarely called";
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      out.push(b);
      i++;
      continue;
    }
    let need = 0;
    let c = 0;
    // The allowed range of the FIRST continuation byte; narrower for E0, ED, F0 and F4 so that
    // overlong forms, surrogates and values above U+10FFFF are refused as early as possible.
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      c = b & 31;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      c = b & 15;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      c = b & 7;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else {
      out.push(0xfffd);
      i++;
      continue;
    }
    let k = 1;
    while (k <= need) {
      const cont = bytes[i + k];
      if (cont === undefined || cont < lower || cont > upper) break;
      c = (c << 6) | (cont & 63);
      lower = 0x80;
      upper = 0xbf;
      k++;
    }
    if (k <= need) {
      // Consume the lead and the acceptable continuations; the offending byte starts over.
      out.push(0xfffd);
      i += k;
      continue;
    }
    out.push(c);
    i += need + 1;
  }
  return out;
}

/** A string from UTF-8 bytes, read as utf8CodePoints reads them. */
export function utf8Decode(bytes: Uint8Array): string {
  const cps = utf8CodePoints(bytes);
  let s = "";
  for (let k = 0; k < cps.length; k++) {
    const c = cps[k] as number;
    s += c < 0x10000 ? String.fromCharCode(c) : String.fromCharCode(0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 1023));
  }
  return s;
}

/**
 * The name's bytes for a string, or null when the string does not make a valid name. `encode` turns
 * the string into UTF-8 (default utf8Encode); the firmware passes Espruino's E.toUint8Array, because
 * on a build without Unicode strings a typed string already holds UTF-8 bytes (see src/platform/env.ts).
 */
export function nameFromString(s: string, encode?: (s: string) => Uint8Array): Uint8Array | null {
  "rarely called";
  if (typeof s !== "string") return null;
  const bytes = encode === undefined ? utf8Encode(s) : new Uint8Array(encode(s));
  return isValidName(bytes) ? bytes : null;
}

/** The name for display. */
export function nameToString(bytes: Uint8Array): string {
  return utf8Decode(bytes);
}

/**
 * The name as the device shows it, on the SSD1306 panel and in console lines: the UTF-8 reading of
 * the bytes, one character per code point (a character outside the BMP counts once, and so does each
 * U+FFFD from bad bytes), each as the nearest character the panel's font has. The font draws
 * printable ASCII (0x20..0x7E) only: those stay as they are; a letter of Latin-1 or Latin Extended-A
 * (U+00C0..U+017F: the accented letters of most European names) becomes its letter without the
 * accent, from LATIN_LETTERS ("Zoë" is shown "Zoe", "Łucja" "Lucja", "Ærø" "Aro"); anything else is
 * "?".
 *
 * Why ASCII and not Latin-1, although an 8-bit Espruino string could hold é or ñ: the ESP32 build has
 * no Unicode strings, so String.fromCharCode keeps only a code point's low byte (U+263A would show as
 * ':'), which is why the code points are read as numbers here (utf8CodePoints), never through a
 * string; the panel's default font only draws ASCII; and a Latin-1 byte sent over the console is not
 * valid UTF-8 on the owner's terminal. Control characters go too, so a name cannot move a terminal's
 * cursor. One rule for both paths keeps the display and the console lines in step. pet.status().name
 * and the desktop tools keep the full UTF-8 reading; nameHex is the exact bytes.
 */
export function nameForDisplay(bytes: Uint8Array): string {
  // Most names are printable ASCII throughout, and then the text is the bytes themselves: made and
  // checked natively, where the general path below takes a loop step per byte twice (on Espruino
  // 1.7 M x86 instructions for a three-letter name, against about 0.2 M; the boot shows two names).
  // (The pattern, any character outside a space to a tilde, is written here rather than kept: on
  // Espruino a regular expression kept from boot holds RAM for good, and this runs rarely.)
  // On the device E.toString is called here itself: byteString's one use in the bundle, written in
  // as a function made and called at every name shown, cost the chip more than the rest (docs/speed.md).
  // E.toString answers undefined when it cannot make the string; the general path below then does.
  const raw = typeof ESPRUINO_BUILD !== "undefined" ? E.toString(bytes) : byteString(bytes);
  if (typeof raw === "string" && !/[^ -~]/.test(raw)) return raw;
  // LATIN_LETTERS: U+00C0..U+017F, one character each, in order. Written here, not kept, for the
  // same reason as the pattern above. Held to Unicode's decompositions by
  // test/core-name-utf8-and-validity.test.ts; the letters without one (Æ Ð Ø Þ ß Đ Ħ ı ĸ Ł ŉ Ŋ Œ Ŧ,
  // and × ÷) are given by their look.
  const latin =
    "AAAAAAACEEEEIIIIDNOOOOOxOUUUUYPsaaaaaaaceeeeiiiidnooooo/ouuuuypyAaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiIiJjKkkLlLlLlLlLlNnNnNnnNnOoOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";
  const cps = utf8CodePoints(bytes);
  let out = "";
  for (let k = 0; k < cps.length; k++) {
    const c = cps[k] as number;
    if (c >= 0x20 && c <= 0x7e) out += String.fromCharCode(c);
    else if (c >= 0xc0 && c <= 0x17f) out += latin.charAt(c - 0xc0);
    else out += "?";
  }
  return out;
}
