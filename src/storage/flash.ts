/**
 * The flash interface the storage code talks to.
 *
 * It mirrors Espruino's `require("Flash")` (read(length, address), write(data, address),
 * erasePage(address)) so the device adapter stays a few lines, but every call reports a status
 * instead of throwing or failing silently. NOR semantics are assumed: an erase sets a whole page to
 * 0xFF and a write can only clear bits. Nothing here knows about any particular board: the caller
 * (the board profile) supplies addresses and sizes.
 *
 * Runs on Espruino: plain functions, no classes with `extends`, no Map/Set.
 */

/** Every outcome a flash call can report. Only "ok" means the operation happened. */
export type FlashStatus =
  | "ok"
  /** The read could not be performed (the adapter threw or the device refused). */
  | "read-failed"
  /** The write could not be performed. Note: the ESP32 port never reports this; read back instead. */
  | "write-failed"
  /** The page erase could not be performed. */
  | "erase-failed"
  /** The address range lies outside the flash the adapter or simulator covers. */
  | "out-of-range"
  /** Strict simulator only: the write touched a byte that was not erased. */
  | "not-erased"
  /** Simulator only: power was cut; nothing happens until the test powers the device on again. */
  | "power-lost";

export const FLASH_STATUSES: readonly FlashStatus[] = [
  "ok",
  "read-failed",
  "write-failed",
  "erase-failed",
  "out-of-range",
  "not-erased",
  "power-lost",
];

/** Result of a read: `bytes` is a fresh copy of `length` bytes when status is "ok", else null. */
export interface FlashRead {
  status: FlashStatus;
  bytes: Uint8Array | null;
}

/** A NOR flash device (or a window of one) addressed by absolute addresses. */
export interface Flash {
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
export function safeRead(flash: Flash, length: number, address: number): FlashRead {
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
export function safeWrite(flash: Flash, data: Uint8Array, address: number): FlashStatus {
  let s: FlashStatus;
  try {
    s = flash.write(data, address);
  } catch (e) {
    return "write-failed";
  }
  return s === "ok" ? "ok" : isFlashStatus(s) ? s : "write-failed";
}

/** Calls `flash.erasePage` and never throws; anything but "ok" is a failure status. */
export function safeErase(flash: Flash, address: number): FlashStatus {
  let s: FlashStatus;
  try {
    s = flash.erasePage(address);
  } catch (e) {
    return "erase-failed";
  }
  return s === "ok" ? "ok" : isFlashStatus(s) ? s : "erase-failed";
}

export function isFlashStatus(s: unknown): s is FlashStatus {
  for (let i = 0; i < FLASH_STATUSES.length; i++) if (FLASH_STATUSES[i] === s) return true;
  return false;
}
