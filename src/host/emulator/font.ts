/**
 * The desktop's stand-in for Espruino's default bitmap font: every printable ASCII character as a
 * 3x5 glyph in a 4x6 cell (one column and one row of spacing), drawn by our own hand. The device's
 * font differs pixel for pixel; what matters here is that text has the same cell size, so a layout
 * that fits on the OLED fits in the terminal too.
 *
 * Each glyph is five digits, one per row from the top; each digit is three bits, 4 = left column,
 * 2 = middle, 1 = right.
 */

export const FONT_CELL_WIDTH = 4;
export const FONT_CELL_HEIGHT = 6;
export const GLYPH_WIDTH = 3;
export const GLYPH_HEIGHT = 5;

// Index 0 is the space (code 32); the last entry is "~" (code 126).
const GLYPHS =
  "00000 22202 55000 57575 36363 51245 25253 22000 12221 42224 05250 02720 00024 00700 00002 11244 " + // space to /
  "75557 26227 71747 71317 55711 74717 74757 71111 75757 75717 " + // 0 to 9
  "02020 02024 12421 07070 42124 71302 75747 " + // : to @
  "25755 65656 34443 65556 74647 74644 34553 55755 72227 11152 55655 44447 57555 " + // A to M
  "65555 25552 65644 25573 65655 34216 72222 55557 55552 55775 55255 55222 71247 " + // N to Z
  "64446 44211 31113 25000 00007 42000 " + // [ to `
  "03553 44656 03443 11353 03743 12722 35316 44655 20222 10116 45655 62227 00775 " + // a to m
  "00655 00252 06564 03531 05644 03416 27221 00557 00552 00577 00525 55316 07367 " + // n to z
  "32623 22222 62326 06300"; // { to ~

const GLYPH_LIST = GLYPHS.split(" ");
/** Drawn for any character outside printable ASCII: a filled cell, so it is visibly "unknown". */
const UNKNOWN_GLYPH = "77777";

/**
 * The rows of one character's glyph as 3-bit numbers (bit 2 = left column), top row first.
 * Characters outside 32..126 get a solid block.
 */
export function glyphRows(code: number): number[] {
  const glyph = code >= 32 && code <= 126 ? GLYPH_LIST[code - 32] : undefined;
  const text = glyph === undefined ? UNKNOWN_GLYPH : glyph;
  const rows: number[] = [];
  for (let i = 0; i < GLYPH_HEIGHT; i++) rows.push(text.charCodeAt(i) - 48);
  return rows;
}

/** Number of glyphs defined (for a test that checks the table is complete). */
export const GLYPH_COUNT = GLYPH_LIST.length;
