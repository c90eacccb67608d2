/**
 * The storage Flash interface over Espruino's require("Flash") (or anything shaped like it, such
 * as the firmware's RawFlash capability). Espruino's calls return nothing and may throw; here every
 * call reports a status. Write errors are invisible on the ESP32 port, which is why SlotLog reads
 * back everything it writes.
 */
import { Flash, FlashRead, FlashStatus } from "../../storage/flash";

/** The three calls of Espruino's Flash module the log needs. */
export interface EspruinoFlashModule {
  read(length: number, addr: number): Uint8Array;
  write(data: Uint8Array, addr: number): void;
  erasePage(addr: number): void;
}

/**
 * The interpreter keeps integral results of divisions as doubles, and Flash.erasePage refuses a
 * double ("Address should be an integer"). Flash addresses lie below 2^31, so `| 0` turns them back
 * into integers without changing their value. This adapter is the one place that does it, for every
 * address (and length) it hands to the module, so callers above it need not care.
 */
function asInt(n: number): number {
  return n >= 0 && n < 2147483648 ? n | 0 : n;
}

/**
 * Wraps `mod` (e.g. require("Flash")); `pageSize` is the erase unit (4096 on ESP32, 1024 on Linux).
 * With `region`, every call outside region.address .. region.address + region.size answers
 * "out-of-range" and never reaches the device: the slot log only addresses its region, so this is
 * a guard against bugs, worth having because the Linux build of the interpreter stops on an
 * assertion for flash outside its file and a stray erase on the ESP32 could hit the firmware's own
 * Storage. One adapter does both jobs so a flash call on the device costs one JavaScript call here.
 */
export function flashFromEspruino(mod: EspruinoFlashModule, pageSize: number, region?: { address: number; size: number }): Flash {
  const lo = region === undefined ? 0 : region.address;
  const hi = region === undefined ? Infinity : region.address + region.size;
  return {
    sectorSize: pageSize,
    read: function (length: number, address: number): FlashRead {
      if (!(address >= lo && length >= 0 && address + length <= hi)) return { status: "out-of-range", bytes: null };
      try {
        const n = asInt(length);
        const b = mod.read(n, asInt(address));
        // Espruino returns a Uint8Array copy; anything else (or a short read) is a failure.
        if (!(b instanceof Uint8Array) || b.length !== n) return { status: "read-failed", bytes: null };
        return { status: "ok", bytes: b };
      } catch (e) {
        return { status: "read-failed", bytes: null };
      }
    },
    write: function (data: Uint8Array, address: number): FlashStatus {
      if (!(address >= lo && address + data.length <= hi)) return "out-of-range";
      try {
        mod.write(data, asInt(address));
        return "ok";
      } catch (e) {
        return "write-failed";
      }
    },
    erasePage: function (address: number): FlashStatus {
      if (!(address >= lo && address + 1 <= hi)) return "out-of-range";
      try {
        mod.erasePage(asInt(address));
        return "ok";
      } catch (e) {
        return "erase-failed";
      }
    },
  };
}
