/**
 * Shared helpers for the storage tests: an independent payload validity check (Node's zlib.crc32,
 * not the codec under test), distinct payloads per save, and small region geometries.
 */
import { crc32 } from "node:zlib";
import { NorFlashSim, createPrng } from "../src/storage/norFlashSim";
import { SlotLog, createSlotLog } from "../src/storage/slotLog";

export const PAYLOAD = 84;

/** What the firmware's check is: CRC-32 over bytes 0..79 equals the u32 little-endian at 80. */
export function crcValid(p: Uint8Array): boolean {
  if (p.length !== PAYLOAD) return false;
  const stored = (p[80]! | (p[81]! << 8) | (p[82]! << 16) | (p[83]! << 24)) >>> 0;
  return crc32(p.subarray(0, 80)) === stored;
}

/**
 * A valid-looking payload whose bytes are all derived from `id` (so two saves never share a
 * payload and a mixture of two is detectable), with a correct CRC at 80.
 */
export function makePayload(id: number, counter = id): Uint8Array {
  const p = new Uint8Array(PAYLOAD);
  const r = createPrng((id * 2654435761 + 17) >>> 0);
  p.set([0x50, 0x45, 0x54, 0x53, 1, 0]); // "PETS", version 1
  for (let i = 6; i < 80; i++) p[i] = r() & 0xff;
  // bytes 14..21 look like the update count: hatch/import tests set it low on purpose
  for (let b = 0; b < 4; b++) p[14 + b] = (counter >>> (8 * b)) & 0xff;
  for (let b = 4; b < 8; b++) p[14 + b] = 0;
  const c = crc32(p.subarray(0, 80));
  for (let b = 0; b < 4; b++) p[80 + b] = (c >>> (8 * b)) & 0xff;
  return p;
}

export interface Geometry {
  address: number;
  size: number;
  sectorSize: number;
}

/** 4 sectors of 512 bytes: 5 slots each, cheap enough for exhaustive cut sweeps. */
export const SMALL: Geometry = { address: 0x1000, size: 2048, sectorSize: 512 };
/** 2 sectors of 512 bytes: the smallest region the log accepts. */
export const PAIR: Geometry = { address: 0x2000, size: 1024, sectorSize: 512 };
/** 3 sectors of 512 bytes. */
export const TINY: Geometry = { address: 0, size: 1536, sectorSize: 512 };
/**
 * The ESP32 board's reserved region as boards/esp32.json gives it (16 pages of 4096 bytes at
 * 0x310000): the one region shape the tests share (firmware fakes, region tools, desktop), checked
 * against the profile by test/boards-profiles-match-schema.test.ts.
 */
export const ESP32_REGION = { address: 0x310000, size: 65536, pageSize: 4096 };
/** The same region as slot-log parameters: one log sector per flash page. */
export const ESP32: Geometry = { address: ESP32_REGION.address, size: ESP32_REGION.size, sectorSize: ESP32_REGION.pageSize };

export function newSim(g: Geometry, extra: { strict?: boolean; seed?: number; trace?: boolean; wordPadded?: boolean } = {}): NorFlashSim {
  return new NorFlashSim({ size: g.size, pageSize: g.sectorSize, baseAddress: g.address, ...extra });
}

export function openLog(sim: NorFlashSim, g: Geometry, extra: { initialSequence?: number; maxBootChecks?: number } = {}): SlotLog {
  const r = createSlotLog({ flash: sim, address: g.address, size: g.size, sectorSize: g.sectorSize, isValidPayload: crcValid, ...extra });
  if (r.log === null) throw new Error("test setup: " + r.message);
  return r.log;
}

/**
 * Where two byte arrays first differ ("offset 4100: 255 vs 0", "length 10 vs 12"), or null when they
 * are equal: for images of many kilobytes, where toEqual on arrays of numbers costs tens of
 * milliseconds a call and a property test makes hundreds of calls.
 */
export function firstDifference(a: Uint8Array, b: Uint8Array): string | null {
  if (a.length !== b.length) return "length " + a.length + " vs " + b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return "offset " + i + ": " + a[i] + " vs " + b[i];
  return null;
}

export function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
