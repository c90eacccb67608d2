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
import { readU32LE, writeU32LE } from "../core/u64";

export const HEADER_SIZE = 12;
/** Layout version stored in the third magic byte; a different layout will never look like ours. */
export const LAYOUT_VERSION = 1;
export const MAGIC_0 = 0x50; // "P"
export const MAGIC_1 = 0x4c; // "L"
/** Value a commit mark is programmed to. Any cleared bit counts as committed (see docs/storage.md). */
export const MARK_COMMITTED = 0x00;
export const ERASED = 0xff;
/** Payload length of save format v1. */
export const DEFAULT_PAYLOAD_LENGTH = 84;

/** Region parameters as the board profile supplies them. */
export interface RegionParams {
  /** Absolute flash address of the first byte of the region. */
  address: number;
  /** Region size in bytes, a multiple of sectorSize. */
  size: number;
  /** Sector size in bytes: the log's unit of erase, a multiple of the flash page size. */
  sectorSize: number;
  /** Payload length in bytes (default 84), a multiple of 4 between 4 and 252. */
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
  if (!isWhole(payloadLength) || payloadLength < 4 || payloadLength > 252 || payloadLength % 4 !== 0) {
    return bad("payload length must be a multiple of 4 between 4 and 252");
  }
  let n = ((p.sectorSize - HEADER_SIZE) / (payloadLength + 1)) | 0;
  while (n > 0 && HEADER_SIZE + align4(n) + n * payloadLength > p.sectorSize) n--;
  if (n < 1) return bad("sector size too small for one payload slot");
  const marksSize = align4(n);
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
    },
  };
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
  const s = seq >>> 0;
  const c = ~s >>> 0;
  h[0] = MAGIC_0;
  h[1] = MAGIC_1;
  h[2] = LAYOUT_VERSION;
  h[3] = l.payloadLength;
  writeU32LE(h, 4, s);
  writeU32LE(h, 8, c);
  return h;
}

/** True when every byte is 0xFF. */
export function allErased(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] !== ERASED) return false;
  return true;
}

/** True when both hold the same bytes: how every read-back is compared with what was programmed. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
  if (allErased(h.subarray(0, HEADER_SIZE))) return { kind: "erased", seq: 0 };
  if (h[0] !== MAGIC_0 || h[1] !== MAGIC_1 || h[2] !== LAYOUT_VERSION || h[3] !== l.payloadLength) {
    return { kind: "invalid", seq: 0 };
  }
  const s = readU32LE(h, 4);
  const c = readU32LE(h, 8);
  if (((s ^ c) >>> 0) !== 0xffffffff) return { kind: "invalid", seq: 0 };
  return { kind: "valid", seq: s };
}

/** True when sequence number `a` is newer than `b` in serial-number arithmetic (wraps past 2^32). */
export function seqNewer(a: number, b: number): boolean {
  const d = (a - b) >>> 0;
  return d !== 0 && d < 0x80000000;
}
