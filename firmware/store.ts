/**
 * The pet's save slot as the firmware sees it: restore the newest good payload or say why there is
 * none, and write a payload. Underneath is the storage layer's SlotLog over the board's reserved
 * region (docs/storage.md), on the device's flash via the Espruino adapter.
 */
import { createSlotLog, type SlotLog } from "../src/storage/slotLog";
import { loadWorld, type LoadResult } from "../src/save/codec";
import { u64Compare, u64FromNumber, u64Sub, type U64 } from "../src/core/u64";
import { flashFromEspruino } from "../src/host/espruino/flashAdapter";
import type { Flash } from "../src/storage/flash";
import type { RawFlash } from "./env";

export interface Restored {
  /** The newest payload that decodes, or null. */
  payload: Uint8Array | null;
  /**
   * That payload loaded with the wall clock given to restore(): status "ok" with the world (absence
   * added), or the codec's refusal of a save that is readable but cannot be used now (clock-overflow).
   * Null when there is no payload. The check that picked the payload made it, so nothing is decoded twice.
   */
  loaded: LoadResult | null;
  /**
   * The slot log's status: "ok", or why there is no payload. "empty" (erased), "no-log" (foreign
   * data) and "no-committed-save" (log sectors but no save ever committed, e.g. the very first save
   * was cut) mean the region holds no save of ours; the others ("no-valid-save", "read-failed") mean
   * a save may well be there and must not be overwritten.
   */
  status: string;
  /** Why there is no payload, for the boot line ("region empty", ...); "ok" otherwise. */
  reason: string;
  /** Newer committed saves that failed the check and were passed over (damage outside the power-cut model). */
  skipped: number;
}

export interface PetStore {
  /** The newest usable save, loaded at wall clock `wallNowMs` (0 or absent: unknown, no absence added). */
  restore(wallNowMs?: number): Restored;
  /** Writes the payload as the newest save: "ok" or a storage status (plus its explanation). */
  save(payload: Uint8Array): string;
}

export interface OpenedStore {
  store: PetStore | null;
  /** "ok", or why the region cannot be used. */
  status: string;
}

/**
 * The since stamps are within the STORED world clock: what loadWorld(payload, 0) would also require.
 * `loaded` is a successful load; its clock is the stored one plus absenceMs (at most seven days, so
 * the subtraction is exact and cannot underflow).
 */
function validWithoutClock(loaded: LoadResult): boolean {
  const w = loaded.world;
  if (w === null) return false;
  const stored = u64Sub(w.elapsed, u64FromNumber(loaded.absenceMs) as U64);
  if (stored === null) return false;
  return u64Compare(w.activitySince, stored) <= 0 && u64Compare(w.expressionSince, stored) <= 0;
}

/** Short words for the slot log's "no payload" statuses; the log's message follows in brackets. */
const NO_SAVE_WORDS: { [status: string]: string } = {
  empty: "region empty",
  "no-log": "region holds no pet log",
  "no-committed-save": "log holds no committed save",
  "no-valid-save": "no readable save",
  "read-failed": "flash read failed",
};

/**
 * `flash` limited to the region: anything outside it is "out-of-range" and never reaches the device.
 * The slot log only addresses its region, so this is a guard against bugs, worth having because the
 * Linux build of the interpreter stops on an assertion for flash outside its file and a stray erase
 * on the ESP32 could hit the firmware's own Storage.
 */
function regionOnly(flash: Flash, region: { address: number; size: number }): Flash {
  const lo = region.address;
  const hi = region.address + region.size;
  function inside(address: number, length: number): boolean {
    return address >= lo && length >= 0 && address + length <= hi;
  }
  return {
    sectorSize: flash.sectorSize,
    read: function (length, address) {
      return inside(address, length) ? flash.read(length, address) : { status: "out-of-range", bytes: null };
    },
    write: function (data, address) {
      return inside(address, data.length) ? flash.write(data, address) : "out-of-range";
    },
    erasePage: function (address) {
      // The address may be an integral double here; flashFromEspruino makes it an integer for Espruino.
      return inside(address, 1) ? flash.erasePage(address) : "out-of-range";
    },
  };
}

/**
 * Opens the slot log over `region`, one log sector per flash page (16 sectors of 4 KiB on the
 * ESP32). Nothing is read until restore() or save().
 */
export function openPetStore(raw: RawFlash, region: { address: number; size: number; pageSize: number }): OpenedStore {
  const flash = regionOnly(flashFromEspruino(raw, region.pageSize), region);
  /** The wall clock of the restore in progress, and the load of the payload the check accepted last. */
  let checkWall = 0;
  let accepted: LoadResult | null = null;

  /**
   * The slot log's validity check, which also does the boot's one decode. A payload may be handed
   * back when the codec accepts it judged WITHOUT a wall clock, so that which save is picked does
   * not depend on when the device boots; a save that passes the CRC but that this firmware cannot
   * read (an unknown activity, say) is skipped in favour of the one before it. The decode is done
   * with the boot's clock, though, and kept: in the usual case (accepted with the clock) the stored
   * since stamps are checked against the stored clock instead of decoding again; only a payload the
   * clock makes unusable (clock-overflow) is decoded a second time, without it, to tell a readable
   * save that is refused now from a bad one.
   */
  function isLoadablePayload(payload: Uint8Array): boolean {
    const r = loadWorld(payload, checkWall);
    if (r.status === "ok") {
      if (checkWall !== 0 && !validWithoutClock(r)) return false;
      accepted = r;
      return true;
    }
    if (checkWall === 0 || loadWorld(payload, 0).status !== "ok") return false;
    accepted = r; // readable, but refused at this clock: the boot reports it rather than going back
    return true;
  }

  const created = createSlotLog({
    flash: flash,
    address: region.address,
    size: region.size,
    sectorSize: region.pageSize,
    isValidPayload: isLoadablePayload,
  });
  if (created.status !== "ok" || created.log === null) {
    return { store: null, status: created.status + " (" + created.message + ")" };
  }
  const log: SlotLog = created.log;
  return {
    status: "ok",
    store: {
      restore: function (wallNowMs?: number): Restored {
        checkWall = typeof wallNowMs === "number" && wallNowMs > 0 ? wallNowMs : 0;
        accepted = null;
        const r = log.load();
        if (r.status === "ok" && r.payload !== null) {
          return { payload: r.payload, loaded: accepted, status: "ok", reason: "ok", skipped: r.checks - 1 };
        }
        const words = NO_SAVE_WORDS[r.status];
        // The words say it all for these two; the log's message would only repeat them.
        if (r.status === "empty" || r.status === "no-committed-save") return { payload: null, loaded: null, status: r.status, reason: words as string, skipped: 0 };
        const reason = (typeof words === "string" ? words : r.status) + " (" + r.message + ")";
        return { payload: null, loaded: null, status: r.status, reason: reason, skipped: 0 };
      },
      save: function (payload: Uint8Array): string {
        const r = log.save(payload);
        return r.status === "ok" ? "ok" : r.status + " (" + r.message + ")";
      },
    },
  };
}
