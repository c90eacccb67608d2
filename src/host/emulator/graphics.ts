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
    this.plot(Math.floor(x), Math.floor(y), col === undefined ? this.color : Number(col) !== 0 ? 1 : 0);
    return this;
  }

  /** A one-pixel line including both ends (Bresenham). */
  drawLine(x1: number, y1: number, x2: number, y2: number): this {
    let x = Math.round(x1);
    let y = Math.round(y1);
    const tx = Math.round(x2);
    const ty = Math.round(y2);
    const dx = Math.abs(tx - x);
    const dy = -Math.abs(ty - y);
    const sx = x < tx ? 1 : -1;
    const sy = y < ty ? 1 : -1;
    let err = dx + dy;
    for (;;) {
      this.plot(x, y, this.color);
      if (x === tx && y === ty) break;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y += sy;
      }
    }
    return this;
  }

  /** Outline of the rectangle with corners (x1, y1) and (x2, y2), both included. */
  drawRect(x1: number, y1: number, x2: number, y2: number): this {
    this.drawLine(x1, y1, x2, y1);
    this.drawLine(x2, y1, x2, y2);
    this.drawLine(x2, y2, x1, y2);
    this.drawLine(x1, y2, x1, y1);
    return this;
  }

  /** The rectangle with corners (x1, y1) and (x2, y2), both included, filled. */
  fillRect(x1: number, y1: number, x2: number, y2: number): this {
    const left = Math.round(Math.min(x1, x2));
    const right = Math.round(Math.max(x1, x2));
    const top = Math.round(Math.min(y1, y2));
    const bottom = Math.round(Math.max(y1, y2));
    for (let y = top; y <= bottom; y++) for (let x = left; x <= right; x++) this.plot(x, y, this.color);
    return this;
  }

  drawCircle(cx: number, cy: number, r: number): this {
    this.circle(Math.round(cx), Math.round(cy), Math.round(r), false);
    return this;
  }

  fillCircle(cx: number, cy: number, r: number): this {
    this.circle(Math.round(cx), Math.round(cy), Math.round(r), true);
    return this;
  }

  /** Text in the default 4x6 font, top-left at (x, y); "\n" starts a new line. */
  drawString(text: unknown, x?: number, y?: number, solid?: boolean): this {
    const s = String(text);
    const startX = Math.round(x === undefined ? 0 : x);
    let cx = startX;
    let cy = Math.round(y === undefined ? 0 : y);
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

  // Midpoint circle; the filled form draws horizontal spans between the symmetric points.
  private circle(cx: number, cy: number, r: number, fill: boolean): void {
    if (r < 0) return;
    let x = r;
    let y = 0;
    let err = 1 - r;
    while (x >= y) {
      if (fill) {
        this.span(cx - x, cx + x, cy + y);
        this.span(cx - x, cx + x, cy - y);
        this.span(cx - y, cx + y, cy + x);
        this.span(cx - y, cx + y, cy - x);
      } else {
        const points = [
          [x, y], [y, x], [-y, x], [-x, y], [-x, -y], [-y, -x], [y, -x], [x, -y],
        ];
        for (const p of points) this.plot(cx + (p[0] as number), cy + (p[1] as number), this.color);
      }
      y++;
      if (err < 0) err += 2 * y + 1;
      else {
        x--;
        err += 2 * (y - x) + 1;
      }
    }
  }

  private span(x1: number, x2: number, y: number): void {
    for (let x = x1; x <= x2; x++) this.plot(x, y, this.color);
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
