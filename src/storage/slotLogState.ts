/**
 * What the parts of a SlotLog share: the flash and geometry it works on, the caller's settings, the
 * counters behind SlotLog.stats(), and the writer's position in the log. The loader (logLoad.ts)
 * sets the position as a by-product of a boot; the writer (sectorOpen.ts, slotWrite.ts) moves it.
 *
 * Runs on Espruino: plain objects and functions, no Map/Set.
 */
import { Flash } from "./flash";
import { RegionLayout } from "./regionLayout";
import { HeaderScan, lastCommitted } from "./logScan";
import { SlotLogStats } from "./slotLogTypes";

/** Where the next save goes and what it must protect; only meaningful while `known`. */
export interface WriterPosition {
  /** False until headers and marks down to the newest committed slot were read (by a load or the first save). */
  known: boolean;
  /** The sector with the newest valid header, -1 when the region holds no log sector. */
  newest: number;
  newestSeq: number;
  /** The next slot of the newest sector to try; slotsPerSector or more means a sector must be opened. */
  nextSlot: number;
  /**
   * The sector holding the newest committed save (the one the boot returns), -1 when there is none.
   * It is never erased: saves cut before their commit use up slots without moving it, so round
   * robin would otherwise come back to it.
   */
  protectedSector: number;
  protectedSeq: number;
  /**
   * Marks the next save programs to 0x00 before anything else: those found set but not exactly 0x00
   * when the log was adopted, and the newest set mark of the newest and of the protected sector
   * whatever they read (logScan.ts solidifyMark).
   */
  weakMarks: number[];
  /** The adopted newest sector has no committed slot: program its header again before the first write into it. */
  refreshHeader: boolean;
}

export interface SlotLogContext {
  flash: Flash;
  layout: RegionLayout;
  /** The flash's erase page: a sector spanning several pages is erased page by page. */
  pageSize: number;
  isValidPayload: (payload: Uint8Array) => boolean;
  maxBootChecks: number;
  /** Sequence number of the first sector of a brand-new log. */
  initialSequence: number;
  counts: SlotLogStats;
  position: WriterPosition;
}

export function unknownPosition(): WriterPosition {
  return {
    known: false,
    newest: -1,
    newestSeq: 0,
    nextSlot: 0,
    protectedSector: -1,
    protectedSeq: 0,
    weakMarks: [],
    refreshHeader: false,
  };
}

/**
 * Takes over the log as found: where to write next, which sector to protect, what to strengthen.
 * `newestMarks` null (or no valid header in `scan`) means there is no log yet.
 */
export function adoptPosition(
  pos: WriterPosition,
  scan: HeaderScan,
  newestMarks: Uint8Array | null,
  protectedSector: number,
  weakMarks: number[],
): void {
  if (scan.order.length === 0 || newestMarks === null) {
    pos.newest = -1;
    pos.newestSeq = 0;
    pos.nextSlot = 0;
    pos.protectedSector = -1;
    pos.protectedSeq = 0;
    pos.weakMarks = [];
    pos.refreshHeader = false;
  } else {
    pos.newest = scan.order[0] as number;
    pos.newestSeq = scan.seqs[pos.newest] as number;
    const last = lastCommitted(newestMarks);
    pos.nextSlot = last + 1;
    pos.refreshHeader = last < 0;
    pos.protectedSector = protectedSector;
    pos.protectedSeq = protectedSector < 0 ? 0 : (scan.seqs[protectedSector] as number);
    pos.weakMarks = weakMarks;
  }
  pos.known = true;
}
