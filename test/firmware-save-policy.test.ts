/**
 * When the firmware writes: after every interaction, on every activity change, every five minutes
 * while the world changes, at most about once a second, and a failing flash is retried every 30 s.
 */
import { describe, expect, it } from "vitest";
import {
  createSaveState,
  MIN_SAVE_GAP_MS,
  noteSaveAttempt,
  PERIODIC_SAVE_MS,
  RETRY_AFTER_FAILURE_MS,
  saveDue,
} from "../firmware/savePolicy";
import { bootPet } from "./firmware-fakes";

function started() {
  const booted = bootPet();
  expect(booted.counters.payloadWrites).toBe(1); // the hatched pet
  return booted;
}

describe("saveDue", () => {
  it("saves a request once the minimum gap has passed", () => {
    const s = createSaveState();
    noteSaveAttempt(s, 0, true);
    s.requested = "interact";
    expect(saveDue(s, MIN_SAVE_GAP_MS - 1)).toBeNull();
    expect(saveDue(s, MIN_SAVE_GAP_MS)).toBe("interact");
    noteSaveAttempt(s, MIN_SAVE_GAP_MS, true);
    expect(s.requested).toBeNull();
    expect(saveDue(s, MIN_SAVE_GAP_MS * 10)).toBeNull();
  });
  it("saves a changed world periodically, an unchanged one never", () => {
    const s = createSaveState();
    noteSaveAttempt(s, 0, true);
    expect(saveDue(s, PERIODIC_SAVE_MS * 3)).toBeNull();
    s.dirty = true;
    expect(saveDue(s, PERIODIC_SAVE_MS - 1)).toBeNull();
    expect(saveDue(s, PERIODIC_SAVE_MS)).toBe("periodic");
  });
  it("waits after a failure before trying again", () => {
    const s = createSaveState();
    s.requested = "activity";
    noteSaveAttempt(s, 5000, false);
    expect(s.requested).toBe("activity");
    expect(saveDue(s, 5000 + RETRY_AFTER_FAILURE_MS - 1)).toBeNull();
    expect(saveDue(s, 5000 + RETRY_AFTER_FAILURE_MS)).toBe("activity");
  });
});

describe("the running pet", () => {
  it("saves right after an interaction", () => {
    const { env, app, counters } = started();
    env.advance(5000);
    const before = counters.payloadWrites;
    expect(app.pet.interact()).toBe("ok");
    expect(counters.payloadWrites).toBe(before + 1);
    expect(env.lines[env.lines.length - 1]).toMatch(/^Pip: playing, happy, updates \d+, saved$/);
  });

  it("merges interactions within a second into one save on the next tick", () => {
    const { env, app, counters } = started();
    env.advance(5000);
    const before = counters.payloadWrites;
    app.pet.interact();
    app.pet.interact();
    app.pet.interact();
    expect(counters.payloadWrites).toBe(before + 1);
    env.advance(1000);
    expect(counters.payloadWrites).toBe(before + 2);
    env.advance(1000);
    expect(counters.payloadWrites).toBe(before + 2);
  });

  it("saves on every activity change and at least every five minutes", () => {
    const { env, app, counters } = started();
    let activity = app.world().activity;
    let lastSaveMs = 0;
    let saves = counters.payloadWrites;
    let changes = 0;
    for (let s = 0; s < 3600; s++) {
      env.advance(1000);
      const w = app.world();
      const saved = counters.payloadWrites > saves;
      if (w.activity !== activity) {
        changes++;
        expect(saved).toBe(true); // in the very tick of the change
      }
      if (saved) {
        expect(counters.payloadWrites).toBe(saves + 1); // never two in one tick
        lastSaveMs = env.nowMs();
      }
      expect(env.nowMs() - lastSaveMs).toBeLessThanOrEqual(PERIODIC_SAVE_MS);
      activity = w.activity;
      saves = counters.payloadWrites;
    }
    expect(changes).toBeGreaterThan(10);
    // Saves are the activity changes plus a few periodic ones, not one per tick.
    expect(saves).toBeLessThan(changes + 3600 / 300 + 2);
  });

  it("writes nothing between activity changes while the pet sleeps", () => {
    const { env, app, counters } = started();
    // Run until the pet falls asleep (activity 4), then count.
    const status = app.pet.status()!;
    expect(status.activity).toBe(0);
    let sleepingAt = -1;
    for (let s = 0; s < 4000 && sleepingAt < 0; s++) {
      env.advance(1000);
      if (app.world().activity === 4) sleepingAt = env.nowMs();
    }
    expect(sleepingAt).toBeGreaterThan(0);
    const after = counters.payloadWrites;
    env.advance(170000); // sleeping lasts 180 s: no change, no five minutes since the last save
    expect(counters.payloadWrites).toBe(after);
  });

  it("retries a failing flash every 30 s instead of every tick, then recovers", () => {
    const { sim, env, app, counters } = started();
    sim.injectFailure({ op: "write", mode: "status" });
    env.advance(2000);
    app.pet.interact();
    const failedLines = () => env.lines.filter((l) => l.indexOf("save failed") >= 0).length;
    expect(failedLines()).toBe(1);
    env.advance(29000);
    expect(failedLines()).toBe(1);
    env.advance(1000);
    expect(failedLines()).toBe(2);
    sim.clearFailures();
    const before = counters.payloadWrites;
    env.advance(30000);
    expect(counters.payloadWrites).toBeGreaterThan(before);
    expect(env.lines[env.lines.length - 1]).toMatch(/, saved$/);
  });
});
