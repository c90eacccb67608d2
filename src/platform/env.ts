/**
 * What the firmware needs from the machine it runs on, as one plain object of capabilities.
 *
 * startPet never reads a global: on the device src/host/espruino/env.ts builds this object from
 * Espruino's globals, tests build it from fakes, and the desktop and the page run the same bundle,
 * whose espruinoEnv() then builds it from the globals they emulate (src/host/emulator). (Below the firmware, src/core/bytes.ts and
 * src/save/crc32.ts read Espruino's `E` themselves, and take plain loops where there is none.) Every capability here is one Espruino API (named beside it), nothing more, so that an
 * emulator has a short, exact list to provide.
 */

import type { EspruinoFlash } from "../storage/flash";

/** A pin as the board profile names it ("D0"); Espruino accepts pin names wherever it takes a pin. */
export type PinId = string | number;

/** The object setWatch hands its callback. `time` is getTime() at the (debounced) edge. */
export interface WatchEvent {
  state: boolean;
  time: number;
}

export interface WatchOptions {
  repeat: boolean;
  edge: "both" | "rising" | "falling";
  debounce: number;
}

/** I2C1 after I2C1.setup(): only writeTo is used. writeTo(addr, ...data) concatenates its data arguments. */
export interface I2CBus {
  writeTo(address: number, a: number | number[] | Uint8Array, b?: number | number[] | Uint8Array): void;
}

/**
 * The subset of Espruino's Graphics the firmware draws with. Keep it this small: the desktop host
 * emulates exactly these calls. Colours are 0 or 1 on the 1-bit buffer; the font is the default one
 * (4x6 pixels per character).
 */
export interface GraphicsLike {
  clear(): unknown;
  setColor(c: number): unknown;
  setPixel(x: number, y: number, c?: number): unknown;
  drawLine(x1: number, y1: number, x2: number, y2: number): unknown;
  drawRect(x1: number, y1: number, x2: number, y2: number): unknown;
  fillRect(x1: number, y1: number, x2: number, y2: number): unknown;
  drawCircle(x: number, y: number, r: number): unknown;
  fillCircle(x: number, y: number, r: number): unknown;
  drawString(text: string, x: number, y: number): unknown;
  getWidth(): number;
  getHeight(): number;
  /** The pixel memory: byte (page * width + x) holds rows page*8..page*8+7 of column x, top row in bit 0. */
  buffer: ArrayBuffer;
}

export interface PetEnv {
  /** console.log: one line to the console. */
  print(line: string): void;
  /** getTime(): seconds as a float. Jumps when the clock is set (setTime, the uploader's -t, SNTP). */
  getTime(): number;
  /** Date.now(): wall-clock ms (fractional on Espruino); near 0 until something sets the time. */
  dateNow(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  /** require("Flash") (its type is the storage layer's, which calls it: src/storage/flash.ts). */
  flash: EspruinoFlash;
  /**
   * process.env.STORAGE: Storage's size as the build reports it, for the region check at boot
   * (src/boards/regionFit.ts). Absent off Espruino.
   */
  storageSize?: number;
  /** setWatch(fn, pin, options). Absent where there are no pins. */
  setWatch?: (fn: (e: WatchEvent) => void, pin: PinId, options: WatchOptions) => unknown;
  /**
   * pinMode(pin, mode): the button gets its pull resistor ("input_pullup" for an active-low button)
   * so an unconnected pin cannot read as pressed. Optional: without it the board's own pull is relied on.
   */
  pinMode?: (pin: PinId, mode: string) => void;
  /** digitalWrite(pin, value). Absent where there are no pins. */
  digitalWrite?: (pin: PinId, value: number) => void;
  /** I2C1.setup({scl, sda, bitrate}) then I2C1 itself. Absent where there is no I2C. */
  setupI2C?: (scl: PinId, sda: PinId, bitrate: number) => I2CBus;
  /** Graphics.createArrayBuffer(width, height, 1, {vertical_byte: true, msb: false}): the SSD1306's layout. */
  createGraphics?: (width: number, height: number) => GraphicsLike;
  /** Makes `value` a console global named `name` (the `pet` object). */
  publish(name: string, value: unknown): void;
  /**
   * E.toUint8Array(s): the UTF-8 bytes of a string typed at the console. Needed because the ESP32
   * build has no Unicode strings: there "é" arrives as the two characters of its UTF-8 bytes, which
   * a JavaScript UTF-8 encoder would encode again; E.toUint8Array gives the right bytes on builds
   * with and without Unicode. Absent (Node, the desktop host): the firmware uses utf8Encode.
   */
  utf8Bytes?: (s: string) => Uint8Array;
  /**
   * E.asUTF8(E.toString(bytes)), or E.toString(bytes) where E.asUTF8 does not exist (no Unicode):
   * a string the console prints as the name's characters. Absent: the firmware uses utf8Decode.
   */
  utf8Text?: (bytes: Uint8Array) => string;
}
