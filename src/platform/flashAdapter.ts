/**
 * The storage Flash interface over Espruino's require("Flash") (or anything shaped like it, such
 * as the firmware's RawFlash capability). Espruino's calls return nothing and may throw; here every
 * call reports a status. Write errors are invisible on the ESP32 port, which is why SlotLog reads
 * back everything it writes.
 */
import { Flash, FlashRead, FlashStatus } from "../storage/flash";

/** The three calls of Espruino's Flash module the log needs. */
export interface EspruinoFlashModule {
  read(length: number, addr: number): Uint8Array;
  write(data: Uint8Array, addr: number): void;
  erasePage(addr: number): void;
}

/**
 * The interpreter keeps integral results of divisions as doubles, and Flash.erasePage refuses a
 * double ("Address should be an integer"). Flash addresses lie below 2^31, so `| 0` turns them back
 * into integers without changing their value; this adapter does it for every address it hands to
 * the module (inline, not through a helper: each call costs on the interpreter), so callers above it
 * need not care.
 *
 * Wraps `mod` (e.g. require("Flash")); `pageSize` is the erase unit (4096 on ESP32, 1024 on Linux).
 * With `region`, every call outside region.address .. region.address + region.size answers
 * "out-of-range" and never reaches the device: the slot log only addresses its region, so this is
 * a guard against bugs, worth having because the Linux build of the interpreter stops on an
 * assertion for flash outside its file and a stray erase on the ESP32 could hit the firmware's own
 * Storage. Addresses at or above 2^31 are out of range too (no board has flash there).
 */
export function flashFromEspruino(mod: EspruinoFlashModule, pageSize: number, region?: { address: number; size: number }): Flash {
  const lo = region === undefined ? 0 : region.address;
  const hi = region === undefined ? 2147483648 : Math.min(region.address + region.size, 2147483648);
  return {
    pageSize: pageSize,
    read: function (length: number, address: number): FlashRead {
      if (!(address >= lo && length >= 0 && address + length <= hi)) return { status: "out-of-range", bytes: null };
      try {
        // Espruino returns a Uint8Array copy. Whether it really is one of the right length is
        // checked by the storage layer's readers (safeRead), which judge every adapter's answer.
        return { status: "ok", bytes: mod.read(length | 0, address | 0) };
      } catch (e) {
        return { status: "read-failed", bytes: null };
      }
    },
    write: function (data: Uint8Array, address: number): FlashStatus {
      if (!(address >= lo && address + data.length <= hi)) return "out-of-range";
      try {
        mod.write(data, address | 0);
        return "ok";
      } catch (e) {
        return "write-failed";
      }
    },
    erasePage: function (address: number): FlashStatus {
      if (!(address >= lo && address < hi)) return "out-of-range";
      try {
        mod.erasePage(address | 0);
        return "ok";
      } catch (e) {
        return "erase-failed";
      }
    },
  };
}
