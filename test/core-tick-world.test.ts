/**
 * tickWorld is the loop's fast step: for every world and delta it must leave the same world and
 * answer the same status as updateWorld(world, delta) with no event, including worlds next to a
 * dwell's end, next to a carry in either u64 half, and worlds updateWorld refuses. The random and
 * the day-long runs count how often tickWorld took its own step and how often it handed over to
 * updateWorld, so that they cannot pass with one of the two never run.
 */
import { beforeEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { quietUntil, tickWorld, updateWorld } from "../src/core/rules";
import { createWorld } from "../src/core/world";
import { PET_EVENTS, type UpdateStatus, type World } from "../src/core/types";
import { validWorld, cloneWorld } from "./core-arbitraries";

/**
 * tickWorld(world, delta), and whether it answered by its own fast step. Told from outside: the
 * fast step reads no name, and updateWorld, when it answers "ok", has validated the world, name
 * included. So a tick that answered "ok" without reading the name took the fast step.
 */
function tickSeen(world: World, delta: number): { status: UpdateStatus; fast: boolean } {
  let nameRead = false;
  const watched = new Proxy(world, {
    get(target, key, receiver) {
      if (key === "name") nameRead = true;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const status = tickWorld(watched, delta);
  return { status, fast: status === "ok" && !nameRead };
}

/** Ticks of each kind over a test: both must have run for the agreement to mean anything. */
const paths = { fast: 0, full: 0 };
beforeEach(() => {
  paths.fast = 0;
  paths.full = 0;
});

function same(world: World, delta: number): void {
  const a = cloneWorld(world);
  const b = cloneWorld(world);
  const sa = updateWorld(a, delta);
  const sb = tickSeen(b, delta);
  expect(sb.status).toBe(sa);
  expect(b).toEqual(a);
  if (sb.fast) paths.fast++;
  else paths.full++;
}

describe("tickWorld answers exactly as updateWorld without an event", () => {
  it("over random valid worlds and deltas (small, near a dwell, near 2^32, any)", () => {
    const delta = fc.oneof(
      fc.integer({ min: 0, max: 2000 }),
      fc.integer({ min: 0, max: 200000 }),
      fc.integer({ min: 0x7fffffff, max: 0x1ffffffff }),
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    );
    // Worlds as the loop holds them most of the time (stamps a little behind the clock, in its high
    // half), where tickWorld takes its own step, beside any valid world.
    const running = fc
      .record({ w: validWorld, clock: fc.integer({ min: 0, max: 0xfff00000 }), activityAge: fc.integer({ min: 0, max: 16000 }), expressionAge: fc.integer({ min: 0, max: 3500 }) })
      .map(({ w, clock, activityAge, expressionAge }): World => ({
        ...w,
        elapsed: { hi: w.elapsed.hi, lo: clock },
        activitySince: { hi: w.elapsed.hi, lo: Math.max(0, clock - activityAge) },
        expressionSince: { hi: w.elapsed.hi, lo: Math.max(0, clock - expressionAge) },
      }));
    const cases = fc.oneof(fc.tuple(validWorld, delta), fc.tuple(running, fc.integer({ min: 0, max: 2000 })));
    fc.assert(fc.property(cases, ([w, d]) => same(w, d)), { numRuns: 3000 });
    expect(paths.fast).toBeGreaterThan(300);
    expect(paths.full).toBeGreaterThan(300);
  });

  it("along a day of one-second ticks, step by step", () => {
    const a = createWorld(new Uint8Array([80, 105, 112])) as World;
    const b = cloneWorld(a);
    // Disagreements collected rather than one expect per step, which would cost more than the steps.
    const disagree: string[] = [];
    for (let i = 0; i < 86400; i++) {
      const d = 900 + (i % 7) * 50;
      const tick = tickSeen(b, d);
      const update = updateWorld(a, d);
      if (tick.status !== update) disagree.push("step " + i + ": tickWorld " + tick.status + ", updateWorld " + update);
      if (tick.fast) paths.fast++;
      else paths.full++;
    }
    expect(disagree).toEqual([]);
    expect(b).toEqual(a);
    // Nearly every second is the fast step; the changes of activity and face are updateWorld's.
    expect(paths.fast).toBeGreaterThan(80000);
    expect(paths.full).toBeGreaterThan(100);
  });

  it("at the carries and limits of the halves", () => {
    const base = createWorld(new Uint8Array([65])) as World;
    for (const lo of [0xfffffc17, 0xffffffff, 0xfffffffe]) {
      for (const countLo of [0xfffffffe, 0xffffffff]) {
        for (const hi of [0, 1, 0xffffffff]) {
          const w = cloneWorld(base);
          w.elapsed = { hi: hi, lo: lo };
          w.activitySince = { hi: hi, lo: lo - 5 };
          w.expressionSince = { hi: hi, lo: lo - 5 };
          w.updateCount = { hi: hi, lo: countLo };
          for (const d of [0, 1, 1000, 0x3e9]) same(w, d);
        }
      }
    }
  });

  it("refusals: bad deltas and invalid worlds get updateWorld's status and change nothing", () => {
    const w = createWorld(new Uint8Array([66])) as World;
    for (const d of [-1, 0.5, NaN, Infinity, 2 ** 53]) same(w, d);
    const bad = cloneWorld(w);
    bad.activity = 9;
    same(bad, 1000);
    const late = cloneWorld(w);
    late.activitySince = { hi: 0, lo: 10 };
    same(late, 1000);
  });
});

describe("tickWorld on worlds no owner should hold", () => {
  it("an unknown expression or activity is refused as updateWorld refuses it, without a throw", () => {
    const w = createWorld(new Uint8Array([67])) as World;
    const e = cloneWorld(w);
    e.expression = 17;
    same(e, 1000);
    const a = cloneWorld(w);
    a.activity = -1;
    same(a, 1000);
  });
});

describe("quietUntil: below it an update without an event only moves the clock and the count", () => {
  it("over random valid worlds and deltas that stay below it", () => {
    fc.assert(
      fc.property(validWorld, fc.integer({ min: 0, max: 400000 }), (w, d) => {
        const until = quietUntil(w);
        if (until < 0 || w.elapsed.lo + d >= until || w.updateCount.lo === 0xffffffff) return;
        const a = cloneWorld(w);
        expect(updateWorld(a, d)).toBe("ok");
        const expected = cloneWorld(w);
        expected.elapsed = { hi: w.elapsed.hi, lo: w.elapsed.lo + d };
        expected.updateCount = { hi: w.updateCount.hi, lo: w.updateCount.lo + 1 };
        expect(a).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it("is tight: the first clock value at or past it changes the activity or the expression", () => {
    let w = createWorld(new Uint8Array([80])) as World;
    let changes = 0;
    for (let i = 0; i < 2000; i++) {
      const until = quietUntil(w);
      expect(until).toBeGreaterThan(w.elapsed.lo);
      const probe = cloneWorld(w);
      expect(updateWorld(probe, until - w.elapsed.lo)).toBe("ok");
      if (probe.activity !== w.activity || probe.expression !== w.expression) changes++;
      w = probe;
      if (i % 3 === 0) updateWorld(w, 10, "interact");
    }
    expect(changes).toBe(2000);
  });
});


describe("an update leaves the clock and the count objects of the world's own", () => {
  // The firmware's idle step (firmware/runningPet.ts tick_) adds to elapsed.lo and updateCount.lo in
  // place after a full step: were the clock the object a since stamp holds, the stamp would move with
  // it and the pet would never leave its activity; were the count the one the world had before, a
  // copy taken of that world would change with it.
  it("over random valid worlds, deltas and events, through updateWorld and tickWorld", () => {
    let stamped = 0;
    fc.assert(
      fc.property(validWorld, fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom(undefined, ...PET_EVENTS), (w: World, delta, event) => {
        const before = { elapsed: w.elapsed, count: w.updateCount };
        const status = event === undefined ? tickWorld(w, delta) : updateWorld(w, delta, event);
        if (status !== "ok") return;
        if (w.activitySince.lo === w.elapsed.lo && w.activitySince.hi === w.elapsed.hi) stamped++;
        expect(w.elapsed).not.toBe(w.activitySince);
        expect(w.elapsed).not.toBe(w.expressionSince);
        expect(w.elapsed).not.toBe(before.elapsed);
        expect(w.updateCount).not.toBe(before.count);
      }),
      { numRuns: 2000, seed: 28 },
    );
    // The case that matters was reached: a stamp taken at the new clock.
    expect(stamped).toBeGreaterThan(20);
  });
});
