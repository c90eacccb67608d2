/**
 * A board restored without a wall clock (an ESP32 after a power cut) owes the pet its time away
 * until SNTP or setTime makes the clock plausible; then the absence is added once, as a restore would.
 */
import { describe, expect, it } from "vitest";
import { lateAbsenceMs, MAX_TICK_DELTA_MS } from "../firmware/clock";
import { bootPet, newFlash } from "./firmware-fakes";
import type { NorFlashSim } from "../src/storage/norFlashSim";
import { loadWorld } from "../src/save/codec";

const SAVED_AT = Date.UTC(2026, 8, 1, 12, 0, 0);
const HOUR = 3600000;
const WEEK = 7 * 24 * HOUR;

describe("lateAbsenceMs", () => {
  it("is the time from the save to the boot, clamped to seven days", () => {
    expect(lateAbsenceMs(SAVED_AT, SAVED_AT + HOUR + 5000, 5000)).toBe(HOUR);
    expect(lateAbsenceMs(SAVED_AT, SAVED_AT + 30 * 24 * HOUR, 0)).toBe(WEEK);
  });
  it("is 0 for a clock behind the save, an implausible clock or an unknown stamp", () => {
    expect(lateAbsenceMs(SAVED_AT, SAVED_AT - HOUR, 0)).toBe(0);
    expect(lateAbsenceMs(SAVED_AT, SAVED_AT + 1000, 5000)).toBe(0);
    expect(lateAbsenceMs(SAVED_AT, 12345, 0)).toBe(0);
    expect(lateAbsenceMs(0, SAVED_AT, 0)).toBe(0);
  });
});

/** A region holding a pet saved at SAVED_AT (wall clock known), after `ms` of life. */
function savedWithClock(ms: number): { sim: NorFlashSim; elapsed: number } {
  const sim = newFlash();
  const { env, app } = bootPet({ sim, wallClockMs: SAVED_AT - ms });
  env.advance(ms);
  expect(app.pet.save()).toBe("ok");
  expect(app.pet.status()!.savedAtMs).toBe(String(SAVED_AT));
  app.stop();
  return { sim, elapsed: Number(app.pet.status()!.elapsedMs) };
}

describe("the running pet", () => {
  it("adds the absence once, when the clock becomes plausible after boot", () => {
    const { sim, elapsed } = savedWithClock(2000);
    const { env, app } = bootPet({ sim, wallClockMs: 0 });
    expect(env.lines).toEqual(["restored Pip, updates 2"]); // nothing added yet: the clock is unknown
    env.advance(10000);
    expect(Number(app.pet.status()!.elapsedMs)).toBe(elapsed + 10000);
    // SNTP: it is now two hours after the save, and the board booted ten seconds ago.
    env.setWallClock(SAVED_AT + 2 * HOUR);
    env.advance(1000);
    const away = 2 * HOUR - 10000;
    expect(Number(app.pet.status()!.elapsedMs)).toBe(elapsed + 11000 + away);
    expect(env.lines).toContain("wall clock now known: added " + Math.round(away / 1000) + " s away");
    // Only once.
    env.advance(5000);
    expect(Number(app.pet.status()!.elapsedMs)).toBe(elapsed + 16000 + away);
  });

  it("is off by at most a minute when setting the clock also made getTime jump", () => {
    const { sim, elapsed } = savedWithClock(2000);
    const { env, app } = bootPet({ sim, wallClockMs: 0 });
    env.advance(4000);
    env.setWallClock(SAVED_AT + 5 * HOUR);
    env.setClockBy(56 * 365 * 86400); // what setTime does to getTime() on Espruino
    env.advance(1000);
    const added = Number(app.pet.status()!.elapsedMs) - elapsed;
    expect(added).toBeGreaterThanOrEqual(5 * HOUR - MAX_TICK_DELTA_MS);
    expect(added).toBeLessThanOrEqual(5 * HOUR + MAX_TICK_DELTA_MS);
  });

  it("owes nothing when the save had no wall clock, or the boot had one", () => {
    const sim = newFlash();
    bootPet({ sim, wallClockMs: 0, stopped: true });
    const { env, app } = bootPet({ sim, wallClockMs: 0 });
    env.advance(3000);
    env.setWallClock(SAVED_AT);
    env.advance(3000);
    expect(app.pet.status()!.elapsedMs).toBe("6000");

    const saved = savedWithClock(1000);
    const { env: env2, app: app2 } = bootPet({ sim: saved.sim, wallClockMs: SAVED_AT + HOUR });
    expect(env2.lines).toEqual(["restored Pip, updates 1, away 3600 s"]);
    env2.advance(1000);
    expect(Number(app2.pet.status()!.elapsedMs)).toBe(saved.elapsed + HOUR + 1000); // not twice
  });

  it("forgets the debt when the pet is replaced", () => {
    const { sim } = savedWithClock(2000);
    const { env, app } = bootPet({ sim, wallClockMs: 0 });
    expect(app.pet.hatch("Fresh")).toBe("ok");
    env.setWallClock(SAVED_AT + HOUR);
    env.advance(1000);
    expect(app.pet.status()!.elapsedMs).toBe("1000");
  });

  it("saves written before the clock is known carry the restored stamp plus the uptime", () => {
    const { sim } = savedWithClock(2000);
    const { env, app } = bootPet({ sim, wallClockMs: 0 });
    env.advance(10000);
    expect(app.pet.save()).toBe("ok");
    expect(app.pet.status()!.savedAtMs).toBe(String(SAVED_AT + 10000));
    // The export carries the same estimate, so a pet moved before the clock is known keeps its absence.
    const exported = loadWorld(new Uint8Array(Buffer.from(app.pet.exportHex(), "hex")), 0);
    expect(exported.savedAt).toEqual({ hi: Math.floor((SAVED_AT + 10000) / 2 ** 32), lo: (SAVED_AT + 10000) % 2 ** 32 });
  });

  it("the time away survives power cuts before the clock is known", () => {
    const { sim, elapsed } = savedWithClock(2000);
    // Off for an hour; two short clockless boots, each cut before SNTP answered.
    const { env: env1, app: app1 } = bootPet({ sim, wallClockMs: 0 });
    env1.advance(10000);
    expect(app1.pet.save()).toBe("ok");
    app1.stop();
    const { env: env2, app: app2 } = bootPet({ sim, wallClockMs: 0 });
    env2.advance(20000);
    expect(app2.pet.save()).toBe("ok");
    app2.stop();
    // The third boot knows the time: one hour after the first save, plus the 30 s of clockless uptime.
    const { env: env3, app: app3 } = bootPet({ sim, wallClockMs: SAVED_AT + HOUR + 30000 });
    expect(env3.lines[0]).toMatch(/, away 3600 s$/);
    expect(Number(app3.pet.status()!.elapsedMs)).toBe(elapsed + 30000 + HOUR);
  });
});
