/**
 * When the firmware writes the pet to flash. Pure: it sees counters, never the flash or a clock.
 *
 * - Something the owner did (an interaction) and an activity change REQUEST a save; it is written at
 *   once unless the last save was under MIN_SAVE_GAP_MS ago, in which case the loop writes it as soon
 *   as the gap has passed. Requests in between are merged into that one save, so button mashing or a
 *   console loop cannot write more than about once a second.
 * - Otherwise the world is written every PERIODIC_SAVE_MS while it changes. The world clock and the
 *   update count ARE world state (dwell timers run on them); without a periodic save a pet that
 *   sleeps for an hour on a device without a wall clock would lose that hour at the next power cut.
 *   When nothing changed at all (every update was refused) nothing is written.
 * - A failed save is retried after RETRY_AFTER_FAILURE_MS, not on every tick, so a broken flash
 *   costs one console line every half minute rather than one a second.
 * - Hatching, renaming, importing and pet.save() write immediately (they bypass this policy): the
 *   owner replaced or named the pet and expects it to stick.
 *
 * All times are "uptime": the sum of the clamped tick deltas, so setting the clock cannot trigger or
 * suppress a save.
 */

export const MIN_SAVE_GAP_MS = 1000;
export const PERIODIC_SAVE_MS = 300000;
export const RETRY_AFTER_FAILURE_MS = 30000;

export interface SaveState {
  /** Why a save was asked for and not yet written ("interact", "activity"), or null. */
  requested: string | null;
  /** True when the world changed since the last successful save. */
  dirty: boolean;
  /** Uptime of the last successful save (boot counts as one when a save was restored or written). */
  lastSaveAt: number;
  /** True when the last attempt failed; lastAttemptAt says when it was. */
  lastAttemptFailed: boolean;
  lastAttemptAt: number;
}

export function createSaveState(): SaveState {
  return { requested: null, dirty: false, lastSaveAt: 0, lastAttemptFailed: false, lastAttemptAt: 0 };
}

/** Why to save at uptime `now`, or null for "not now". */
export function saveDue(s: SaveState, now: number): string | null {
  if (s.lastAttemptFailed && now - s.lastAttemptAt < RETRY_AFTER_FAILURE_MS) return null;
  if (s.requested !== null && now - s.lastSaveAt >= MIN_SAVE_GAP_MS) return s.requested;
  if (s.dirty && now - s.lastSaveAt >= PERIODIC_SAVE_MS) return "periodic";
  return null;
}

/** Records the outcome of a save attempt at uptime `now`. */
export function noteSaveAttempt(s: SaveState, now: number, ok: boolean): void {
  s.lastAttemptAt = now;
  s.lastAttemptFailed = !ok;
  if (ok) {
    s.lastSaveAt = now;
    s.requested = null;
    s.dirty = false;
  }
}
