/**
 * The subset of Espruino's Graphics that the firmware draws with (src/host/espruino lists it):
 * Graphics.createArrayBuffer(width, height, 1, {vertical_byte}) with clear, setColor, setPixel,
 * drawLine, drawRect, fillRect, drawCircle, fillCircle, drawString (default font), getWidth,
 * getHeight and .buffer. Only 1 bit per pixel, as on a monochrome OLED.
 *
 * The buffer layout is the one the firmware ships to the display unchanged: with vertical_byte each
 * byte is a column of 8 pixels, bytes running along the row of 8-pixel "pages" (with msb: false,
 * least significant bit on top: exactly the SSD1306's memory layout); without it, rows of bytes.
 * As on Espruino 2v25 and later, the first pixel of a byte is its bit 7 unless msb: false is given
 * (the project measured this on 2v29), so firmware that forgets msb: false looks as garbled here as
 * on the panel. Anything outside the subset is absent, so firmware that reaches beyond the documented
 * API fails loudly here instead of on the device.
 */
import { FONT_CELL_HEIGHT, FONT_CELL_WIDTH, GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from "./font";

export interface CreateArrayBufferOptions {
  vertical_byte?: boolean;
  /** Bit order inside a byte. Default true: since 2v25 the first pixel (the top one of a vertical
   *  byte, the left one otherwise) goes to bit 7; false puts it in bit 0, as the SSD1306 wants. */
  msb?: boolean;
}

/** A coordinate as Espruino's int32 parameters take it: a fraction cut off towards zero. */
function toInt(v: number): number {
  return Math.trunc(Number(v));
}

/** Typed-array constructors of the realm the firmware runs in, so its `instanceof` checks hold. */
export interface Realm {
  Uint8Array: Uint8ArrayConstructor;
  ArrayBuffer: ArrayBufferConstructor;
}

export class ArrayBufferGraphics {
  readonly buffer: ArrayBuffer;
  private readonly bytes: Uint8Array;
  private color = 1;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly verticalByte: boolean,
    private readonly msbFirst: boolean,
    realm: Realm,
  ) {
    const length = verticalByte ? width * Math.ceil(height / 8) : Math.ceil((width * height) / 8);
    this.buffer = new realm.ArrayBuffer(length);
    this.bytes = new Uint8Array(this.buffer);
  }

  getWidth(): number {
    return this.width;
  }

  getHeight(): number {
    return this.height;
  }

  /** Clears to 0 (Espruino clears to the background colour, which is 0 unless set). */
  clear(): this {
    this.bytes.fill(0);
    return this;
  }

  /** A number (non-zero is "on" at 1 bpp) or r, g, b in 0..1 (any non-zero is "on"). */
  setColor(c: number, g?: number, b?: number): this {
    const on = g === undefined ? Number(c) !== 0 : Number(c) + Number(g) + Number(b === undefined ? 0 : b) > 0;
    this.color = on ? 1 : 0;
    return this;
  }

  setPixel(x: number, y: number, col?: number): this {
    this.plot(toInt(x), toInt(y), col === undefined ? this.color : Number(col) !== 0 ? 1 : 0);
    return this;
  }

  /**
   * A one-pixel line including both ends, stepped the way Espruino steps it: one pixel per column
   * (or per row, when the line is steeper than 45 degrees), the other coordinate carried as a
   * fixed-point number with 8 fraction bits that starts half a pixel in and grows by the slope
   * rounded towards zero. A textbook Bresenham line differs from it by a pixel here and there.
   */
  drawLine(x1: number, y1: number, x2: number, y2: number): this {
    let ax = toInt(x1);
    let ay = toInt(y1);
    let bx = toInt(x2);
    let by = toInt(y2);
    const xLength = Math.abs(bx - ax);
    const yLength = Math.abs(by - ay);
    if (xLength > yLength) {
      if (ax > bx) [ax, bx, ay, by] = [bx, ax, by, ay];
      const step = Math.trunc(((by - ay) * 256) / xLength);
      let pos = ay * 256 + 128;
      for (let x = ax; x <= bx; x++) {
        this.plot(x, pos >> 8, this.color);
        pos += step;
      }
    } else {
      if (ay > by) [ax, bx, ay, by] = [bx, ax, by, ay];
      const step = Math.trunc(((bx - ax) * 256) / (yLength === 0 ? 1 : yLength));
      let pos = ax * 256 + 128;
      for (let y = ay; y <= by; y++) {
        this.plot(pos >> 8, y, this.color);
        pos += step;
      }
    }
    return this;
  }

  /** Outline of the rectangle with corners (x1, y1) and (x2, y2), both included. */
  drawRect(x1: number, y1: number, x2: number, y2: number): this {
    const l = toInt(x1);
    const t = toInt(y1);
    const r = toInt(x2);
    const b = toInt(y2);
    this.fill(l, t, r, t);
    this.fill(r, t, r, b);
    this.fill(l, b, r, b);
    this.fill(l, b, l, t);
    return this;
  }

  /** The rectangle with corners (x1, y1) and (x2, y2), both included, filled. */
  fillRect(x1: number, y1: number, x2: number, y2: number): this {
    this.fill(toInt(x1), toInt(y1), toInt(x2), toInt(y2));
    return this;
  }

  /** A circle is an ellipse in the square around it, as on Espruino (see ellipse). */
  drawCircle(cx: number, cy: number, r: number): this {
    this.ellipse(toInt(cx), toInt(cy), toInt(r), false);
    return this;
  }

  fillCircle(cx: number, cy: number, r: number): this {
    this.ellipse(toInt(cx), toInt(cy), toInt(r), true);
    return this;
  }

  /** Text in the default 4x6 font, top-left at (x, y); "\n" starts a new line. */
  drawString(text: unknown, x?: number, y?: number, solid?: boolean): this {
    const s = String(text);
    const startX = toInt(x === undefined ? 0 : x);
    let cx = startX;
    let cy = toInt(y === undefined ? 0 : y);
    for (let i = 0; i < s.length; i++) {
      const code = s.charCodeAt(i);
      if (code === 10) {
        cx = startX;
        cy += FONT_CELL_HEIGHT;
        continue;
      }
      this.drawGlyph(code, cx, cy, solid === true);
      cx += FONT_CELL_WIDTH;
    }
    return this;
  }

  /** The pixel at (x, y): 0 or 1 (outside the buffer: 0). For the tests and the renderer. */
  pixel(x: number, y: number): number {
    const at = this.locate(x, y);
    return at === null ? 0 : ((this.bytes[at.index] as number) >> at.bit) & 1;
  }

  private drawGlyph(code: number, x: number, y: number, solid: boolean): void {
    const rows = glyphRows(code);
    for (let row = 0; row < FONT_CELL_HEIGHT; row++) {
      const bits = row < GLYPH_HEIGHT ? (rows[row] as number) : 0;
      for (let col = 0; col < FONT_CELL_WIDTH; col++) {
        const on = col < GLYPH_WIDTH && ((bits >> (GLYPH_WIDTH - 1 - col)) & 1) === 1;
        if (on) this.plot(x + col, y + row, this.color);
        else if (solid) this.plot(x + col, y + row, this.color ? 0 : 1);
      }
    }
  }

  /**
   * The circle of radius r about (cx, cy) the way Espruino draws it: its ellipse routine with both
   * radii r, walking one quadrant from the bottom of the circle (dx 0, dy r) with an error term and
   * mirroring it into the other three. The outline plots the four mirrored points at every step;
   * the filled form draws the row between them just before dy changes, so a radius of 1 fills the
   * whole 3x3 square. Flat leftovers (the routine's own fix-up loop) finish the middle row.
   */
  private ellipse(cx: number, cy: number, r: number, fill: boolean): void {
    const left = cx - r;
    const right = cx + r;
    const top = cy - r;
    const bottom = cy + r;
    // The centre and the radii as Espruino derives them from the bounding box (C division).
    const x = Math.trunc((Math.min(left, right) + Math.max(left, right)) / 2);
    const y = Math.trunc((Math.min(top, bottom) + Math.max(top, bottom)) / 2);
    const a = Math.trunc((Math.max(left, right) - Math.min(left, right)) / 2);
    const b = Math.trunc((Math.max(top, bottom) - Math.min(top, bottom)) / 2);
    const a2 = a * a;
    const b2 = b * b;
    let dx = 0;
    let dy = b;
    let err = b2 - (2 * b - 1) * a2;
    let changed: boolean;
    do {
      changed = false;
      if (!fill) {
        this.plot(x + dx, y + dy, this.color);
        this.plot(x - dx, y + dy, this.color);
        this.plot(x + dx, y - dy, this.color);
        this.plot(x - dx, y - dy, this.color);
      }
      const e2 = 2 * err;
      if (e2 < (2 * dx + 1) * b2) {
        dx++;
        err += (2 * dx + 1) * b2;
        changed = true;
      }
      if (e2 > -(2 * dy - 1) * a2) {
        if (fill) {
          this.fill(x - dx, y + dy, x + dx, y + dy);
          this.fill(x - dx, y - dy, x + dx, y - dy);
        }
        dy--;
        err -= (2 * dy - 1) * a2;
        changed = true;
      }
    } while (changed && dy >= 0);
    while (dx++ < a) {
      if (fill) this.fill(x - dx, y, x + dx, y);
      else {
        this.plot(x + dx, y, this.color);
        this.plot(x - dx, y, this.color);
      }
    }
  }

  /** Every pixel from (x1, y1) to (x2, y2), both included, in either order, clipped to the buffer. */
  private fill(x1: number, y1: number, x2: number, y2: number): void {
    const left = Math.max(Math.min(x1, x2), 0);
    const right = Math.min(Math.max(x1, x2), this.width - 1);
    const top = Math.max(Math.min(y1, y2), 0);
    const bottom = Math.min(Math.max(y1, y2), this.height - 1);
    for (let y = top; y <= bottom; y++) for (let x = left; x <= right; x++) this.plot(x, y, this.color);
  }

  private locate(x: number, y: number): { index: number; bit: number } | null {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return null;
    if (this.verticalByte) return { index: x + (y >> 3) * this.width, bit: this.msbFirst ? 7 - (y & 7) : y & 7 };
    const n = x + y * this.width;
    return { index: n >> 3, bit: this.msbFirst ? 7 - (n & 7) : n & 7 };
  }

  private plot(x: number, y: number, col: number): void {
    const at = this.locate(x, y);
    if (at === null) return; // Espruino clips silently
    const old = this.bytes[at.index] as number;
    this.bytes[at.index] = col ? old | (1 << at.bit) : old & ~(1 << at.bit);
  }
}

/** The global `Graphics` the firmware sees: only createArrayBuffer, only 1 bpp. */
export function createGraphicsNamespace(realm: Realm): {
  createArrayBuffer: (w: number, h: number, bpp: number, opts?: CreateArrayBufferOptions) => ArrayBufferGraphics;
} {
  return {
    createArrayBuffer(w: number, h: number, bpp: number, opts?: CreateArrayBufferOptions): ArrayBufferGraphics {
      if (bpp !== 1) throw new Error("desktop Graphics: only 1 bit per pixel is emulated, got " + String(bpp));
      if (!(w > 0 && h > 0)) throw new Error("desktop Graphics: bad size " + String(w) + "x" + String(h));
      return new ArrayBufferGraphics(w, h, !!(opts && opts.vertical_byte), !(opts && opts.msb === false), realm);
    },
  };
}
