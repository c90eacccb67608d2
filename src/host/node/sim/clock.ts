/**
 * The desktop's clocks.
 *
 * Date.now() is left alone: it is the host's real wall clock, so the absence rule sees the real time
 * the pet was away (clamped to seven days by the codec).
 *
 * getTime() is Espruino's seconds clock, and the firmware advances the world by its differences.
 * `--speed N` makes it run N times faster than real time, so the world clock (and with it every
 * activity and expression change) runs N times faster; timers and Date.now() are not scaled. (The
 * firmware clamps one tick's step to a minute, so above N = 60 the world runs at 60x.)
 * It starts at the wall clock in seconds, as on a board whose time was set by the uploader.
 *
 * buttonTime() is what setWatch reports as an edge's time. It shares getTime()'s origin but runs at
 * real speed, so a press lasts as long as the key was held whatever the speed (otherwise a short tap
 * at --speed 100 would measure as a long press and hatch a new pet).
 */

export interface SimClock {
  getTime(): number;
  buttonTime(): number;
  readonly speed: number;
}

export function createSimClock(speed: number, nowMs: () => number = Date.now, monotonicMs?: () => number): SimClock {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new Error("speed must be a positive number, got " + String(speed));
  const mono = monotonicMs !== undefined ? monotonicMs : () => performance.now();
  const originSec = nowMs() / 1000;
  const startMono = mono();
  return {
    speed: speed,
    getTime: () => originSec + ((mono() - startMono) / 1000) * speed,
    buttonTime: () => originSec + (mono() - startMono) / 1000,
  };
}
