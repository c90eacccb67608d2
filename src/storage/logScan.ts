/**
 * Read-only helpers SlotLog uses to find its place in a region: the sector headers in boot order
 * and the commit marks of one sector. Split out of slotLog.ts so that file stays about saving and
 * loading. Reads only; statuses, never exceptions.
 *
 * Runs on Espruino: plain functions, no Map/Set, functions defined before use.
 */
import { Flash, FlashStatus, safeRead } from "./flash";
import { ERASED, HEADER_SIZE, MARK_COMMITTED, RegionLayout, decodeHeader, markAddress, sectorAddress, seqNewer } from "./regionLayout";

export interface HeaderScan {
  status: FlashStatus;
  /** Sector indexes with a valid header, newest first. */
  order: number[];
  /** Sequence number of every sector (0 for a sector without a valid header). */
  seqs: number[];
  erasedCount: number;
}

/** Reads every sector header (12 bytes each) and orders the valid ones newest first. */
export function scanHeaders(flash: Flash, l: RegionLayout): HeaderScan {
  const order: number[] = [];
  const seqs: number[] = [];
  let erasedCount = 0;
  for (let i = 0; i < l.sectorCount; i++) {
    const r = safeRead(flash, HEADER_SIZE, sectorAddress(l, i));
    if (r.status !== "ok" || r.bytes === null) return { status: r.status, order: [], seqs: [], erasedCount: 0 };
    const h = decodeHeader(l, r.bytes);
    seqs.push(h.seq);
    if (h.kind === "valid") order.push(i);
    else if (h.kind === "erased") erasedCount++;
  }
  if (order.length > 1) {
    // The newest is the one no other header is newer than; the rest sort by distance behind it.
    // The log's own sequence numbers lie within the number of sector opens since the oldest
    // surviving header was written (far below 2^31: flash wears out first), so this is a total
    // order even across the 2^32 wrap.
    let top = order[0] as number;
    for (let k = 1; k < order.length; k++) {
      const s = order[k] as number;
      if (seqNewer(seqs[s] as number, seqs[top] as number)) top = s;
    }
    const topSeq = seqs[top] as number;
    for (let a = 1; a < order.length; a++) {
      const x = order[a] as number;
      const dx = (topSeq - (seqs[x] as number)) >>> 0;
      let b = a - 1;
      while (b >= 0 && ((topSeq - (seqs[order[b] as number] as number)) >>> 0) > dx) {
        order[b + 1] = order[b] as number;
        b--;
      }
      order[b + 1] = x;
    }
  }
  return { status: "ok", order: order, seqs: seqs, erasedCount: erasedCount };
}

/** Reads the commit marks of sector `i`; null on a read failure. */
export function readMarks(flash: Flash, l: RegionLayout, i: number): Uint8Array | null {
  const r = safeRead(flash, l.slotsPerSector, markAddress(l, i, 0));
  return r.status === "ok" ? r.bytes : null;
}

/** Index of the highest committed slot (mark not 0xFF), -1 when none. */
export function lastCommitted(marks: Uint8Array): number {
  for (let k = marks.length - 1; k >= 0; k--) if (marks[k] !== ERASED) return k;
  return -1;
}

/**
 * Appends to `into` the addresses of the marks of sector `i` that are set but not exactly
 * MARK_COMMITTED: a write cut short, or bits programmed weakly. They already count as committed;
 * programming them to 0x00 again makes them solid.
 */
export function weakMarks(l: RegionLayout, i: number, marks: Uint8Array, into: number[]): void {
  for (let k = 0; k < marks.length; k++) {
    const m = marks[k] as number;
    if (m !== ERASED && m !== MARK_COMMITTED) into.push(markAddress(l, i, k));
  }
}
