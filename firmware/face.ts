/**
 * Draws the pet on a 1-bit Graphics: its name on top, a face for the expression in the middle and
 * what it is doing at the bottom. Only the GraphicsLike subset is used (see env.ts), with the
 * default 4x6 font, so the desktop host can render the same picture.
 */
import { Expression } from "../src/core/types";
import type { GraphicsLike } from "../src/platform/env";

/** Width of one character of Espruino's default font, for centring (no stringWidth in the subset). */
const CHAR_WIDTH = 4;

function centredString(g: GraphicsLike, text: string, y: number): void {
  let x = Math.floor((g.getWidth() - text.length * CHAR_WIDTH) / 2);
  if (x < 0) x = 0;
  g.drawString(text, x, y);
}

/** A curve through three points as two lines: cheap mouths and brows. */
function vee(g: GraphicsLike, x1: number, y1: number, xm: number, ym: number, x2: number, y2: number): void {
  g.drawLine(x1, y1, xm, ym);
  g.drawLine(xm, ym, x2, y2);
}

/** The face, centred on (cx, cy), roughly 48 pixels wide and 36 high. */
export function drawFace(g: GraphicsLike, expression: number, cx: number, cy: number): void {
  const lx = cx - 12;
  const rx = cx + 12;
  const ey = cy - 6;
  const my = cy + 10;
  g.drawCircle(cx, cy, 22);
  if (expression === Expression.Happy) {
    vee(g, lx - 4, ey + 2, lx, ey - 2, lx + 4, ey + 2); // eyes closed upwards: ^ ^
    vee(g, rx - 4, ey + 2, rx, ey - 2, rx + 4, ey + 2);
    vee(g, cx - 9, my - 3, cx, my + 3, cx + 9, my - 3); // smile
  } else if (expression === Expression.Sleepy) {
    g.drawLine(lx - 4, ey, lx + 4, ey); // eyes shut: - -
    g.drawLine(rx - 4, ey, rx + 4, ey);
    g.drawLine(cx - 4, my, cx + 4, my);
    g.drawString("z", cx + 24, cy - 20);
    g.drawString("Z", cx + 29, cy - 27);
  } else if (expression === Expression.Surprised) {
    g.drawCircle(lx, ey, 4); // wide eyes and an O mouth
    g.drawCircle(rx, ey, 4);
    g.fillCircle(lx, ey, 1);
    g.fillCircle(rx, ey, 1);
    g.drawCircle(cx, my, 4);
  } else if (expression === Expression.Grumpy) {
    g.drawLine(lx - 5, ey - 6, lx + 4, ey - 3); // brows down towards the middle
    g.drawLine(rx + 5, ey - 6, rx - 4, ey - 3);
    g.fillCircle(lx, ey, 2);
    g.fillCircle(rx, ey, 2);
    vee(g, cx - 9, my + 3, cx, my - 3, cx + 9, my + 3); // frown
  } else if (expression === Expression.Curious) {
    g.fillCircle(lx, ey, 2); // one eye wide, one brow raised, and a question mark
    g.drawCircle(rx, ey, 4);
    g.drawLine(rx - 4, ey - 8, rx + 4, ey - 10);
    g.drawLine(cx - 3, my, cx + 5, my - 2);
    g.drawString("?", cx + 26, cy - 22);
  } else {
    g.fillCircle(lx, ey, 2); // neutral: dot eyes, straight mouth
    g.fillCircle(rx, ey, 2);
    g.drawLine(cx - 7, my, cx + 7, my);
  }
}

/**
 * The whole screen: clear, name, face, activity. The caller sends g.buffer to the panel. `fresh`
 * says g is as Graphics.createArrayBuffer left it (blank, drawing in colour 1), so the clear is
 * skipped: on Espruino it is the dearest call here, 0.8 M x86 instructions of the boot's first picture.
 */
export function drawPet(g: GraphicsLike, name: string, expression: number, activityName: string, fresh?: boolean): void {
  const h = g.getHeight();
  if (fresh !== true) {
    g.clear();
    g.setColor(1);
  }
  centredString(g, name, 0);
  drawFace(g, expression, g.getWidth() >> 1, h >> 1);
  centredString(g, activityName, h - 6);
}

/** Which parts of the picture changed since it was last sent. */
export interface PictureChange {
  name: boolean;
  expression: boolean;
  activity: boolean;
}

/** Rows of the default font: a text line covers its y and the five rows below. */
const FONT_ROWS = 6;

/**
 * The rows drawPet may set for the parts in `change`, on a panel `height` rows tall: [first, last],
 * inclusive and clipped to the panel, or null when nothing changed. The name is the text line at
 * the top, the face everything from the sleepy "Z" 27 rows above the centre down to the bottom of the
 * circle 22 rows below it, the activity the text line at the bottom. The other rows are the same in
 * the old and the new picture, so only the pages (8-row bands) under these need sending:
 * test/firmware-display-pages.test.ts draws every pair of pictures and holds the bands to it.
 */
export function changedRows(change: PictureChange, height: number): number[] | null {
  const cy = height >> 1;
  let first = height;
  let last = -1;
  if (change.name) {
    first = 0;
    last = FONT_ROWS - 1;
  }
  if (change.expression) {
    first = Math.min(first, cy - 27);
    last = Math.max(last, cy + 22);
  }
  if (change.activity) {
    first = Math.min(first, height - FONT_ROWS);
    last = height - 1;
  }
  first = Math.max(first, 0);
  last = Math.min(last, height - 1);
  return last < first ? null : [first, last];
}
