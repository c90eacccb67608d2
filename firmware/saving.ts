/**
 * Writing the pet: the stamp a save carries, the write itself, the line it prints, and the pause that
 * keeps a stand-in pet from overwriting a save the boot could not read (RunningPet.pausedReason).
 * When a save is due is savePolicy.ts; this file only carries it out.
 */
import { u64FromNumber, U64_ZERO, MAX_SAFE } from "../src/core/u64";
import { nameForDisplay } from "../src/core/name";
import { saveWorld } from "../src/save/codec";
import { noteSaveAttempt, saveDue } from "./savePolicy";
import { errorText } from "./report";
import { wallNow, type RunningPet } from "./runningPet";
import { refresh } from "./show";

/** What pet.save() and pet.rename() answer while saving is paused; nothing is written. */
export const SAVING_PAUSED = "paused";

/** The storage's status for a save whose commit mark was written but not confirmed (slotWrite.ts). */
const COMMIT_UNKNOWN = "commit-unknown";

/** How the owner ends a pause, for the lines that mention it. */
const START_OVER = "pet.hatch() or pet.importHex() to start over";

/** The stamp for a save written now: the wall clock, else the estimate from stampBase, else 0. */
export function saveStamp(s: RunningPet): number {
  const wall = wallNow(s);
  if (wall !== 0 || s.stampBase === 0) return wall;
  const estimate = s.stampBase + s.uptime;
  return estimate <= MAX_SAFE ? estimate : s.stampBase; // saveWorld takes numbers up to 2^53 - 1
}

/** Encodes and writes the world now. Returns "ok" or why not; never prints. */
export function writeSave(s: RunningPet): string {
  if (s.pausedReason !== "") return SAVING_PAUSED;
  const stamp = saveStamp(s);
  const encoded = saveWorld(s.world, stamp);
  let status: string = encoded.status;
  if (encoded.status === "ok" && encoded.bytes !== null) {
    if (s.store === null) status = "no-storage";
    else {
      try {
        status = s.store.save(encoded.bytes);
      } catch (e) {
        status = "storage-error " + errorText(e);
      }
    }
  }
  noteSaveAttempt(s.saves, s.uptime, status === "ok");
  if (status === "ok") s.savedAt = u64FromNumber(stamp) || U64_ZERO;
  else if (status.indexOf(COMMIT_UNKNOWN) === 0) {
    // The next boot may return this save or the one before: ask for another, so the loop writes it
    // once the retry gap has passed even if nothing else would (pet.save() asks for no save of its
    // own, and a pet that changes nothing is never periodically saved). Its success is the newest.
    s.saves.requested = COMMIT_UNKNOWN;
    s.saves.dirty = true;
  }
  return status;
}

/** Writes the world now and says how it went (the status line, or the panel plus failures). */
export function saveAndReport(s: RunningPet): string {
  const status = writeSave(s);
  if (status === SAVING_PAUSED) refresh(s, "not saved: saving paused (" + START_OVER + ")");
  else refresh(s, status === "ok" ? "saved" : "save failed: " + status);
  return status;
}

/** Writes the world if the save policy says so; true when it did (and so already refreshed). */
export function saveIfDue(s: RunningPet): boolean {
  if (s.pausedReason !== "") return false; // nothing is written while paused, not even retries
  if (saveDue(s.saves, s.uptime) === null) return false;
  saveAndReport(s);
  return true;
}

/** Stops saving (see RunningPet.pausedReason) and returns the boot line that says so. */
export function pauseSaving(s: RunningPet, why: string): string {
  s.pausedReason = why;
  s.lastRestoreTry = s.uptime;
  return why + "; running " + nameForDisplay(s.world.name) + " without saving; " + START_OVER;
}

/** Saving is allowed again: the next due save writes. */
export function resumeSaving(s: RunningPet): void {
  s.pausedReason = "";
}
