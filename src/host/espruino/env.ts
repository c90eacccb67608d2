/**
 * The module that reads Espruino's globals for the firmware. The firmware gets these capabilities
 * through the PetEnv object built here (src/platform/env.ts), which keeps the list of interpreter
 * APIs the pet depends on short, visible and emulatable. The one exception is `E`: src/core/bytes.ts
 * (E.sum, E.toString, E.mapInPlace, E.toUint8Array) and src/save/crc32.ts (E.CRC32) read the global
 * themselves, pure helpers on the save and restore paths that fall back to plain loops where there
 * is no `E` (docs/architecture.md, "Who reads Espruino's globals"). The complete list:
 *
 *   require("Flash")            read(length, addr), write(data, addr), erasePage(addr); getFree()
 *                               and getPage(addr) for the region check at boot
 *   process.env.STORAGE         Storage's size, for the same check
 *   getTime()                   seconds, float: the loop's clock
 *   Date.now()                  wall-clock ms: save stamps and the absence rule, when plausible
 *   setInterval / clearInterval the 1 s loop
 *   setTimeout / clearTimeout   the long-press feedback timer
 *   setWatch(fn, pin, opts)     the button (edge "both", debounce 50 ms, repeat)
 *   pinMode(pin, mode)          the button's pull resistor (input_pullup when active low)
 *   digitalWrite(pin, value)    the LED
 *   I2C1.setup({scl, sda, bitrate}), I2C1.writeTo(addr, ...)   the SSD1306 panel
 *   Graphics.createArrayBuffer(w, h, 1, {vertical_byte: true, msb: false})  the frame buffer (subset:
 *                               see GraphicsLike). msb: false matters: since 2v25 Espruino stores the
 *                               TOP pixel of each vertical byte in bit 7 unless told otherwise, and the
 *                               SSD1306 wants it in bit 0 (measured on 2v29; older versions ignore it)
 *   console.log                 console lines
 *   global                      publishing `pet`
 *   E.toUint8Array(s)           a console string's UTF-8 bytes (pet.rename, pet.hatch)
 *   E.asUTF8(E.toString(bytes)) the name as console text (pet.status().name); E.toString alone
 *                               where E.asUTF8 is missing (builds without Unicode, like the ESP32's)
 *   E.CRC32                     read by src/save/crc32.ts, not here: the codec uses it when present
 *   E.sum, E.toString, E.mapInPlace, E.toUint8Array   read by src/core/bytes.ts, not here
 *
 * Functions that the board has no hardware for (no I2C1 on the Linux build, say) are left out of the
 * env rather than failing later.
 */
import type { GraphicsLike, I2CBus, PetEnv, PinId, WatchEvent, WatchOptions } from "../../platform/env";
import type { EspruinoFlash } from "../../storage/flash";

// Module-local ambient names: they resolve to the interpreter's globals at run time.
declare const require: (name: string) => unknown;
declare const getTime: () => number;
declare const setWatch: ((fn: (e: WatchEvent) => void, pin: PinId, options: WatchOptions) => unknown) | undefined;
declare const digitalWrite: ((pin: PinId, value: number) => void) | undefined;
declare const pinMode: ((pin: PinId, mode: string) => void) | undefined;
declare const I2C1: { setup(options: { scl: PinId; sda: PinId; bitrate: number }): void } & I2CBus;
declare const Graphics: {
  createArrayBuffer(width: number, height: number, bpp: number, options: { vertical_byte: boolean; msb: boolean }): GraphicsLike;
};
declare const global: { [name: string]: unknown };
/** Espruino's process; absent in the desktop host's emulation, which runs no region check. */
declare const process: { env: { STORAGE?: number } } | undefined;
/** The part of `E` read here; every member may be missing on an emulator. */
declare const E:
  | {
      toUint8Array?: (s: string) => Uint8Array;
      toString?: (data: Uint8Array) => string;
      asUTF8?: (s: string) => string;
    }
  | undefined;
// Declared here too because the firmware is type-checked against lib ES5 with no host typings.
declare const console: { log(line: string): void };
// false in a device bundle for a board without a display (see firmware/display.ts): no I2C set-up.
declare const BOARD_HAS_DISPLAY: boolean | undefined;
// true in a bundle whose boot checks the region (firmware/runningPet.ts), false in a simulator's.
declare const BOARD_CHECKS_REGION: boolean | undefined;
declare function setInterval(fn: () => void, ms: number): unknown;
declare function clearInterval(id: unknown): void;
declare function setTimeout(fn: () => void, ms: number): unknown;
declare function clearTimeout(id: unknown): void;

/** The PetEnv for the interpreter this code runs on. */
export function espruinoEnv(): PetEnv {
  return envFromGlobals(require("Flash") as EspruinoFlash);
}

/**
 * utf8Bytes and utf8Text from Espruino's E, when it has E.toUint8Array. E.toString is only trusted
 * beside it: every object inherits a toString, so on an emulated E without these functions
 * (the desktop host's) it would turn bytes into "[object Object]". Without them the firmware falls
 * back to its own UTF-8 coder, which is right wherever strings are Unicode.
 */
function addTextCoding(env: PetEnv): void {
  if (typeof E === "undefined" || !E || typeof E.toUint8Array !== "function") return;
  const e = E as {
    toUint8Array: (s: string) => Uint8Array;
    toString: (data: Uint8Array) => string;
    asUTF8?: (s: string) => string;
  };
  env.utf8Bytes = function (s: string): Uint8Array {
    return e.toUint8Array(s);
  };
  env.utf8Text = function (bytes: Uint8Array): string {
    const raw = e.toString(bytes);
    // asUTF8 exists only on builds with Unicode strings; it reads the raw bytes as UTF-8.
    return typeof e.asUTF8 === "function" ? e.asUTF8(raw) : raw;
  };
}

/** The PetEnv over the interpreter's globals with `flash` as require("Flash") (tests pass a fake). */
export function envFromGlobals(flash: EspruinoFlash): PetEnv {
  const env: PetEnv = {
    // The interpreter's own functions, not wrappers: a wrapper is one more call each time (every
    // tick, for getTime) and, on Espruino, a function kept in RAM for as long as the pet runs. These
    // natives ignore the `this` a method call hands them (so do Node's and the emulator's).
    print: console.log,
    getTime: getTime,
    dateNow: Date.now,
    setInterval: setInterval,
    clearInterval: clearInterval,
    setTimeout: setTimeout,
    clearTimeout: clearTimeout,
    flash: flash,
    // Storage's size for the region check at boot (src/boards/regionFit.ts), only where the boot
    // checks; process.env is built afresh on every read, so it is read once.
    // (A device bundle can also run where there is no process: the desktop host's emulation.)
    storageSize:
      (typeof BOARD_CHECKS_REGION === "undefined" || BOARD_CHECKS_REGION) && typeof process !== "undefined" ? (process as { env: { STORAGE?: number } }).env.STORAGE : undefined,
    publish: function (name: string, value: unknown) {
      global[name] = value;
    },
  };
  if (typeof setWatch === "function") env.setWatch = setWatch;
  if (typeof digitalWrite === "function") env.digitalWrite = digitalWrite;
  if (typeof pinMode === "function") env.pinMode = pinMode;
  addTextCoding(env);
  if ((typeof BOARD_HAS_DISPLAY === "undefined" || BOARD_HAS_DISPLAY) && typeof I2C1 !== "undefined" && typeof Graphics !== "undefined") {
    env.setupI2C = function (scl: PinId, sda: PinId, bitrate: number): I2CBus {
      I2C1.setup({ scl: scl, sda: sda, bitrate: bitrate });
      return I2C1;
    };
    env.createGraphics = function (width: number, height: number): GraphicsLike {
      return Graphics.createArrayBuffer(width, height, 1, { vertical_byte: true, msb: false });
    };
  }
  return env;
}
