/**
 * require("Flash") for the desktop: Espruino's read / write / erasePage / getPage over a window of
 * NOR flash (the region image). Only the pet region exists: the firmware's absolute addresses inside
 * [regionAddress, regionAddress + size) reach the flash, anything else throws, because on the board
 * it would touch Storage or the firmware itself.
 *
 * A read of 2 to 22 bytes throws, naming why: on an ESP32 build with JsVars in PSRAM it returns zeros
 * or crashes the board (src/storage/flash.ts, SAFE_READ_MIN).
 *
 * Write errors are not reported back, as on the ESP32 port (it ignores the IDF's return codes); the
 * NOR simulator underneath still ANDs the bits, so a write over unerased bytes mixes them silently.
 */
import { unsafeOnEsp32, unsafeReadWords, type EspruinoFlash, type FlashArea, type StatusFlash } from "../../storage/flash";
import type { Realm } from "./graphics";

export interface FlashWindow {
  /** The NOR flash holding the region (its own address space). */
  flash: StatusFlash;
  /** Address the firmware uses for the first byte of the region (the board profile's petRegion.address). */
  regionAddress: number;
  /** Address of that same byte in `flash` (0 for a region image file). */
  flashAddress: number;
  size: number;
}

/** Byte values of whatever Flash.write accepts: typed arrays, arrays, strings. */
function toBytes(data: unknown): Uint8Array {
  if (typeof data === "string") {
    const b = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i++) b[i] = data.charCodeAt(i) & 0xff;
    return b;
  }
  if (data !== null && typeof data === "object" && typeof (data as { length?: unknown }).length === "number") {
    const a = data as ArrayLike<number>;
    const b = new Uint8Array(a.length);
    for (let i = 0; i < a.length; i++) b[i] = Number(a[i]) & 0xff;
    return b;
  }
  if (data !== null && Object.prototype.toString.call(data) === "[object ArrayBuffer]") return new Uint8Array(data as ArrayBuffer).slice();
  throw new Error("Flash.write: data must be a Uint8Array, an array or a string");
}

export function createFlashModule(w: FlashWindow, realm: Realm, onWrite?: () => void): EspruinoFlash {
  const sectorSize = w.flash.pageSize;

  function map(addr: number, length: number, what: string): number {
    const a = Number(addr);
    if (!Number.isInteger(a) || length < 0 || a < w.regionAddress || a + length > w.regionAddress + w.size) {
      throw new Error(
        "Flash." + what + ": 0x" + a.toString(16) + " (+" + length + ") is outside the pet region 0x" +
          w.regionAddress.toString(16) + "..0x" + (w.regionAddress + w.size - 1).toString(16) +
          ", the only flash the desktop has",
      );
    }
    return a - w.regionAddress + w.flashAddress;
  }

  return {
    read(length: number, addr: number): Uint8Array {
      const n = Math.max(0, Math.floor(Number(length)));
      // The firmware must not read what an ESP32 build cannot (src/storage/flash.ts): here it fails loudly.
      if (unsafeOnEsp32(n)) throw new Error(unsafeReadWords(n));
      const r = w.flash.read(n, map(addr, n, "read"));
      if (r.status !== "ok" || r.bytes === null) throw new Error("Flash.read failed: " + r.status);
      const out = new realm.Uint8Array(n);
      out.set(r.bytes);
      return out;
    },
    write(data: unknown, addr: number): void {
      const bytes = toBytes(data);
      w.flash.write(bytes, map(addr, bytes.length, "write")); // status ignored, as on the ESP32
      if (onWrite) onWrite();
    },
    erasePage(addr: unknown): void {
      const a = typeof addr === "object" && addr !== null ? Number((addr as { addr?: unknown }).addr) : Number(addr);
      const start = Math.floor(a / sectorSize) * sectorSize;
      w.flash.erasePage(map(start, sectorSize, "erasePage"));
      if (onWrite) onWrite();
    },
    getPage(addr: number): FlashArea | undefined {
      const a = Number(addr);
      if (!(a >= w.regionAddress && a < w.regionAddress + w.size)) return undefined;
      return { addr: Math.floor(a / sectorSize) * sectorSize, length: sectorSize };
    },
  };
}
