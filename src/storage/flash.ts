/**
 * The two shapes of flash the project talks to, and the bridge from one to the other.
 *
 * EspruinoFlash is Espruino's own `require("Flash")`, the one type for it wherever it appears: the
 * slot log calls it directly on the device, the firmware's region check asks it getFree() and
 * getPage(), the desktop host and the page emulate it. `read` answers the bytes, `write` and
 * `erasePage` answer nothing, and a failure throws.
 *
 * StatusFlash is the simulator's shape (NorFlashSim, a region image file, the page's IndexedDB
 * flash): the same three calls with the same arguments, but every call answers a status instead of
 * throwing or failing silently. deviceFlash turns one into the other for the log.
 *
 * NOR semantics are assumed: an erase sets a whole page to 0xFF and a write can only clear bits.
 * Nothing here knows about any particular board: the caller (the board profile) supplies addresses
 * and sizes.
 *
 * Runs on Espruino: plain functions, no classes with `extends`, no Map/Set.
 */

/** An area of flash as Espruino's Flash module answers it (getFree(), getPage()). */
export interface FlashArea {
  addr: number;
  length: number;
}

/**
 * require("Flash"): Espruino's flash module, as the project uses it. Addresses are absolute flash
 * addresses. Inside the interpreter a wrapper around every flash call costs several times the call
 * (docs/speed.md), so the slot log calls this shape as it is and
 * catches every throw, which it reports as a status.
 */
export interface EspruinoFlash {
  /** Flash.read(length, addr): a copy of the bytes. */
  read(length: number, addr: number): Uint8Array;
  /** Flash.write(data, addr): NOR programming (bits can only be cleared); answers nothing. */
  write(data: Uint8Array, addr: number): void;
  /** Flash.erasePage(addr): sets the whole page holding addr to 0xFF. */
  erasePage(addr: number): void;
  /**
   * Flash.getFree(): the areas the build leaves free, for the region check at boot
   * (src/boards/regionFit.ts). Optional: the desktop host's emulation has none, and a profile for it
   * asks for no check.
   */
  getFree?(): FlashArea[];
  /** Flash.getPage(addr): the erase page holding addr, or undefined outside the flash the port addresses. */
  getPage?(addr: number): FlashArea | undefined;
}

/**
 * The smallest read of more than one byte that is safe on every Espruino ESP32 build. On builds
 * that keep their JsVars in PSRAM (WROVER modules; Espruino 2v06 on ESP-IDF 3.1 is one), Flash.read
 * of 2 to 22 bytes goes through ESP-IDF's small-read path, which up to IDF 3.3 copies into the
 * destination while the flash cache, and with it PSRAM, is switched off: the emulated chip gives
 * back zeros and ESP-IDF's own reports show a board panicking ("Cache disabled but cached memory
 * region accessed"). A read of 1 byte goes through a word on the stack, and one of 23 bytes or
 * more lands in one contiguous block that the large path fills with the cache on (measured on the
 * emulated chip, docs/board.md). So every read the firmware makes is 1 byte or at least this many:
 * 24, the 23 measured on 16-byte JsVars (the largest any ESP32 build uses) rounded up to a word.
 */
export const SAFE_READ_MIN = 24;

/** True for a read length that some Espruino ESP32 build cannot do: 2 to 22 bytes (see SAFE_READ_MIN). */
export function unsafeOnEsp32(length: number): boolean {
  return length > 1 && length < 23;
}

/**
 * Every outcome a flash call can report, one list from which the type is made (isFlashStatus below
 * answers the same with a switch; test/storage-flash-failures.test.ts holds the two equal). Only
 * "ok" means the operation happened.
 */
export const FLASH_STATUSES = [
  "ok",
  // The read could not be performed (the adapter threw or the device refused).
  "read-failed",
  // The write could not be performed. Note: the ESP32 port never reports this; read back instead.
  "write-failed",
  // The page erase could not be performed.
  "erase-failed",
  // The address range lies outside the flash the adapter or simulator covers.
  "out-of-range",
  // Strict simulator only: the write touched a byte that was not erased.
  "not-erased",
  // Simulator only: power was cut; nothing happens until the test powers the device on again.
  "power-lost",
] as const;

/** One of FLASH_STATUSES. */
export type FlashStatus = (typeof FLASH_STATUSES)[number];

/** Result of a read: `bytes` is a fresh copy of `length` bytes when status is "ok", else null. */
export interface FlashRead {
  status: FlashStatus;
  bytes: Uint8Array | null;
}

/** A NOR flash device (or a window of one) addressed by absolute addresses, answering a status for every call: the simulator's shape. */
export interface StatusFlash {
  /**
   * Erase granularity in bytes: erasePage(addr) erases the aligned page of this size holding addr.
   * (A page of the flash; the slot log's sectors, in RegionParams.sectorSize, are one or more pages.)
   */
  readonly pageSize: number;
  read(length: number, address: number): FlashRead;
  /** Programs `data` at `address` (result is old AND new). Any address and length. */
  write(data: Uint8Array, address: number): FlashStatus;
  /** Erases the whole page containing `address` to 0xFF. */
  erasePage(address: number): FlashStatus;
}

/** The answer of a read that failed without a status of its own (shared: it is never changed). */
const READ_FAILED: FlashRead = { status: "read-failed", bytes: null };

/**
 * Calls `flash.read` and never throws: an adapter that throws, returns a wrong length or something
 * that is not a status is reported as "read-failed" (or the adapter's own non-ok status). The happy
 * path is one test: the slot log reads through here on every save, and on Espruino each operation
 * costs about what a call does.
 */
export function safeRead(flash: StatusFlash, length: number, address: number): FlashRead {
  let r: FlashRead;
  try {
    r = flash.read(length, address);
  } catch (e) {
    return READ_FAILED;
  }
  if (r && r.status === "ok" && r.bytes instanceof Uint8Array && r.bytes.length === length) return r;
  if (!r || typeof r !== "object" || r.status === "ok" || !isFlashStatus(r.status)) return READ_FAILED;
  return { status: r.status, bytes: null };
}

/** Calls `flash.write` and never throws; anything but "ok" is a failure status. */
export function safeWrite(flash: StatusFlash, data: Uint8Array, address: number): FlashStatus {
  let s: FlashStatus;
  try {
    s = flash.write(data, address);
  } catch (e) {
    return "write-failed";
  }
  return s === "ok" ? "ok" : isFlashStatus(s) ? s : "write-failed";
}

/** Calls `flash.erasePage` and never throws; anything but "ok" is a failure status. */
export function safeErase(flash: StatusFlash, address: number): FlashStatus {
  let s: FlashStatus;
  try {
    s = flash.erasePage(address);
  } catch (e) {
    return "erase-failed";
  }
  return s === "ok" ? "ok" : isFlashStatus(s) ? s : "erase-failed";
}

/** True for a FlashStatus. A switch, not a search of FLASH_STATUSES: that list would live in the device's RAM. */
export function isFlashStatus(s: unknown): s is FlashStatus {
  switch (s) {
    case "ok":
    case "read-failed":
    case "write-failed":
    case "erase-failed":
    case "out-of-range":
    case "not-erased":
    case "power-lost":
      return true;
    default:
      return false;
  }
}

/** What a call of `deviceFlash(flash)` throws: the status the wrapped StatusFlash answered. */
export interface FlashFailure {
  flashStatus: FlashStatus;
}

/**
 * A StatusFlash (the simulator, a region image) in the device's shape: every status
 * but "ok", a short read or a throw becomes a throw the log turns back into the same status
 * (thrownStatus), so the log answers exactly what it would have answered over the StatusFlash itself.
 * A read that an ESP32 build cannot do (unsafeOnEsp32) throws an Error naming it, as the emulated
 * Flash module does: everything that runs the log over a simulator then finds such a read at once.
 */
export function deviceFlash(flash: StatusFlash): EspruinoFlash {
  return {
    read: function (length: number, address: number): Uint8Array {
      if (unsafeOnEsp32(length)) throw new Error(unsafeReadWords(length));
      const r = safeRead(flash, length, address);
      if (r.bytes === null) throw { flashStatus: r.status } as FlashFailure;
      return r.bytes;
    },
    write: function (data: Uint8Array, address: number): void {
      const s = safeWrite(flash, data, address);
      if (s !== "ok") throw { flashStatus: s } as FlashFailure;
    },
    erasePage: function (address: number): void {
      const s = safeErase(flash, address);
      if (s !== "ok") throw { flashStatus: s } as FlashFailure;
    },
  };
}

/** Why a read of `length` bytes is refused: what it does on the board. */
export function unsafeReadWords(length: number): string {
  return "Flash.read of " + length + " bytes: reads of 2 to 22 bytes return zeros or crash Espruino's ESP32 builds with JsVars in PSRAM; read 1 byte or at least " + SAFE_READ_MIN;
}

/**
 * The status behind a throw from an EspruinoFlash call: the one deviceFlash carried, or `fallback`
 * (the failed operation's own status) for anything else, such as Espruino's own errors.
 */
export function thrownStatus(e: unknown, fallback: FlashStatus): FlashStatus {
  "rarely called";
  const s = e !== null && typeof e === "object" ? (e as FlashFailure).flashStatus : undefined;
  return s !== "ok" && isFlashStatus(s) ? s : fallback;
}
