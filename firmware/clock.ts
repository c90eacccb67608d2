/**
 * The two clocks the firmware reads, and how little it trusts them.
 *
 * getTime() drives the world: each tick adds the measured difference (in whole ms, see tickDeltaMs). It is not monotonic on
 * Espruino: setTime (the uploader's -t), SNTP and E.setTimeZone-style corrections move it by years at
 * once, so a difference outside 0..MAX_TICK_DELTA_MS is the clock being set, never time the pet lived.
 *
 * Date.now() is only used as a wall clock (the save stamp and the absence rule) and only when it is
 * plausible: an ESP32 that nobody gave the time to counts from 1970, which must read as "unknown" (0).
 */

import { absenceMs } from "../src/save/codec";

/** The longest step one tick may add. A tick is due every second; a minute covers any stall. */
export const MAX_TICK_DELTA_MS = 60000;

/** 2024-01-01T00:00:00Z: any wall clock before this was never set (the project did not exist). */
export const WALL_CLOCK_MIN_MS = 1704067200000;
/** 2100-01-01T00:00:00Z: any wall clock at or after this is a garbage setting, not the date. */
export const WALL_CLOCK_MAX_MS = 4102444800000;

/**
 * Milliseconds to add to the world for a loop step, given `ms`, the step's two getTime() readings
 * each rounded to whole ms and then subtracted (RunningPet.advance_ does that): so the steps of a
 * run add up to the rounded time between its ends, which lets the loop's idle ticks be summed once,
 * lazily, instead of one by one (RunningPet.settle_), and keeps the world clock from drifting by a
 * rounding a tick. Clamped to 0..MAX_TICK_DELTA_MS: a clock set backwards adds nothing and one set
 * forwards adds at most a minute; NaN (a broken clock) adds nothing.
 */
export function tickDeltaMs(ms: number): number {
  // One expression (negative, zero and NaN fail `> 0`), so that the build writes it into its two
  // callers, RunningPet.advance_ and saveStamp_ (both marked /*@__INLINE__*/), without a call.
  return ms > 0 ? Math.min(ms, MAX_TICK_DELTA_MS) : 0;
}

/** True when `ms` looks like a real date: WALL_CLOCK_MIN_MS <= ms < WALL_CLOCK_MAX_MS. */
export function isPlausibleWallClock(ms: number): boolean {
  return typeof ms === "number" && ms >= WALL_CLOCK_MIN_MS && ms < WALL_CLOCK_MAX_MS;
}

/**
 * The wall clock in whole ms when plausible, else 0 ("no absolute time", as the save format says).
 * The firmware reads it at every save (RunningPet.wallNow_, its one caller in the bundle, which the
 * build writes it into), so isPlausibleWallClock is written out here rather than called;
 * test/firmware-clock-clamp.test.ts holds the two equal.
 */
export function wallClockMs(dateNowMs: number): number {
  return typeof dateNowMs === "number" && dateNowMs >= WALL_CLOCK_MIN_MS && dateNowMs < WALL_CLOCK_MAX_MS ? Math.floor(dateNowMs) : 0;
}

/**
 * The absence to add when the wall clock becomes known only after boot (SNTP connects a few seconds
 * after the pet was restored with an unknown clock). The device booted at `wallNowMs - uptimeMs`;
 * the time away is the format's (src/save/codec.ts absenceMs) from the restored save's stamp to
 * then, as a restore at that moment would have added it. `uptimeMs` is the sum of the clamped loop
 * steps, so it may include up to one MAX_TICK_DELTA_MS for the step in which the clock was set: the
 * estimate errs by at most a minute.
 */
export function lateAbsenceMs(savedAtMs: number, wallNowMs: number, uptimeMs: number): number {
  if (!isPlausibleWallClock(wallNowMs)) return 0;
  return absenceMs(savedAtMs, Math.floor(wallNowMs) - uptimeMs);
}
