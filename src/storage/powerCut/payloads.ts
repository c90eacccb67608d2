/**
 * What the power-cut sweeps and storms save, and how they check what a boot gives back: payloads
 * whose every byte is derived from an id (two saves never share one, and a mixture of two shows),
 * with the CRC (src/save/layout.ts) that the firmware's check verifies, and the region shapes they run on.
 * Payload-shaped only: the slot log treats a payload as an opaque blob, and so do these checks.
 */
import { crc32Bitwise } from "../../save/crc32";
import { CRC_COVERED_LENGTH, FORMAT_VERSION, MAGIC, OFFSET_CRC, OFFSET_UPDATE_COUNT, OFFSET_VERSION, PAYLOAD_LENGTH, HEADER_LENGTH } from "../../save/layout";
import { createPrng, NorFlashSim } from "../norFlashSim";
import { createSlotLog, type SlotLog } from "../slotLog";

export const PAYLOAD = PAYLOAD_LENGTH;

/** A region as slot-log parameters: absolute address, size, one log sector's size. */
export interface Geometry {
  address: number;
  size: number;
  sectorSize: number;
}

/** What the firmware's check is at its core: CRC-32 over the covered bytes (0..79) equals the u32 little-endian stored after them. */
export function crcValid(p: Uint8Array): boolean {
  if (p.length !== PAYLOAD) return false;
  return crc32Bitwise(p, 0, CRC_COVERED_LENGTH) === new DataView(p.buffer, p.byteOffset, p.length).getUint32(OFFSET_CRC, true);
}

/**
 * A valid-looking payload whose bytes are all derived from `id` (so two saves never share a
 * payload and a mixture of two is detectable), with a correct CRC.
 */
export function makePayload(id: number, counter = id): Uint8Array {
  const p = new Uint8Array(PAYLOAD);
  const r = createPrng((id * 2654435761 + 17) >>> 0);
  const dv = new DataView(p.buffer);
  p.set(MAGIC);
  dv.setUint16(OFFSET_VERSION, FORMAT_VERSION, true);
  for (let i = HEADER_LENGTH; i < CRC_COVERED_LENGTH; i++) p[i] = r() & 0xff;
  // The update count's eight bytes hold the counter: hatch/import tests set it low on purpose.
  dv.setUint32(OFFSET_UPDATE_COUNT, counter >>> 0, true);
  dv.setUint32(OFFSET_UPDATE_COUNT + 4, 0, true);
  dv.setUint32(OFFSET_CRC, crc32Bitwise(p, 0, CRC_COVERED_LENGTH), true);
  return p;
}

/** A slot log over `sim` laid out as `g`, checking payloads with crcValid. */
export function openLog(sim: NorFlashSim, g: Geometry, extra: { initialSequence?: number; maxBootChecks?: number } = {}): SlotLog {
  const r = createSlotLog({ flash: sim, address: g.address, size: g.size, sectorSize: g.sectorSize, isValidPayload: crcValid, ...extra });
  if (r.log === null) throw new Error("power-cut set-up: " + r.message);
  return r.log;
}

/** True when both are null or both hold the same bytes. */
export function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
