/**
 * Byte layout of the slot log inside a reserved flash region (see docs/storage.md for the picture
 * and docs/adr/0004-slot-log-in-reserved-flash.md for why it looks like this).
 *
 * The region is cut into equal sectors (the erase unit, or a multiple of it). Every sector is:
 *
 *   offset 0   4 bytes  magic: 0x50 0x4C 0x01 L  ("PL", layout version 1, L = payload length)
 *   offset 4   4 bytes  sequence number, u32 little-endian
 *   offset 8   4 bytes  ones' complement of the sequence number, u32 little-endian
 *   offset 12  M bytes  commit marks, one byte per slot (0xFF = never committed), M = n rounded up to 4
 *   offset 12+M         n payload slots of L bytes each, back to back
 *
 * n is the largest count that fits; with 4096-byte sectors and 84-byte payloads it is 48
 * (12 + 48 + 48 * 84 = 4092 bytes), the most 84-byte payloads a 4 KiB sector can hold at all.
 */
import { allErased } from "../core/bytes";
import { PAYLOAD_LENGTH } from "../save/layout";

export { allErased };

export const HEADER_SIZE = 12;
/**
 * How many bytes the log reads to get a header: the header and the first marks after it. Never
 * HEADER_SIZE alone: on Espruino's ESP32 builds with JsVars in PSRAM a Flash.read of 2 to 22 bytes
 * comes back as zeros (ESP-IDF 3.x copies into PSRAM with the cache off; a real board panics), so
 * every read of the log is 1 byte or at least SAFE_READ_MIN (src/storage/flash.ts) bytes.
 */
export const HEADER_READ = 24;
/** Layout version stored in the third magic byte; a different layout will never look like ours. */
export const LAYOUT_VERSION = 1;
export const MAGIC_0 = 0x50; // "P"
export const MAGIC_1 = 0x4c; // "L"
/** Value a commit mark is programmed to. Any cleared bit counts as committed (see docs/storage.md). */
export const MARK_COMMITTED = 0x00;
export const ERASED = 0xff;
/** The payload length when the region parameters name none: save format v1's (src/save/layout.ts). */
export const DEFAULT_PAYLOAD_LENGTH = PAYLOAD_LENGTH;

/** Region parameters as the board profile supplies them. */
export interface RegionParams {
  /** Absolute flash address of the first byte of the region. */
  address: number;
  /** Region size in bytes, a multiple of sectorSize. */
  size: number;
  /** Sector size in bytes: the log's unit of erase, a multiple of the flash page size. */
  sectorSize: number;
  /** Payload length in bytes (default 84), a multiple of 4 between 24 and 252. */
  payloadLength?: number;
}

/** Derived geometry. All offsets are relative to the start of a sector. */
export interface RegionLayout {
  address: number;
  size: number;
  sectorSize: number;
  sectorCount: number;
  payloadLength: number;
  slotsPerSector: number;
  marksOffset: number;
  /** Bytes of the marks table including padding to a 4-byte boundary. */
  marksSize: number;
  slotsOffset: number;
  /** The header's first four bytes ("PL", layout version, payload length) read as a little-endian u32. */
  headerMagic: number;
  /**
   * The absolute address of every sector (its header), in sector order: the boot reads every header
   * in one native map (SlotLog). Part of the layout so that a device build can carry it ready-made
   * instead of computing it at every boot.
   */
  headerAddresses: number[];
}

export interface LayoutResult {
  status: "ok" | "bad-config";
  layout: RegionLayout | null;
  message: string;
}

function isWhole(n: unknown): n is number {
  return typeof n === "number" && n >= 0 && Math.floor(n) === n && n < 4294967296;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** Checks region parameters and derives the layout; "bad-config" with a message names the problem. */
export function computeLayout(p: RegionParams, flashPageSize?: number): LayoutResult {
  const payloadLength = p.payloadLength === undefined ? DEFAULT_PAYLOAD_LENGTH : p.payloadLength;
  function bad(message: string): LayoutResult {
    return { status: "bad-config", layout: null, message: message };
  }
  if (!isWhole(p.address)) return bad("region address must be a whole number below 2^32");
  if (!isWhole(p.sectorSize) || p.sectorSize < 64 || p.sectorSize % 4 !== 0) {
    return bad("sector size must be a whole multiple of 4, at least 64 bytes");
  }
  if (!isWhole(p.size) || p.size % p.sectorSize !== 0) {
    return bad("region size must be a whole multiple of the sector size");
  }
  if (p.address % p.sectorSize !== 0) return bad("region address must be aligned to the sector size");
  if (flashPageSize !== undefined) {
    if (!isWhole(flashPageSize) || flashPageSize <= 0 || p.sectorSize % flashPageSize !== 0) {
      return bad("sector size must be a multiple of the flash page size");
    }
  }
  // `| 0`: on Espruino a division result stays a double, and Flash.erasePage refuses doubles.
  const sectorCount = (p.size / p.sectorSize) | 0;
  if (sectorCount < 2) return bad("the region needs at least two sectors (one is erased while the other keeps the newest save)");
  // At least 24 (flash.ts SAFE_READ_MIN): the log reads a payload in one read, which must be safe on every ESP32 build.
  if (!isWhole(payloadLength) || payloadLength < 24 || payloadLength > 252 || payloadLength % 4 !== 0) {
    return bad("payload length must be a multiple of 4 between 24 and 252");
  }
  let n = ((p.sectorSize - HEADER_SIZE) / (payloadLength + 1)) | 0;
  while (n > 0 && HEADER_SIZE + align4(n) + n * payloadLength > p.sectorSize) n--;
  if (n < 1) return bad("sector size too small for one payload slot");
  const marksSize = align4(n);
  const headerAddresses: number[] = [];
  for (let i = 0; i < sectorCount; i++) headerAddresses.push(p.address + i * p.sectorSize);
  return {
    status: "ok",
    message: "ok",
    layout: {
      address: p.address,
      size: p.size,
      sectorSize: p.sectorSize,
      sectorCount: sectorCount,
      payloadLength: payloadLength,
      slotsPerSector: n,
      marksOffset: HEADER_SIZE,
      marksSize: marksSize,
      slotsOffset: HEADER_SIZE + marksSize,
      headerMagic: (MAGIC_0 | (MAGIC_1 << 8) | (LAYOUT_VERSION << 16) | (payloadLength << 24)) >>> 0,
      headerAddresses: headerAddresses,
    },
  };
}

/**
 * The layout of a board's pet region (`petRegion`: address, size, flash page size), one log
 * sector per flash page: the shape the firmware's store opens, the build's petLayout and the
 * firmware tests' boards.
 */
export function layoutForRegion(region: { address: number; size: number; pageSize: number }): LayoutResult {
  return computeLayout({ address: region.address, size: region.size, sectorSize: region.pageSize }, region.pageSize);
}

/** Absolute address of sector `i`. */
export function sectorAddress(l: RegionLayout, i: number): number {
  return l.address + i * l.sectorSize;
}

/** Absolute address of the commit mark of slot `slot` in sector `i`. */
export function markAddress(l: RegionLayout, i: number, slot: number): number {
  return sectorAddress(l, i) + l.marksOffset + slot;
}

/** Absolute address of payload slot `slot` in sector `i`. */
export function slotAddress(l: RegionLayout, i: number, slot: number): number {
  return sectorAddress(l, i) + l.slotsOffset + slot * l.payloadLength;
}

/** The 12 header bytes for sequence number `seq`. */
export function encodeHeader(l: RegionLayout, seq: number): Uint8Array {
  const h = new Uint8Array(HEADER_SIZE);
  const dv = new DataView(h.buffer);
  const s = seq >>> 0;
  h[0] = MAGIC_0;
  h[1] = MAGIC_1;
  h[2] = LAYOUT_VERSION;
  h[3] = l.payloadLength;
  dv.setUint32(4, s, true);
  dv.setUint32(8, ~s >>> 0, true);
  return h;
}

export type HeaderKind = "valid" | "erased" | "invalid";

export interface DecodedHeader {
  kind: HeaderKind;
  seq: number;
}

/**
 * Classifies header bytes. "valid" needs the exact magic and a sequence number whose complement is
 * exact: since every bit position must be cleared in exactly one of the two words, a header whose
 * programming stopped part way (torn write) is never valid.
 */
export function decodeHeader(l: RegionLayout, h: Uint8Array): DecodedHeader {
  const seq = headerSeqAt(l, new DataView(h.buffer, h.byteOffset, HEADER_SIZE), 0);
  if (seq === HEADER_ERASED) return { kind: "erased", seq: 0 };
  if (seq === HEADER_INVALID) return { kind: "invalid", seq: 0 };
  return { kind: "valid", seq: seq };
}

/** headerSeqAt's answer for a header that is all 0xFF. */
export const HEADER_ERASED = -1;
/** headerSeqAt's answer for a header that is neither valid nor erased. */
export const HEADER_INVALID = -2;

/**
 * What the 12 header bytes at `offset` of `dv` say, as decodeHeader judges them: the sequence number
 * (0 .. 2^32 - 1) of a valid header, HEADER_ERASED or HEADER_INVALID. Three word reads and no
 * object: the full header scan runs it for every sector of the region. On the device that scan is
 * the fallback of the native quick scan (SlotLog's scanQuick_), which a boot of a healthy log
 * takes instead, so the function form makes this one only when it is called (ADR 0012).
 */
export function headerSeqAt(l: RegionLayout, dv: DataView, offset: number): number {
  "rarely called";
  const magic = dv.getUint32(offset, true);
  const s = dv.getUint32(offset + 4, true);
  const c = dv.getUint32(offset + 8, true);
  if (magic === l.headerMagic) return ((s ^ c) >>> 0) === 0xffffffff ? s : HEADER_INVALID;
  return magic === 0xffffffff && s === 0xffffffff && c === 0xffffffff ? HEADER_ERASED : HEADER_INVALID;
}

/** True when sequence number `a` is newer than `b` in serial-number arithmetic (wraps past 2^32). */
export function seqNewer(a: number, b: number): boolean {
  const d = (a - b) >>> 0;
  return d !== 0 && d < 0x80000000;
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

/**
 * Mark classes: 0 erased, 1 committed (exactly MARK_COMMITTED), 2 set otherwise. `byteKinds(marks,
 * MARK_KIND)` gives a sector's marks as one character each: "\x00" erased, "\x01" committed, "\x02"
 * set but not exactly MARK_COMMITTED (a weak or partial write, which commits all the same), in one
 * native pass on Espruino; the answers are then native string searches (lastSet). The slot log calls
 * byteKinds itself, not through a function of its own: terser wrote the one-use byteKinds into such
 * a function as a function expression called at once, which Espruino makes anew at every boot.
 */
export const MARK_KIND = new Uint8Array(256);
MARK_KIND.fill(2);
MARK_KIND[ERASED] = 0;
MARK_KIND[MARK_COMMITTED] = 1;

/** Index of the highest set mark in a sector's mark kinds (byteKinds over MARK_KIND), -1 when none is set. */
export function lastSet(kinds: string): number {
  return Math.max(kinds.lastIndexOf("\x01"), kinds.lastIndexOf("\x02"));
}
