/**
 * The pet's save slot as the firmware sees it: restore the newest save that loads, or say why there
 * is none, and write a payload. Underneath is the storage layer's SlotLog over the board's reserved
 * region (docs/storage.md), calling the device's require("Flash") directly: the log turns its
 * throws into statuses, and its address arithmetic, which the simulator's sweeps check against the
 * region's bounds, never leaves the region.
 *
 * Names ending in "_" are names the build shortens: terser renames every property whose name ends
 * in "_" to one or two characters (scripts/lib/build.js, TERSER_OPTIONS), because the interpreter
 * reads every character of a name each time a path uses it. The "_" does not mean private: other
 * files of the bundle use such members (petConsole.ts and app.ts call RunningPet's). It means the
 * name never leaves the bundle: nothing outside it (the `pet` console object, pet.status(), a board
 * profile, the flash) holds or reads a name that ends in "_".
 */
import { SlotLog } from "../src/storage/slotLog";
import type { RegionLayout } from "../src/storage/regionLayout";
import { isLoadablePayload, loadWorld, type LoadResult } from "../src/save/codec";
import type { World } from "../src/core/types";
import type { EspruinoFlash } from "../src/storage/flash";

export interface Restored {
  /**
   * The newest save loaded with the wall clock given to restore(): status "ok" with the world
   * (absence added), or the codec's refusal of a save that is readable but cannot be used at this
   * clock (clock-overflow). Null when there is no save: then `status` and `reason` say why.
   */
  loaded: LoadResult | null;
  /**
   * "ok", or the slot log's status. "empty" (erased), "no-log" (foreign data) and
   * "no-committed-save" (log sectors but no save ever committed, e.g. the very first save was cut)
   * mean the region holds no save of ours; the others ("no-valid-save", "read-failed") mean a save
   * may well be there and must not be overwritten.
   */
  status: string;
  /** Why there is no save, for the boot line ("region empty", ...); "ok" otherwise. */
  reason: string;
  /** Newer committed saves that failed the check and were passed over (damage outside the power-cut model). */
  skipped: number;
}

/**
 * How a save went, as a value: its status ("ok"; the slot log's, such as "verify-failed" or
 * "commit-unknown"; the codec's for a world it refuses; "paused"; why there is no store) and, for a
 * failure the storage explained, its words ("" when there are none). The slot log's LogResult is
 * one, handed on as it is. The console's text for it is report.ts saveOutcomeText: the only place an
 * outcome becomes a string, and nothing reads a string back.
 */
export interface SaveOutcome {
  status: string;
  message: string;
}

/** The status of a save whose store threw (the slot log never does; a broken store might). */
export const STORAGE_ERROR = "storage-error";

export interface PetStore {
  /** The newest usable save, loaded at wall clock `wallNowMs` (0 or absent: unknown, no absence added). */
  restore(wallNowMs?: number): Restored;
  /** Writes the payload as the newest save: the slot log's answer, status "ok" or why not. */
  save(payload: Uint8Array): SaveOutcome;
}

export interface OpenedStore {
  store: PetStore | null;
  /** "ok", or why the region cannot be used. */
  status: string;
}

/**
 * Short words for the slot log's "no payload" statuses (the log's message follows in brackets), the
 * status itself for any other. A switch, not a table: its texts stay in flash, not in RAM.
 */
function noSaveWords(status: string): string {
  "rarely called";
  switch (status) {
    case "empty":
      return "region empty";
    case "no-log":
      return "region holds no pet log";
    case "no-committed-save":
      return "log holds no committed save";
    case "no-valid-save":
      return "no readable save";
    case "read-failed":
      return "flash read failed";
    default:
      return status;
  }
}

/**
 * The store over a slot log. A class rather than closures made by openPetStore: on the interpreter a
 * function made at run time has its text read to be made, and again when it runs, so closures would
 * have the boot read this text twice; methods are made once, with the bundle.
 */
class SlotStore implements PetStore {
  private readonly log_: SlotLog;
  /** The wall clock of the restore in progress: the check below is the boot's one decode. */
  private checkWall_: number;

  constructor(layout: RegionLayout, raw: EspruinoFlash, pageSize: number) {
    this.checkWall_ = 0;
    // The device's way in: the flash in Espruino's shape and the layout the build derived (the
    // profile's petLayout), nothing recomputed or checked again, so that none of the checking code
    // travels in the device bundle. The log's validity check is bound (natively) to this store. The
    // constructor itself, not a helper: terser wrote a one-use helper here as a function expression
    // called at once, which Espruino makes anew at every boot.
    const check = this.loadedOrNull_.bind(this) as (payload: Uint8Array) => object;
    this.log_ = new SlotLog(layout, { address: layout.address, size: layout.size, sectorSize: layout.sectorSize, isValidPayload: check }, raw, pageSize);
  }

  /**
   * The slot log's validity check, which is also the boot's one decode: it answers the decoded save,
   * which the log hands back with the payload. Which save is picked must not depend on when the
   * device boots, so a payload is accepted when the codec accepts it judged WITHOUT a wall clock
   * (src/save/codec.ts isLoadablePayload); a save that passes the CRC but that this firmware cannot
   * read (an unknown activity, say) is passed over for the one before it. The decode is done with
   * the boot's clock, though, and isLoadablePayload answered from it: a save loaded with time away
   * added passes without a clock when its since stamps lie within the stored clock (the loaded one
   * less the time away, at most seven days, so one borrow at most: the world's since-stamp rule, at
   * that clock); one loaded without time away already passed at it. Only a payload the clock makes
   * unusable (clock-overflow) is decoded a second time, without it, to tell a readable save refused
   * now from a bad one. test/codec-time-away-agrees.test.ts holds this to isLoadablePayload.
   */
  private loadedOrNull_(payload: Uint8Array): LoadResult | null {
    const wall = this.checkWall_;
    const r = loadWorld(payload, wall);
    if (r.status === "ok") {
      const away = r.absenceMs;
      if (away === 0) return r;
      const w = r.world as World;
      let hi = w.elapsed.hi;
      let lo = w.elapsed.lo - away;
      if (lo < 0) {
        lo += 4294967296;
        hi--;
      }
      // sinceStampsWithin(w, hi, lo), written out: this runs at every boot's restore.
      const as = w.activitySince;
      const es = w.expressionSince;
      return as.hi > hi || (as.hi === hi && as.lo > lo) || es.hi > hi || (es.hi === hi && es.lo > lo) ? null : r;
    }
    return wall !== 0 && isLoadablePayload(payload) ? r : null; // readable, but refused at this clock: the boot reports it rather than going back
  }

  restore(wallNowMs?: number): Restored {
    this.checkWall_ = typeof wallNowMs === "number" && wallNowMs > 0 ? wallNowMs : 0;
    const r = this.log_.load();
    if (r.status === "ok" && r.accepted !== null) {
      return { loaded: r.accepted as LoadResult, status: "ok", reason: "ok", skipped: r.checks - 1 };
    }
    const words = noSaveWords(r.status);
    // The words say it all for these two; the log's message would only repeat them.
    if (r.status === "empty" || r.status === "no-committed-save") return { loaded: null, status: r.status, reason: words, skipped: 0 };
    return { loaded: null, status: r.status, reason: words + " (" + r.message + ")", skipped: 0 };
  }

  save(payload: Uint8Array): SaveOutcome {
    return this.log_.save(payload);
  }
}

/**
 * Opens the slot log over `region`, one log sector per flash page (16 sectors of 4 KiB on the
 * ESP32), laid out as `layout` (the board's petLayout, which must describe `region`). Nothing is
 * read until restore() or save().
 */
export function openPetStore(raw: EspruinoFlash, region: { address: number; size: number; pageSize: number }, layout: RegionLayout): OpenedStore {
  // The build refuses a region without a layout; a board put together by hand may still lack one.
  if (!layout || layout.address !== region.address || layout.size !== region.size || layout.sectorSize !== region.pageSize) {
    return { store: null, status: "bad-config (no slot-log layout for this region)" };
  }
  return { status: "ok", store: new SlotStore(layout, raw, region.pageSize) };
}
