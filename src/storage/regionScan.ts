/**
 * A read-only survey of every sector and slot of a slot-log region, for tools that show what a
 * region holds (`pet-save inspect`). SlotLog.load answers "which save is current" and stops there;
 * this answers "what is in every slot", using the same layout helpers, and writes nothing.
 *
 * Slot states, from the commit mark and the payload bytes:
 *   erased     mark 0xFF and payload all 0xFF: never used
 *   torn       mark 0xFF but payload bytes programmed: a save cut off before its commit mark
 *   committed  mark programmed: a finished save (whether its bytes pass the caller's check is
 *              reported separately as `valid`)
 *
 * Sector states: "log" (a valid header; its slots are listed), "erased" (header and everything else
 * 0xFF), "dirty" (erased header over programmed bytes: an erase or a header write cut off), "foreign"
 * (a header that is not ours, a torn one, or one whose magic SlotLog cleared before an erase that
 * was then cut off).
 *
 * Runs on Espruino as well (no Map/Set, no classes), though only the desktop tools use it.
 */
import { StatusFlash, FlashStatus, safeRead } from "./flash";
import {
  ERASED,
  HEADER_SIZE,
  RegionLayout,
  allErased,
  decodeHeader,
  markAddress,
  orderNewestFirst,
  sectorAddress,
  slotAddress,
} from "./regionLayout";

export type ScannedSlotState = "erased" | "torn" | "committed";
export type ScannedSectorState = "log" | "erased" | "dirty" | "foreign";

export interface ScannedSlot {
  index: number;
  state: ScannedSlotState;
  /** The commit mark byte as read. */
  mark: number;
  /** The slot's payload bytes as read (a copy). */
  payload: Uint8Array;
  /** The caller's validity check on the payload; false for erased slots. */
  valid: boolean;
}

export interface ScannedSector {
  index: number;
  address: number;
  state: ScannedSectorState;
  /** Sequence number when state is "log", else -1. */
  seq: number;
  /** 0 for the newest log sector, 1 for the one before it, ...; -1 when not a log sector. */
  age: number;
  /** Every slot, for "log" sectors only (empty otherwise). */
  slots: ScannedSlot[];
}

export interface RegionScan {
  status: FlashStatus;
  sectors: ScannedSector[];
}

/**
 * Reads the whole region through `flash` and classifies every sector and slot. `isValidPayload`
 * is called on every programmed slot (committed or torn).
 */
export function scanRegion(flash: StatusFlash, layout: RegionLayout, isValidPayload: (payload: Uint8Array) => boolean): RegionScan {
  const sectors: ScannedSector[] = [];
  for (let i = 0; i < layout.sectorCount; i++) {
    const base = sectorAddress(layout, i);
    const whole = safeRead(flash, layout.sectorSize, base);
    if (whole.status !== "ok" || whole.bytes === null) return { status: whole.status, sectors: [] };
    const header = decodeHeader(layout, whole.bytes.subarray(0, HEADER_SIZE));
    if (header.kind === "erased") {
      sectors.push({ index: i, address: base, state: allErased(whole.bytes) ? "erased" : "dirty", seq: -1, age: -1, slots: [] });
      continue;
    }
    if (header.kind === "invalid") {
      sectors.push({ index: i, address: base, state: "foreign", seq: -1, age: -1, slots: [] });
      continue;
    }
    const slots: ScannedSlot[] = [];
    for (let s = 0; s < layout.slotsPerSector; s++) {
      const mark = whole.bytes[markAddress(layout, i, s) - base] as number;
      const from = slotAddress(layout, i, s) - base;
      const payload = new Uint8Array(whole.bytes.subarray(from, from + layout.payloadLength));
      const blank = allErased(payload);
      const state: ScannedSlotState = mark !== ERASED ? "committed" : blank ? "erased" : "torn";
      let valid = false;
      if (state !== "erased") {
        try {
          valid = isValidPayload(payload) === true;
        } catch (e) {
          valid = false;
        }
      }
      slots.push({ index: s, state: state, mark: mark, payload: payload, valid: valid });
    }
    sectors.push({ index: i, address: base, state: "log", seq: header.seq, age: -1, slots: slots });
  }
  rankLogSectors(sectors);
  return { status: "ok", sectors: sectors };
}

/** Sets `age` on log sectors: 0 for the newest, then in the order the boot walks them (regionLayout.ts orderNewestFirst). */
function rankLogSectors(sectors: ScannedSector[]): void {
  const order: number[] = [];
  const seqs: number[] = [];
  for (let i = 0; i < sectors.length; i++) {
    const s = sectors[i] as ScannedSector;
    seqs.push(s.seq);
    if (s.state === "log") order.push(i);
  }
  orderNewestFirst(order, seqs);
  for (let k = 0; k < order.length; k++) (sectors[order[k] as number] as ScannedSector).age = k;
}
