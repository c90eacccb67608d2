/**
 * Getting the pet back from flash: at boot (restore the newest save, or hatch into a region with
 * nothing of ours, or pause saving when a save is there but cannot be used) and, while saving is
 * paused, the retries that bring the real pet back once its save reads again.
 */
import { ABSENCE_CLAMP_MS } from "../src/save/layout";
import { nameForDisplay } from "../src/core/name";
import { u64IsSafe, u64IsZero, u64ToDecimal, u64ToNumber } from "../src/core/u64";
import { loadWorld } from "../src/save/codec";
import type { PetBoard } from "./board";
import { noteSaveAttempt } from "./savePolicy";
import { openPetStore, type PetStore } from "./store";
import { errorText } from "./report";
import { addTimeAway, wallNow, type RunningPet } from "./runningPet";
import { pauseSaving, resumeSaving, writeSave } from "./saving";

/** While saving is paused (the save could not be read), the restore is tried again this often (uptime ms). */
export const RESTORE_RETRY_MS = 60000;

/**
 * True for the slot log's statuses that mean no save of ours was ever committed in the region:
 * erased ("empty"), foreign data with no slot-log header anywhere ("no-log"), or log sectors with
 * not one commit mark set ("no-committed-save": the first save was cut before its mark; a sector
 * holding a committed save is never erased, so one would have left a set mark). Only these get a
 * new pet written at boot; anything else may hold a save.
 */
function noSaveOfOurs(status: string): boolean {
  return status === "empty" || status === "no-log" || status === "no-committed-save";
}

/**
 * Reads the newest save and, when it loads, makes it the live world. Returns the boot line's words
 * ("restored ...") and the status: "ok", the slot log's status when there was no payload, or the
 * codec's rejection of the payload; `wall` is the wall clock it loaded with (0: unknown).
 */
function restoreNewest(s: RunningPet): { status: string; line: string; wall: number } {
  const wall = wallNow(s); // read once: the check, the load and the owed absence agree on it
  const found = (s.store as PetStore).restore(wall);
  if (found.payload === null) {
    const nothingOfOurs = noSaveOfOurs(found.status);
    return { status: found.status, line: (nothingOfOurs ? "no save found: " : "save unreadable: ") + found.reason, wall: wall };
  }
  // The store's check already loaded it at `wall`; decode here only if a storage layer skipped it.
  const loaded = found.loaded !== null ? found.loaded : loadWorld(found.payload, wall);
  if (loaded.status !== "ok" || loaded.world === null) return { status: loaded.status, line: "save rejected: " + loaded.status, wall: wall };
  s.world = loaded.world;
  s.savedAt = loaded.savedAt;
  s.lastRefusal = "";
  s.stampBase = !u64IsZero(s.savedAt) && u64IsSafe(s.savedAt) ? u64ToNumber(s.savedAt) : 0;
  if (wall === 0) s.owedAbsenceSince = s.stampBase;
  const away = loaded.absenceMs > 0 ? ", away " + Math.round(loaded.absenceMs / 1000) + " s" : "";
  const skipped = found.skipped > 0 ? " (passed over " + found.skipped + " newer unreadable save" + (found.skipped > 1 ? "s)" : ")") : "";
  const line = "restored " + nameForDisplay(s.world.name) + ", updates " + u64ToDecimal(s.world.updateCount) + away + skipped;
  return { status: "ok", line: line, wall: wall };
}

/** Writes the newly hatched pet so that the next boot restores it; a failure joins the boot line. */
function firstSave(s: RunningPet, line: string): string {
  s.saves.dirty = true;
  const status = writeSave(s);
  return status === "ok" ? line : line + "; first save failed: " + status;
}

/** Opens the region and restores the newest save or hatches; returns the boot line. */
export function restoreOrHatch(s: RunningPet, board: PetBoard): string {
  const petName = nameForDisplay(s.defaultName);
  const notSaved = ", hatched " + petName + " (not saved)";
  try {
    const opened = openPetStore(s.env.flash, board.petRegion);
    s.store = opened.store;
    if (s.store === null) return "storage unavailable: " + opened.status + notSaved;
    const r = restoreNewest(s);
    if (r.status === "ok") return r.line;
    // Only a region with no save of ours in it gets the new pet written at once (noSaveOfOurs).
    if (noSaveOfOurs(r.status)) return firstSave(s, r.line + ", hatched " + petName);
    return pauseSaving(s, r.line);
  } catch (e) {
    s.store = null;
    return "storage unavailable: " + errorText(e) + notSaved;
  }
}

/**
 * While paused, tries the restore again every RESTORE_RETRY_MS. A save that reads now replaces the
 * stand-in pet and saving resumes. With no wall clock, the time the stand-in ran is added to the
 * restored pet's clock as time away (clamped like an absence), since the restored pet was not
 * running meanwhile; with a wall clock the restore's own absence rule already covers it.
 */
export function retryRestore(s: RunningPet): void {
  if (s.pausedReason === "" || s.store === null || s.uptime - s.lastRestoreTry < RESTORE_RETRY_MS) return;
  s.lastRestoreTry = s.uptime;
  const ranFor = s.uptime;
  const r = restoreNewest(s);
  if (r.status !== "ok") return; // still unreadable: the boot line said so, stay quiet
  if (r.wall === 0) addTimeAway(s, ranFor > ABSENCE_CLAMP_MS ? ABSENCE_CLAMP_MS : ranFor);
  resumeSaving(s);
  noteSaveAttempt(s.saves, s.uptime, true); // the restored save is the last save: nothing is due
  s.print("save readable again: " + r.line + "; saving resumed");
}
