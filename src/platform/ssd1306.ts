/**
 * A small SSD1306 (128x64 or 128x32 OLED) driver over I2C, written for this project from the
 * controller's datasheet so nothing is fetched at upload.
 *
 * Every I2C transfer starts with a control byte: 0x00 says the bytes that follow are commands, 0x40
 * that they are display RAM. With horizontal addressing the RAM is filled page by page (8 rows per
 * page), one byte per column with the top row in bit 0, which is exactly the layout of Espruino's
 * Graphics.createArrayBuffer(w, h, 1, {vertical_byte: true}), so the buffer is sent as it is (the
 * pages that changed, see createSsd1306).
 */
import type { I2CBus } from "./env";

const CONTROL_COMMANDS = 0x00;
const CONTROL_DATA = 0x40;

/** The power-up sequence for a panel `height` rows tall (64 or 32) with the charge pump on. */
export function ssd1306InitCommands(height: number): number[] {
  return [
    0xae, // display off while configuring
    0xd5, 0x80, // oscillator / clock divide: the datasheet's reset value
    0xa8, height - 1, // multiplex ratio: number of rows
    0xd3, 0x00, // no vertical offset
    0x40, // RAM start line 0
    0x8d, 0x14, // charge pump on (boards without an external VCC)
    0x20, 0x00, // horizontal addressing mode
    0xa1, // column 127 is segment 0: mirror so x grows to the right
    0xc8, // scan COM from the bottom: flip so y grows downwards
    0xda, height === 64 ? 0x12 : 0x02, // COM pin layout for the panel height
    0x81, 0xcf, // contrast
    0xd9, 0xf1, // pre-charge period
    0xdb, 0x40, // VCOMH deselect level
    0xa4, // show RAM contents
    0xa6, // not inverted
    0xaf, // display on
  ];
}

export interface Ssd1306 {
  /**
   * Sends pages `firstPage` .. `lastPage` (8-row bands, inclusive; default all) of the 1-bit
   * vertical_byte buffer (width * height / 8 bytes) as one window. Returns the bytes of display RAM
   * sent.
   */
  flush(buffer: ArrayBuffer, firstPage?: number, lastPage?: number): number;
}

/**
 * Initialises the panel at `address` (usually 0x3C) and returns its flush function.
 *
 * Why a page range: at 400 kHz a whole 1 KiB frame keeps the I2C bus (and the interpreter, which
 * waits for it) busy for about 25 ms, and a change usually touches only some of the eight pages (a
 * new activity only the bottom line). The SSD1306's column and page address commands (0x21, 0x22)
 * set a window, and in horizontal addressing mode the data that follows fills exactly that window.
 * Which pages changed is the caller's to say (firmware/face.ts changedRows knows where each part
 * of the picture is drawn): finding out by comparing the frames costs more inside the interpreter
 * than the bus time it saves.
 */
export function createSsd1306(i2c: I2CBus, address: number, width: number, height: number): Ssd1306 {
  i2c.writeTo(address, CONTROL_COMMANDS, ssd1306InitCommands(height));
  const pages = height / 8;

  function flush(buffer: ArrayBuffer, firstPage?: number, lastPage?: number): number {
    const first = firstPage === undefined || firstPage < 0 ? 0 : firstPage;
    const last = lastPage === undefined || lastPage >= pages ? pages - 1 : lastPage;
    if (last < first) return 0;
    i2c.writeTo(address, CONTROL_COMMANDS, [0x21, 0, width - 1, 0x22, first, last]);
    // One transfer per page (width bytes), as Espruino's own SSD1306 module sends them (128 bytes on
    // a 128-wide panel): half the calls of 64-byte transfers, and each one costs a call and its
    // statements on the interpreter. Each page is a view made by the Uint8Array constructor, natively
    // on every Espruino (on 2v06, the ESP32's own firmware, subarray is the function form's
    // JavaScript prelude); `buffer` is the whole frame, so every page lies inside it.
    const end = (last + 1) * width;
    for (let i = first * width; i < end; i += width) {
      i2c.writeTo(address, CONTROL_DATA, new Uint8Array(buffer, i, width));
    }
    return end - first * width;
  }

  return { flush: flush };
}
