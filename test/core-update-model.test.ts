/**
 * updateWorld against a reference model written independently in this file: BigInt clocks and the
 * hand-written tables of test/core-expected-rules.ts. Random valid worlds (clocks anywhere in the
 * u64 range) and random runs of deltas and events must give the same world as the model. Also:
 * +1 update count per accepted update, determinism, and the since-stamp rules.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { updateWorld } from "../src/core/rules";
import type { PetEvent, World } from "../src/core/types";
import { validateWorld } from "../src/core/world";
import { U64_MAX_BIG, fromBig, goodDelta, maybeEvent, toBig, validWorld, cloneWorld } from "./core-arbitraries";
import { EXPECTED_ACTIVITY_ROWS, EXPECTED_EVENT_ROWS, EXPECTED_EXPRESSION_ROWS, expectedIndex } from "./core-expected-rules";

interface Model {
  activity: number;
  expression: number;
  activitySince: bigint;
  expressionSince: bigint;
  elapsed: bigint;
  count: bigint;
}

const toModel = (w: World): Model => ({
  activity: w.activity,
  expression: w.expression,
  activitySince: toBig(w.activitySince),
  expressionSince: toBig(w.expressionSince),
  elapsed: toBig(w.elapsed),
  count: toBig(w.updateCount),
});

const resting = (a: number) => (EXPECTED_ACTIVITY_ROWS[a] as [number, number, number, number[]])[2];

/** The documented rules, step by step, as the model understands them. Returns null when refused. */
function modelStep(m: Model, delta: number, event: PetEvent | undefined): Model | null {
  const now = m.elapsed + BigInt(delta);
  if (now > U64_MAX_BIG) return null;
  if (m.count === U64_MAX_BIG) return null;
  const count = m.count + 1n;
  const r = { ...m, elapsed: now, count };
  const [, dwell, , next] = EXPECTED_ACTIVITY_ROWS[m.activity] as [number, number, number, number[]];
  if (now - m.activitySince >= BigInt(dwell)) {
    r.activity = next[expectedIndex(fromBig(now), fromBig(count))] as number;
    r.activitySince = now;
    if (r.expression !== resting(r.activity)) {
      r.expression = resting(r.activity);
      r.expressionSince = now;
    }
  } else if (m.expression !== resting(m.activity)) {
    const fade = (EXPECTED_EXPRESSION_ROWS[m.expression] as [number, number])[1];
    if (now - m.expressionSince >= BigInt(fade)) {
      r.expression = resting(m.activity);
      r.expressionSince = now;
    }
  }
  if (event !== undefined) {
    const row = EXPECTED_EVENT_ROWS.find((e) => e[0] === event && e[1] === r.activity);
    if (!row) throw new Error("model: no event row");
    if (row[2] !== r.activity) {
      r.activity = row[2];
      r.activitySince = now;
    }
    if (row[3] !== r.expression) {
      r.expression = row[3];
      r.expressionSince = now;
    }
  }
  return r;
}

const steps = fc.array(fc.tuple(goodDelta, maybeEvent), { minLength: 1, maxLength: 30 });

describe("updateWorld follows the reference model", () => {
  it("on random worlds and random runs of deltas and events", () => {
    fc.assert(
      fc.property(validWorld, steps, (world, run) => {
        let m: Model = toModel(world);
        const name = new Uint8Array(world.name);
        for (const [delta, event] of run) {
          const want = modelStep(m, delta, event);
          const status = updateWorld(world, delta, event);
          if (want === null) {
            expect(["clock-overflow", "count-overflow"]).toContain(status);
            expect(toModel(world)).toEqual(m);
          } else {
            expect(status).toBe("ok");
            expect(toModel(world)).toEqual(want);
            m = want;
          }
          expect(validateWorld(world)).toBe("ok");
          expect(world.name).toEqual(name);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("over a simulated day of one-second ticks with a poke every few minutes", () => {
    const world = { name: new Uint8Array([0x42]), activity: 0, expression: 0, activitySince: fromBig(0n), expressionSince: fromBig(0n), elapsed: fromBig(0n), updateCount: fromBig(0n) };
    let m = toModel(world);
    const seen = new Set<number>();
    // One expect per step would cost more than the steps themselves (86 400 of them): refusals are collected instead.
    const refused: string[] = [];
    for (let t = 1; t <= 86400; t++) {
      const event: PetEvent | undefined = t % 437 === 0 ? "interact" : t % 1999 === 0 ? "wake" : undefined;
      m = modelStep(m, 1000, event) as Model;
      const status = updateWorld(world, 1000, event);
      if (status !== "ok") refused.push("t=" + t + ": " + status);
      seen.add(world.activity);
    }
    expect(refused).toEqual([]);
    expect(toModel(world)).toEqual(m);
    expect(seen.size).toBe(5); // the pet gets round to everything it can do
  });
});

describe("update count, stamps and determinism", () => {
  it("each accepted update adds exactly one to the count and the delta to the clock", () => {
    fc.assert(
      fc.property(validWorld, goodDelta, maybeEvent, (w, d, e) => {
        const before = cloneWorld(w);
        if (updateWorld(w, d, e) !== "ok") return;
        expect(toBig(w.updateCount)).toBe(toBig(before.updateCount) + 1n);
        expect(toBig(w.elapsed)).toBe(toBig(before.elapsed) + BigInt(d));
      }),
      { numRuns: 1000 },
    );
  });

  it("a changed field's stamp is the new clock; an unchanged field's stamp stays or is the new clock", () => {
    fc.assert(
      fc.property(validWorld, goodDelta, maybeEvent, (w, d, e) => {
        const before = cloneWorld(w);
        if (updateWorld(w, d, e) !== "ok") return;
        if (w.activity !== before.activity) expect(w.activitySince).toEqual(w.elapsed);
        else expect([before.activitySince, w.elapsed]).toContainEqual(w.activitySince);
        if (w.expression !== before.expression) expect(w.expressionSince).toEqual(w.elapsed);
        else expect([before.expressionSince, w.elapsed]).toContainEqual(w.expressionSince);
        // Without an event nothing is set back to what it was, so an unchanged field keeps its stamp.
        if (e === undefined && w.activity === before.activity) expect(w.activitySince).toEqual(before.activitySince);
        if (e === undefined && w.expression === before.expression) {
          expect(w.expressionSince).toEqual(before.expressionSince);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("a poke that renews a reaction the timer just ended restarts its stamp", () => {
    // Eating and grumpy for 6 s (grumpy fades after 5 s), poked again: grumpy anew, for 5 more seconds.
    const w = { name: new Uint8Array([0x42]), activity: 2, expression: 4, activitySince: fromBig(0n), expressionSince: fromBig(0n), elapsed: fromBig(0n), updateCount: fromBig(0n) };
    expect(updateWorld(w, 6000, "interact")).toBe("ok");
    expect([w.activity, w.expression, toBig(w.expressionSince)]).toEqual([2, 4, 6000n]);
    expect(updateWorld(w, 4999)).toBe("ok");
    expect(w.expression).toBe(4);
    // Playing for its whole 12 s, poked again: plays on, and the 12 s start over.
    const p = { ...w, activity: 3, expression: 1, activitySince: fromBig(0n), expressionSince: fromBig(0n), elapsed: fromBig(0n) };
    expect(updateWorld(p, 12000, "interact")).toBe("ok");
    expect([p.activity, toBig(p.activitySince)]).toEqual([3, 12000n]);
  });

  it("without an event, one update changes the activity at most once, however long the delta", () => {
    fc.assert(
      fc.property(validWorld, fc.maxSafeNat(), (w, d) => {
        const before = cloneWorld(w);
        if (updateWorld(w, d) !== "ok") return;
        if (w.activity !== before.activity) {
          const row = EXPECTED_ACTIVITY_ROWS[before.activity] as [number, number, number, number[]];
          expect(row[3]).toContain(w.activity); // a direct successor, not a chain
        }
      }),
      { numRuns: 500 },
    );
  });

  it("same world and same inputs give the same world", () => {
    fc.assert(
      fc.property(validWorld, steps, (w, run) => {
        const a = cloneWorld(w);
        const b = cloneWorld(w);
        for (const [d, e] of run) expect(updateWorld(a, d, e)).toBe(updateWorld(b, d, e));
        expect(a).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });
});
