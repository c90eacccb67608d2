/**
 * Shared helpers for the storage tests: small region geometries and the ESP32's, a simulated flash
 * over one, and byte comparisons. The payloads and the validity check the tests save with are the
 * power-cut harness's (src/storage/powerCut/payloads.ts), re-exported here.
 */
import { NorFlashSim } from "../src/storage/norFlashSim";
import type { Geometry } from "../src/storage/powerCut";

export { crcValid, makePayload, openLog, PAYLOAD, sameBytes, type Geometry } from "../src/storage/powerCut";

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
