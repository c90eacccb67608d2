/**
 * What the power-cut sweeps and storms save, and how they check what a boot gives back: payloads
 * whose every byte is derived from an id (two saves never share one, and a mixture of two shows),
 * with the CRC at 80 that the firmware's check verifies, and the region shapes they run on.
 * Payload-shaped only: the slot log treats a payload as an opaque blob, and so do these checks.
 */
import { crc32Bitwise } from "../../save/crc32";
import { createPrng, NorFlashSim } from "../norFlashSim";
import { createSlotLog, type SlotLog } from "../slotLog";

export const PAYLOAD = 84;

/** A region as slot-log parameters: absolute address, size, one log sector's size. */
export interface Geometry {
  address: number;
  size: number;
  sectorSize: number;
}

/** What the firmware's check is at its core: CRC-32 over bytes 0..79 equals the u32 little-endian at 80. */
export function crcValid(p: Uint8Array): boolean {
  if (p.length !== PAYLOAD) return false;
  const stored = ((p[80] as number) | ((p[81] as number) << 8) | ((p[82] as number) << 16) | ((p[83] as number) << 24)) >>> 0;
  return crc32Bitwise(p, 0, 80) === stored;
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
  const c = crc32Bitwise(p, 0, 80);
  for (let b = 0; b < 4; b++) p[80 + b] = (c >>> (8 * b)) & 0xff;
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
