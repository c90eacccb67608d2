/**
 * The loop adds the measured getTime() difference in whole ms (the two times rounded, then subtracted); a clock set backwards adds
 * nothing and a clock set forwards adds at most a minute. The wall clock counts only when plausible.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  isPlausibleWallClock,
  MAX_TICK_DELTA_MS,
  tickDeltaMs,
  wallClockMs,
  WALL_CLOCK_MAX_MS,
  WALL_CLOCK_MIN_MS,
} from "../firmware/clock";
import { bootPet } from "./firmware-fakes";

/** A loop step's delta as RunningPet.advance_ takes it: the two readings rounded, subtracted, clamped. */
function stepMs(now: number, last: number): number {
  return tickDeltaMs(Math.round(now * 1000) - Math.round(last * 1000));
}

describe("tickDeltaMs", () => {
  it("subtracts the two times, each rounded to whole milliseconds", () => {
    expect(stepMs(1, 0)).toBe(1000);
    expect(stepMs(0.9996, 0)).toBe(1000);
    expect(stepMs(1001.0004, 1000)).toBe(1000);
    expect(stepMs(0.0015, 0)).toBe(2);
    // Not the difference rounded: 1.0004 s after 0.0006 s is 1000 - 1 ms, where round(999.8) is 1000.
    expect(stepMs(1.0004, 0.0006)).toBe(999);
    expect(stepMs(1.0014, 0.0006)).toBe(1000);
    expect(stepMs(1.0016, 0.0004)).toBe(1002);
  });
  it("adds up over a run to the rounded time between its ends (what lets idle ticks be summed at once)", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e7, noNaN: true }), fc.array(fc.double({ min: 0, max: 59.9, noNaN: true }), { maxLength: 50 }), (start, steps) => {
        let t = start;
        let sum = 0;
        for (const s of steps) {
          sum += stepMs(t + s, t);
          t += s;
        }
        expect(sum).toBe(Math.round(t * 1000) - Math.round(start * 1000));
      }),
    );
  });
  it("clamps negative, zero, NaN and infinite differences to 0", () => {
    expect(stepMs(9, 10)).toBe(0);
    expect(stepMs(0, 1e9)).toBe(0);
    expect(stepMs(5, 5)).toBe(0);
    expect(stepMs(5.0001, 5)).toBe(0);
    expect(stepMs(NaN, 5)).toBe(0);
    expect(stepMs(5, NaN)).toBe(0);
    expect(stepMs(-Infinity, 5)).toBe(0);
    expect(stepMs(Infinity, Infinity)).toBe(0);
  });
  it("clamps differences above a minute to a minute", () => {
    expect(stepMs(60, 0)).toBe(60000);
    expect(stepMs(70.0004, 10)).toBe(MAX_TICK_DELTA_MS);
    expect(stepMs(56 * 365 * 86400, 0)).toBe(MAX_TICK_DELTA_MS);
    expect(stepMs(Infinity, 5)).toBe(MAX_TICK_DELTA_MS);
  });
});

describe("wall clock plausibility", () => {
  it("accepts 2024-01-01 up to (not including) 2100-01-01", () => {
    expect(WALL_CLOCK_MIN_MS).toBe(Date.UTC(2024, 0, 1));
    expect(WALL_CLOCK_MAX_MS).toBe(Date.UTC(2100, 0, 1));
    expect(isPlausibleWallClock(Date.UTC(2024, 0, 1))).toBe(true);
    expect(isPlausibleWallClock(Date.UTC(2024, 0, 1) - 1)).toBe(false);
    expect(isPlausibleWallClock(Date.UTC(2100, 0, 1) - 1)).toBe(true);
    expect(isPlausibleWallClock(Date.UTC(2100, 0, 1))).toBe(false);
    expect(isPlausibleWallClock(0)).toBe(false);
    expect(isPlausibleWallClock(NaN)).toBe(false);
  });
  it("gives whole milliseconds or 0", () => {
    expect(wallClockMs(Date.UTC(2026, 0, 1) + 0.999)).toBe(Date.UTC(2026, 0, 1));
    expect(wallClockMs(12345.5)).toBe(0);
    expect(wallClockMs(-5)).toBe(0);
  });
});

describe("the loop", () => {
  function started() {
    const { env, app } = bootPet();
    return { env, app, elapsed: () => Number(app.pet.status()!.elapsedMs) };
  }

  it("keeps the world clock to getTime(): steps of 1000.4 ms add up to the time, not 1000 each", () => {
    const { env, app } = bootPet({ stopped: true });
    for (let i = 0; i < 10; i++) {
      env.advance(1000.4);
      app.tick();
    }
    expect(app.pet.status()!.elapsedMs).toBe("10004");
    expect(app.pet.status()!.updateCount).toBe("10");
  });

  it("advances the world by the measured time", () => {
    const { env, elapsed } = started();
    env.advance(1000);
    expect(elapsed()).toBe(1000);
    env.advance(10000);
    expect(elapsed()).toBe(11000);
  });

  it("adds nothing for a clock set backwards, then carries on from the new reading", () => {
    const { env, app, elapsed } = started();
    env.advance(3000);
    const updates = Number(app.pet.status()!.updateCount);
    env.setClockBy(-3600);
    env.advance(1000);
    expect(elapsed()).toBe(3000);
    expect(Number(app.pet.status()!.updateCount)).toBe(updates + 1); // the tick ran, with delta 0
    env.advance(1000);
    expect(elapsed()).toBe(4000);
  });

  it("adds at most a minute for a clock set forwards by years", () => {
    const { env, elapsed } = started();
    env.advance(1000);
    env.setClockBy(56 * 365 * 86400);
    env.advance(1000);
    expect(elapsed()).toBe(1000 + 60000);
    env.advance(1000);
    expect(elapsed()).toBe(62000);
  });
});

describe("wallClockMs, with isPlausibleWallClock written out", () => {
  it("is the floored clock exactly when isPlausibleWallClock says so, 0 otherwise", () => {
    const around = (v: number): fc.Arbitrary<number> => fc.double({ min: v - 2, max: v + 2, noNaN: true });
    let plausible = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.oneof(around(WALL_CLOCK_MIN_MS), around(WALL_CLOCK_MAX_MS), fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, 0)), (ms) => {
        const got = wallClockMs(ms);
        expect(got).toBe(isPlausibleWallClock(ms) ? Math.floor(ms) : 0);
        if (got > 0) plausible++;
        else refused++;
      }),
      { numRuns: 2000 },
    );
    // Both sides of the written-out check were taken, many times.
    expect(plausible).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });
});
