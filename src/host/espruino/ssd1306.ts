/**
 * A small SSD1306 (128x64 or 128x32 OLED) driver over I2C, written for this project from the
 * controller's datasheet so nothing is fetched at upload.
 *
 * Every I2C transfer starts with a control byte: 0x00 says the bytes that follow are commands, 0x40
 * that they are display RAM. With horizontal addressing the RAM is filled page by page (8 rows per
 * page), one byte per column with the top row in bit 0, which is exactly the layout of Espruino's
 * Graphics.createArrayBuffer(w, h, 1, {vertical_byte: true}), so the buffer is sent as it is.
 */
import type { I2CBus } from "../../../firmware/env";

const CONTROL_COMMANDS = 0x00;
const CONTROL_DATA = 0x40;
/** Bytes of display RAM per I2C transfer: small enough for any I2C driver's buffer. */
const DATA_CHUNK = 64;

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
  /** Sends the whole 1-bit vertical_byte buffer (width * height / 8 bytes) to the panel. */
  flush(buffer: ArrayBuffer): void;
}

/** Initialises the panel at `address` (usually 0x3C) and returns its flush function. */
export function createSsd1306(i2c: I2CBus, address: number, width: number, height: number): Ssd1306 {
  i2c.writeTo(address, CONTROL_COMMANDS, ssd1306InitCommands(height));
  // Window for every flush: all columns, all pages; the RAM pointer wraps back here after the last byte.
  const windowCommands = [0x21, 0, width - 1, 0x22, 0, height / 8 - 1];

  function flush(buffer: ArrayBuffer): void {
    const bytes = new Uint8Array(buffer);
    i2c.writeTo(address, CONTROL_COMMANDS, windowCommands);
    for (let i = 0; i < bytes.length; i += DATA_CHUNK) {
      i2c.writeTo(address, CONTROL_DATA, bytes.subarray(i, i + DATA_CHUNK));
    }
  }

  return { flush: flush };
}
