/**
 * Espruino's default bitmap font as the desktop and the page draw it: every character a glyph up
 * to 3 pixels wide and 6 high (descenders included) in a 4x6 cell, so a picture drawn here is the
 * picture the board draws, pixel for pixel.
 *
 * The table was read off the interpreter (Espruino 2v29's Linux build: each character drawn with
 * Graphics.drawString into a fresh buffer and its pixels read back), and
 * test/emulator-agrees-with-espruino.test.ts draws every character on both and requires the same
 * buffer. The font's design is Espruino's (Gordon Williams, MPL-2.0); these rows are a measurement
 * of its output, not its source.
 *
 * Each glyph is six digits, one per row from the top; each digit is three bits, 4 = left column,
 * 2 = middle, 1 = right. Codes 32 to 128 have glyphs (127 is a solid block, 128 the euro sign);
 * every other character draws nothing but still takes its cell, as on the interpreter.
 */

export const FONT_CELL_WIDTH = 4;
export const FONT_CELL_HEIGHT = 6;
export const GLYPH_WIDTH = 3;
export const GLYPH_HEIGHT = 6;

/** The first code with a glyph; GLYPH_LIST[i] is code FIRST_CODE + i. */
const FIRST_CODE = 32;

// Index 0 is the space (code 32); the last entry is code 128.
const GLYPHS =
  "000000 222020 550000 575750 276372 512450 663670 220000 244420 211120 275000 002720 000024 000700 000020 112440 " + // space to /
  "255520 262270 612470 612160 355710 746160 346520 711220 252520 253120 " + // 0 to 9
  "002020 002024 002420 007070 002120 612020 257430 " + // : to @
  "255750 656560 254520 655560 746470 746440 345530 557550 722270 111520 566550 444470 577770 " + // A to M
  "577750 255520 655640 255730 655650 342160 722220 555570 555720 557750 552550 557220 712470 " + // N to Z
  "744470 442110 711170 250000 000070 420000 " + // [ to `
  "061770 465560 034430 135530 027430 127220 035316 465550 206270 206224 456550 622270 067770 " + // a to m
  "065550 025520 065564 035531 056440 036160 272210 055530 055720 057770 052550 055316 072470 " + // n to z
  "326230 222220 623260 360000 " + // { to ~
  "777777 346643"; // 127 (a solid block) and 128 (the euro sign)

const GLYPH_LIST = GLYPHS.split(" ");
const NO_GLYPH = "000000";

/**
 * The rows of one character's glyph as 3-bit numbers (bit 2 = left column), top row first; all
 * zero for a character the font has no glyph for.
 */
export function glyphRows(code: number): number[] {
  const glyph = code >= FIRST_CODE ? GLYPH_LIST[code - FIRST_CODE] : undefined;
  const text = glyph === undefined ? NO_GLYPH : glyph;
  const rows: number[] = [];
  for (let i = 0; i < GLYPH_HEIGHT; i++) rows.push(text.charCodeAt(i) - 48);
  return rows;
}
