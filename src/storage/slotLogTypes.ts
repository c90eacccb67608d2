/**
 * The SlotLog's configuration and the results its methods return, with the two builders of a
 * failed result. Kept apart from slotLog.ts so the loader and the writer can use them without
 * importing the class they are parts of. slotLog.ts re-exports every type here.
 */
import { Flash, FlashStatus } from "./flash";
import { RegionParams } from "./regionLayout";

export interface SlotLogConfig extends RegionParams {
  flash: Flash;
  /** The caller's validity check for a stored payload; each call is counted. */
  isValidPayload: (payload: Uint8Array) => boolean;
  /** Upper bound on validity checks in one load (default 4). */
  maxBootChecks?: number;
  /** Sequence number given to the first sector of a brand-new log (default 1; tests use values near 2^32). */
  initialSequence?: number;
}

export type LoadStatus =
  | "ok"
  /** Every sector header is erased: nothing was ever saved here. */
  | "empty"
  /** No sector carries a valid header: the region holds random or foreign data. */
  | "no-log"
  /**
   * Sectors of ours exist but not one commit mark is set in them: no save ever committed here (a
   * sector holding a committed save is never erased, so a committed save would have left a set
   * mark). Typically the very first save was cut before its mark. Nothing to lose.
   */
  | "no-committed-save"
  /** Committed slots exist but none passed the validity check: a save may be there, unreadable. */
  | "no-valid-save"
  | "read-failed";

export interface LoadResult {
  status: LoadStatus;
  /** The newest valid payload (a fresh copy) when status is "ok", else null. */
  payload: Uint8Array | null;
  /** Human-readable reason, e.g. why there is no pet. */
  message: string;
  /** Validity checks this load performed. */
  checks: number;
  /** Where the payload came from (sector index, slot index, sector sequence number); -1 when none. */
  sector: number;
  slot: number;
  seq: number;
}

export type SaveStatus =
  | "ok"
  | "bad-length"
  | "read-failed"
  | "write-failed"
  | "erase-failed"
  /** A read-back after writing did not match: the flash silently failed (ESP32 ignores write errors). */
  | "verify-failed"
  /**
   * The commit mark was written but its state could not be confirmed (its read-back failed, or the
   * write reported an error and the mark reads set). The next boot returns either this save or the
   * previous one; every other failure leaves the previous one newest. Save again to settle it.
   */
  | "commit-unknown";

export interface SaveResult {
  status: SaveStatus;
  message: string;
  /** The flash status that caused a failure ("ok" otherwise). */
  flashStatus: FlashStatus;
  sector: number;
  slot: number;
  seq: number;
  /** Whether this save erased a sector (an erase blocks the CPU for tens of ms on the device). */
  erased: boolean;
}

export interface SlotLogStats {
  /** Validity checks since this SlotLog was created. */
  validityChecks: number;
  saves: number;
  sectorErases: number;
}

/** A save that failed: no position, nothing erased (the writer sets `erased` when it did erase). */
export function failSave(status: SaveStatus, message: string, flashStatus: FlashStatus): SaveResult {
  return { status: status, message: message, flashStatus: flashStatus, sector: -1, slot: -1, seq: -1, erased: false };
}

/** A load that found no payload to return. */
export function noPayload(status: LoadStatus, message: string, checks: number): LoadResult {
  return { status: status, payload: null, message: message, checks: checks, sector: -1, slot: -1, seq: -1 };
}
