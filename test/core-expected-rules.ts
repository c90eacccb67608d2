/**
 * The behaviour rules as the tests expect them, written out by hand from docs/behaviour.md and NOT
 * imported from src/core/rules.ts, so that a rule changed in one place only fails the tests.
 */
import { Activity as A, Expression as E, type PetEvent } from "../src/core/types";
import type { U64 } from "../src/core/u64";

// activity, dwell ms, resting expression, next[0..3]
export const EXPECTED_ACTIVITY_ROWS: [number, number, number, number[]][] = [
  [A.Idle, 20000, E.Neutral, [A.Wandering, A.Wandering, A.Eating, A.Sleeping]],
  [A.Wandering, 30000, E.Curious, [A.Idle, A.Idle, A.Eating, A.Playing]],
  [A.Eating, 15000, E.Happy, [A.Idle, A.Idle, A.Sleeping, A.Wandering]],
  [A.Playing, 12000, E.Happy, [A.Idle, A.Idle, A.Wandering, A.Eating]],
  [A.Sleeping, 180000, E.Sleepy, [A.Idle, A.Idle, A.Idle, A.Wandering]],
];

// expression, transient dwell ms
export const EXPECTED_EXPRESSION_ROWS: [number, number][] = [
  [E.Neutral, 3000],
  [E.Happy, 4000],
  [E.Sleepy, 6000],
  [E.Surprised, 2000],
  [E.Grumpy, 5000],
  [E.Curious, 4000],
];

// event, activity, -> activity, -> expression
export const EXPECTED_EVENT_ROWS: [PetEvent, number, number, number][] = [
  ["interact", A.Idle, A.Playing, E.Happy],
  ["interact", A.Wandering, A.Playing, E.Happy],
  ["interact", A.Eating, A.Eating, E.Grumpy],
  ["interact", A.Playing, A.Playing, E.Happy],
  ["interact", A.Sleeping, A.Sleeping, E.Grumpy],
  ["wake", A.Idle, A.Idle, E.Curious],
  ["wake", A.Wandering, A.Wandering, E.Curious],
  ["wake", A.Eating, A.Eating, E.Curious],
  ["wake", A.Playing, A.Playing, E.Surprised],
  ["wake", A.Sleeping, A.Idle, E.Surprised],
];

/** Independent xorshift32 round in BigInt, the documented next-activity index. */
export function expectedIndex(elapsed: U64, count: U64): number {
  const mask = 0xffffffffn;
  let x = BigInt((elapsed.lo ^ count.lo) >>> 0);
  x = (x ^ (x << 13n)) & mask;
  x = x ^ (x >> 17n);
  x = (x ^ (x << 5n)) & mask;
  return Number(x & 3n);
}

