/**
 * Read-only helpers for finding one's place in a region: the sector headers in boot order and the
 * commit marks of one sector. The loader and the writer (logLoad.ts) use them, and regionScan.ts
 * uses the same ordering. Reads only; statuses, never exceptions.
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

/**
 * Sorts `order` (sector indexes) in place, newest first by `seqs[sector]`: the order the boot walks
 * the log in, and the age pet-save inspect reports (regionScan.ts), so both always agree. The newest
 * is the one no other is newer than; the rest sort by distance behind it, ties keeping their order.
 * The log's own sequence numbers lie within the number of sector opens since the oldest surviving
 * header was written (far below 2^31: flash wears out first), so this is a total order even across
 * the 2^32 wrap.
 */
export function orderNewestFirst(order: number[], seqs: number[]): void {
  if (order.length < 2) return;
  let top = order[0] as number;
  for (let k = 1; k < order.length; k++) {
    const s = order[k] as number;
    if (seqNewer(seqs[s] as number, seqs[top] as number)) top = s;
  }
  const topSeq = seqs[top] as number;
  // Insertion sort: a handful of sectors, and stable without relying on the engine's sort.
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
  orderNewestFirst(order, seqs);
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
 * Appends to `into` the address of mark `slot` of sector `i` (unless it is there already): a mark
 * the next save programs to 0x00 whatever it reads. A weakly programmed mark can read exactly 0x00
 * now and 0xFF later, so reading it cannot tell; the marks the boot's answer rests on (the newest set
 * mark of the newest sector, and the mark of the save returned from the protected sector) are
 * programmed again once per adoption, one 1-byte write. `slot` below 0 adds nothing.
 */
export function solidifyMark(l: RegionLayout, i: number, slot: number, into: number[]): void {
  if (slot < 0) return;
  const at = markAddress(l, i, slot);
  if (into.indexOf(at) < 0) into.push(at);
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
