/**
 * The desktop's clocks.
 *
 * Date.now() is left alone: it is the host's real wall clock, so the absence rule sees the real time
 * the pet was away (clamped to seven days by the codec).
 *
 * getTime() is Espruino's seconds clock, and the firmware advances the world by its differences.
 * `--speed N` makes it run N times faster than real time, so the world clock (and with it every
 * activity and expression change) runs N times faster; Date.now() and setTimeout are not scaled.
 * The firmware adds at most MAX_TICK_DELTA_MS (a minute) per tick, taking a longer step for the
 * clock being set, so a one-second tick at N = 600 would add only 60 s. So for a fast N the host also
 * runs the firmware's setInterval periods `intervalSpeedup(N)` times faster (real time), keeping each
 * tick's step within three quarters of the cap (room for a timer that fires late).
 * It starts at the wall clock in seconds, as on a board whose time was set by the uploader.
 *
 * buttonTime() is what setWatch reports as an edge's time. It shares getTime()'s origin but runs at
 * real speed, so a press lasts as long as the key was held whatever the speed (otherwise a short tap
 * at --speed 100 would measure as a long press and hatch a new pet).
 */

import { MAX_TICK_DELTA_MS } from "../../../firmware/clock";

/** The firmware's loop period (TICK_MS in firmware/runningPet.ts) in seconds. */
const TICK_SECONDS = 1;
/** World seconds one tick may add without coming near the firmware's cap. */
const TICK_BUDGET_SECONDS = (MAX_TICK_DELTA_MS / 1000) * 0.75;
/** The fastest --speed: an hour of world time per real second (the tick then runs every ~12 ms). */
export const MAX_SPEED = 3600;

/** How many times faster than real time setInterval must run at `speed` (1 up to 45x). */
export function intervalSpeedup(speed: number): number {
  const step = speed * TICK_SECONDS;
  return step <= TICK_BUDGET_SECONDS ? 1 : Math.ceil(step / TICK_BUDGET_SECONDS);
}

export interface SimClock {
  getTime(): number;
  buttonTime(): number;
  readonly speed: number;
}

export function createSimClock(speed: number, nowMs: () => number = Date.now, monotonicMs?: () => number): SimClock {
  if (!(speed > 0) || !(speed <= MAX_SPEED)) throw new Error("speed must be a number above 0 and at most " + MAX_SPEED + ", got " + String(speed));
  const mono = monotonicMs !== undefined ? monotonicMs : () => performance.now();
  const originSec = nowMs() / 1000;
  const startMono = mono();
  return {
    speed: speed,
    getTime: () => originSec + ((mono() - startMono) / 1000) * speed,
    buttonTime: () => originSec + (mono() - startMono) / 1000,
  };
}
