/**
 * Which save a region holds right now, found the way the firmware finds it at boot: the slot log's
 * newest committed slot that the codec accepts (judged without a wall clock). The desktop reads it
 * back after every burst of flash writes and reports "saved: updates N" only for what is really in
 * the image, so a line it printed is a save that survives kill -9.
 */
import { isLoadablePayload, loadWorld } from "../../save/codec";
import { u64ToDecimal } from "../../core/u64";
import { nameToString } from "../../core/name";
import type { StatusFlash } from "../../storage/flash";
import { createSlotLog } from "../../storage/slotLog";

export interface CurrentSave {
  updateCount: string;
  name: string;
  sector: number;
  slot: number;
  seq: number;
}

/** The current save in `flash` (region at `address`), or null when there is none. */
export function readCurrentSave(flash: StatusFlash, region: { address: number; size: number; pageSize: number }): CurrentSave | null {
  const created = createSlotLog({
    flash,
    address: region.address,
    size: region.size,
    sectorSize: region.pageSize,
    isValidPayload: isLoadablePayload,
  });
  if (created.log === null) return null;
  const r = created.log.load();
  if (r.status !== "ok" || r.payload === null) return null;
  const loaded = loadWorld(r.payload, 0);
  if (loaded.world === null) return null;
  return {
    updateCount: u64ToDecimal(loaded.world.updateCount),
    name: nameToString(loaded.world.name),
    sector: r.sector,
    slot: r.slot,
    seq: r.seq,
  };
}
