/**
 * The behaviour tables, pinned row by row. Each expected row is written out by hand in
 * test/core-expected-rules.ts (it mirrors docs/behaviour.md), so changing a rule in src/core/rules.ts without meaning to fails this file.
 * Each row is also driven through updateWorld to show the engine really follows it.
 */
import { describe, expect, it } from "vitest";
import {
  ACTIVITY_COUNT,
  DWELL_MS,
  FADE_MS,
  NEXT_ACTIVITY,
  REACTION_ACTIVITY,
  REACTION_EXPRESSION,
  RESTING_EXPRESSION,
  nextActivityIndex,
  updateWorld,
} from "../src/core/rules";
import { ACTIVITY_NAMES, Activity as A, EXPRESSION_NAMES, Expression as E, PET_EVENTS, type PetEvent, type World } from "../src/core/types";
import type { U64 } from "../src/core/u64";
import { createWorld } from "../src/core/world";
import { fromBig, toBig, cloneWorld } from "./core-arbitraries";
import { EXPECTED_ACTIVITY_ROWS, EXPECTED_EVENT_ROWS, EXPECTED_EXPRESSION_ROWS, expectedIndex } from "./core-expected-rules";

const u64 = (hi: number, lo: number): U64 => ({ hi, lo });

/** A world doing `activity` with `expression` since `since`, clock at `elapsed`, count `count`. */
function worldAt(activity: number, expression: number, since: number, elapsed: number, count = 0): World {
  const w = createWorld(new Uint8Array([0x50, 0x69, 0x70])) as World;
  w.activity = activity;
  w.expression = expression;
  w.activitySince = fromBig(BigInt(since));
  w.expressionSince = fromBig(BigInt(since));
  w.elapsed = fromBig(BigInt(elapsed));
  w.updateCount = fromBig(BigInt(count));
  return w;
}

/** The rules' columns read back as rows, in the shape the expected rows are written in. */
const activityRows = (): [number, number | undefined, number | undefined, number[]][] =>
  ACTIVITY_NAMES.map((_, a) => [a, DWELL_MS[a], RESTING_EXPRESSION[a], [...NEXT_ACTIVITY.subarray(a * 4, a * 4 + 4)]]);
const expressionRows = (): [number, number | undefined][] => EXPRESSION_NAMES.map((_, x) => [x, FADE_MS[x]]);
const eventRows = (): [PetEvent, number, number | undefined, number | undefined][] =>
  PET_EVENTS.flatMap((event, e) =>
    ACTIVITY_NAMES.map((_, a): [PetEvent, number, number | undefined, number | undefined] => [event, a, REACTION_ACTIVITY[e * ACTIVITY_COUNT + a], REACTION_EXPRESSION[e * ACTIVITY_COUNT + a]]),
  );

describe("the columns", () => {
  it("have one row per activity, expression and (event, activity) pair, and nothing past it", () => {
    expect(ACTIVITY_COUNT).toBe(ACTIVITY_NAMES.length);
    expect(DWELL_MS.length).toBe(ACTIVITY_NAMES.length);
    expect(RESTING_EXPRESSION.length).toBe(ACTIVITY_NAMES.length);
    expect(NEXT_ACTIVITY.length).toBe(4 * ACTIVITY_NAMES.length);
    expect(FADE_MS.length).toBe(EXPRESSION_NAMES.length);
    expect(REACTION_ACTIVITY.length).toBe(PET_EVENTS.length * ACTIVITY_NAMES.length);
    expect(REACTION_EXPRESSION.length).toBe(PET_EVENTS.length * ACTIVITY_NAMES.length);
  });

  it("that are read before validation are plain arrays, so an index that is not a row reads undefined (a typed array throws on Espruino)", () => {
    for (const column of [DWELL_MS, RESTING_EXPRESSION, FADE_MS]) expect(Array.isArray(column)).toBe(true);
  });
});

describe("activity table", () => {
  it("has exactly the documented rows, in activity-value order", () => {
    expect(activityRows()).toEqual(EXPECTED_ACTIVITY_ROWS);
  });

  it("never follows an activity with itself (so a finished dwell always shows a change)", () => {
    for (const [activity, , , next] of EXPECTED_ACTIVITY_ROWS) expect(next).not.toContain(activity);
  });

  for (const [activity, dwell, resting, next] of EXPECTED_ACTIVITY_ROWS) {
    it(`activity ${activity}: holds for ${dwell - 1} ms, moves on at ${dwell} ms`, () => {
      const start = 1000;
      const w = worldAt(activity, resting, start, start);
      expect(updateWorld(w, dwell - 1)).toBe("ok");
      expect(w.activity).toBe(activity);
      expect(w.activitySince).toEqual(fromBig(BigInt(start)));

      const w2 = worldAt(activity, resting, start, start, 41);
      expect(updateWorld(w2, dwell)).toBe("ok");
      const now = fromBig(BigInt(start + dwell));
      const want = next[expectedIndex(now, u64(0, 42))] as number;
      expect(w2.activity).toBe(want);
      expect(w2.activitySince).toEqual(now);
      const wantExpr = (EXPECTED_ACTIVITY_ROWS[want] as [number, number, number, number[]])[2];
      expect(w2.expression).toBe(wantExpr);
      // The expression stamp moves only if the face changed.
      expect(w2.expressionSince).toEqual(wantExpr === resting ? fromBig(BigInt(start)) : now);
    });

    it(`activity ${activity}: every successor in its row is reachable`, () => {
      const seen = new Set<number>();
      for (let c = 0; c < 64; c++) {
        const w = worldAt(activity, resting, 0, 0, c);
        updateWorld(w, dwell);
        seen.add(w.activity);
      }
      expect([...seen].sort()).toEqual([...new Set(next)].sort());
    });
  }
});

describe("next-activity choice", () => {
  it("is the documented xorshift32 index over the low halves of clock and count", () => {
    const cases: [U64, U64][] = [
      [u64(0, 0), u64(0, 0)],
      [u64(0, 20000), u64(0, 1)],
      [u64(7, 0xffffffff), u64(0, 0x80000000)],
      [u64(0xffffffff, 0x12345678), u64(0xffffffff, 0xffffffff)],
    ];
    for (let i = 0; i < 2000; i++) cases.push([u64(i, (i * 2654435761) >>> 0), u64(0, (i * 40503) >>> 0)]);
    for (const [e, c] of cases) expect(nextActivityIndex(e, c)).toBe(expectedIndex(e, c));
  });
});

describe("expression table", () => {
  it("has exactly the documented rows, in expression-value order", () => {
    expect(expressionRows()).toEqual(EXPECTED_EXPRESSION_ROWS);
  });

  for (const [expression, fade] of EXPECTED_EXPRESSION_ROWS) {
    for (const [activity, dwell, resting] of EXPECTED_ACTIVITY_ROWS) {
      if (expression === resting) continue;
      it(`expression ${expression} on activity ${activity}: fades to ${resting} after ${fade} ms`, () => {
        // Activity started long ago enough not to end during the test: fade < every dwell.
        expect(fade).toBeLessThan(dwell);
        const w = worldAt(activity, expression, 500, 500);
        expect(updateWorld(w, fade - 1)).toBe("ok");
        expect(w.expression).toBe(expression);
        expect(toBig(w.expressionSince)).toBe(500n);
        expect(updateWorld(w, 1)).toBe("ok");
        expect(w.expression).toBe(resting);
        expect(toBig(w.expressionSince)).toBe(BigInt(500 + fade));
        expect(w.activity).toBe(activity);
        expect(toBig(w.activitySince)).toBe(500n);
      });
    }
  }

  it("a resting expression never fades", () => {
    for (const [activity, dwell, resting] of EXPECTED_ACTIVITY_ROWS) {
      const w = worldAt(activity, resting, 0, 0);
      expect(updateWorld(w, dwell - 1)).toBe("ok");
      expect(w.expression).toBe(resting);
      expect(toBig(w.expressionSince)).toBe(0n);
    }
  });
});

describe("event table", () => {
  it("has exactly the documented rows", () => {
    expect(eventRows()).toEqual(EXPECTED_EVENT_ROWS);
  });

  for (const [event, activity, toActivity, toExpression] of EXPECTED_EVENT_ROWS) {
    it(`${event} while ${activity} -> activity ${toActivity}, expression ${toExpression}`, () => {
      const resting = (EXPECTED_ACTIVITY_ROWS[activity] as [number, number, number, number[]])[2];
      const w = worldAt(activity, resting, 100, 100);
      const before = cloneWorld(w);
      expect(updateWorld(w, 10, event)).toBe("ok");
      const now = 110n;
      expect(w.activity).toBe(toActivity);
      expect(w.expression).toBe(toExpression);
      expect(toBig(w.activitySince)).toBe(toActivity === activity ? 100n : now);
      expect(toBig(w.expressionSince)).toBe(toExpression === resting ? 100n : now);
      expect(toBig(w.elapsed)).toBe(now);
      expect(w.name).toEqual(before.name);
    });
  }

  it("an event reacts to the activity the pet has AFTER this update's time step", () => {
    // Asleep for its whole dwell, then woken: the timer first moves it on, the wake reacts to that.
    const w = worldAt(A.Sleeping, E.Sleepy, 0, 0, 0);
    expect(updateWorld(w, 180000, "wake")).toBe("ok");
    const now = fromBig(180000n);
    const afterTimer = (EXPECTED_ACTIVITY_ROWS[A.Sleeping] as [number, number, number, number[]])[3][
      expectedIndex(now, u64(0, 1))
    ] as number;
    const row = EXPECTED_EVENT_ROWS.find((r) => r[0] === "wake" && r[1] === afterTimer) as [PetEvent, number, number, number];
    expect(w.activity).toBe(row[2]);
    expect(w.expression).toBe(row[3]);
  });
});

describe("a long delta", () => {
  it("makes at most one transition: dwell counts from since, nothing is replayed", () => {
    const w = worldAt(A.Idle, E.Neutral, 0, 0);
    expect(updateWorld(w, 10 * 24 * 3600 * 1000)).toBe("ok");
    expect(w.activity).not.toBe(A.Idle);
    expect(toBig(w.activitySince)).toBe(864000000n);
    // The next tiny update does not move it again: its own dwell starts now.
    const activity = w.activity;
    expect(updateWorld(w, 1)).toBe("ok");
    expect(w.activity).toBe(activity);
  });
});
