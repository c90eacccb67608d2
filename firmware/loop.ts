/**
 * The device loop: every TICK_MS the world advances by the measured time, a late wall clock pays the
 * absence it owes, a paused pet retries its restore, and a due save is written; then the outside is
 * brought up to date. Nothing in a tick may stop the next one.
 */
import { updateWorld } from "../src/core/rules";
import type { PetEvent } from "../src/core/types";
import { lateAbsenceMs, tickDeltaMs, wallClockMs } from "./clock";
import { errorText } from "./report";
import { addTimeAway, type RunningPet } from "./runningPet";
import { saveIfDue } from "./saving";
import { retryRestore } from "./restore";
import { refresh } from "./show";

/** The loop's period. Each tick adds the measured time, so a late tick loses nothing. */
export const TICK_MS = 1000;

/**
 * Advances the world by the time since the last call, then applies `event`. A change marks the world
 * for the periodic save; an activity change asks for a save of its own.
 */
export function advance(s: RunningPet, event?: PetEvent): string {
  const now = s.env.getTime();
  let delta = 0;
  if (typeof now === "number" && now === now) {
    delta = tickDeltaMs(now - s.lastTime);
    s.lastTime = now;
  }
  s.uptime += delta;
  const before = s.world.activity;
  const status = updateWorld(s.world, delta, event);
  if (status !== "ok") {
    if (status !== s.lastRefusal) s.print("update refused: " + status);
    s.lastRefusal = status;
    return status;
  }
  s.lastRefusal = "";
  s.saves.dirty = true;
  if (s.world.activity !== before) s.saves.requested = "activity";
  return status;
}

/** Adds the absence a boot without a wall clock could not, once the clock is known (see clock.ts). */
function payOwedAbsence(s: RunningPet): void {
  if (s.owedAbsenceSince === 0) return;
  const now = s.env.dateNow();
  if (wallClockMs(now) === 0) return; // still unknown: keep waiting
  const away = lateAbsenceMs(s.owedAbsenceSince, now, s.uptime);
  s.owedAbsenceSince = 0;
  if (away === 0) return;
  if (!addTimeAway(s, away)) return; // the world clock is at its end; a restore would have refused too
  s.saves.dirty = true;
  s.print("wall clock now known: added " + Math.round(away / 1000) + " s away");
}

/** One loop step (the interval calls this). */
export function tick(s: RunningPet): void {
  try {
    advance(s);
    payOwedAbsence(s);
    retryRestore(s);
    if (!saveIfDue(s)) refresh(s, "");
  } catch (e) {
    s.print("pet: tick failed: " + errorText(e));
  }
}
