/**
 * The pet's behaviour: how time and events move a world along. Pure and deterministic: no clock is
 * read (every advance is a delta the caller supplies), no Math.random. The rules are DATA in the
 * three tables below; docs/behaviour.md mirrors them and test/core-rules-table.test.ts pins them
 * row by row, so a changed number has to be changed in all three places on purpose.
 */
import { Activity, Expression, PET_EVENTS, type PetEvent, type UpdateStatus, type World } from "./types";
import { type U64, MAX_SAFE, U64_MAX, u64, u64Add, u64Compare, u64Equal, u64FromNumber, u64Sub } from "./u64";
import { validateWorld } from "./world";

/** What an activity does on its own: how long it lasts and what comes after. */
export interface ActivityRule {
  activity: number;
  /** World-clock milliseconds the activity lasts before the next one starts. */
  dwellMs: number;
  /** The face the pet wears while doing this with nothing else going on. */
  restingExpression: number;
  /** Exactly four candidates for the next activity; chooseNextActivity picks one by index 0..3. */
  next: readonly number[];
}

/** One row per activity, in activity-value order (row i is activity i). */
export const ACTIVITY_RULES: readonly ActivityRule[] = [
  {
    activity: Activity.Idle,
    dwellMs: 20000,
    restingExpression: Expression.Neutral,
    next: [Activity.Wandering, Activity.Wandering, Activity.Eating, Activity.Sleeping],
  },
  {
    activity: Activity.Wandering,
    dwellMs: 30000,
    restingExpression: Expression.Curious,
    next: [Activity.Idle, Activity.Idle, Activity.Eating, Activity.Playing],
  },
  {
    activity: Activity.Eating,
    dwellMs: 15000,
    restingExpression: Expression.Happy,
    next: [Activity.Idle, Activity.Idle, Activity.Sleeping, Activity.Wandering],
  },
  {
    activity: Activity.Playing,
    dwellMs: 12000,
    restingExpression: Expression.Happy,
    next: [Activity.Idle, Activity.Idle, Activity.Wandering, Activity.Eating],
  },
  {
    activity: Activity.Sleeping,
    dwellMs: 180000,
    restingExpression: Expression.Sleepy,
    next: [Activity.Idle, Activity.Idle, Activity.Idle, Activity.Wandering],
  },
];

/** How long an expression that is NOT the activity's resting one stays before it fades back. */
export interface ExpressionRule {
  expression: number;
  transientDwellMs: number;
}

/** One row per expression, in expression-value order (row i is expression i). */
export const EXPRESSION_RULES: readonly ExpressionRule[] = [
  { expression: Expression.Neutral, transientDwellMs: 3000 },
  { expression: Expression.Happy, transientDwellMs: 4000 },
  { expression: Expression.Sleepy, transientDwellMs: 6000 },
  { expression: Expression.Surprised, transientDwellMs: 2000 },
  { expression: Expression.Grumpy, transientDwellMs: 5000 },
  { expression: Expression.Curious, transientDwellMs: 4000 },
];

/** The reaction to an event, given what the pet is doing when it arrives. */
export interface EventRule {
  event: PetEvent;
  activity: number;
  toActivity: number;
  toExpression: number;
}

/** One row per (event, activity) pair: 2 events x 5 activities. */
export const EVENT_RULES: readonly EventRule[] = [
  { event: "interact", activity: Activity.Idle, toActivity: Activity.Playing, toExpression: Expression.Happy },
  { event: "interact", activity: Activity.Wandering, toActivity: Activity.Playing, toExpression: Expression.Happy },
  { event: "interact", activity: Activity.Eating, toActivity: Activity.Eating, toExpression: Expression.Grumpy },
  { event: "interact", activity: Activity.Playing, toActivity: Activity.Playing, toExpression: Expression.Happy },
  { event: "interact", activity: Activity.Sleeping, toActivity: Activity.Sleeping, toExpression: Expression.Grumpy },
  { event: "wake", activity: Activity.Idle, toActivity: Activity.Idle, toExpression: Expression.Curious },
  { event: "wake", activity: Activity.Wandering, toActivity: Activity.Wandering, toExpression: Expression.Curious },
  { event: "wake", activity: Activity.Eating, toActivity: Activity.Eating, toExpression: Expression.Curious },
  { event: "wake", activity: Activity.Playing, toActivity: Activity.Playing, toExpression: Expression.Surprised },
  { event: "wake", activity: Activity.Sleeping, toActivity: Activity.Idle, toExpression: Expression.Surprised },
];

/**
 * The deterministic stand-in for a dice roll: one xorshift32 round over the low halves of the new
 * world clock and the new update count, reduced to 0..3. Only 32-bit shifts and XORs, which are
 * exact on Espruino as in Node (no multiplication, which would pass 2^53 in a double).
 */
export function nextActivityIndex(elapsed: U64, updateCount: U64): number {
  let x = (elapsed.lo ^ updateCount.lo) | 0;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return (x >>> 0) & 3;
}

/** The activity that follows `activity`, chosen from its row's `next` by nextActivityIndex. */
export function chooseNextActivity(activity: number, elapsed: U64, updateCount: U64): number {
  const row = ACTIVITY_RULES[activity] as ActivityRule;
  return row.next[nextActivityIndex(elapsed, updateCount)] as number;
}

/** The face the pet wears while doing `activity` with nothing else going on. */
export function restingExpressionOf(activity: number): number {
  return (ACTIVITY_RULES[activity] as ActivityRule).restingExpression;
}

/** The row of EVENT_RULES for this event and activity, or null (no such row). */
export function findEventRule(event: PetEvent, activity: number): EventRule | null {
  for (let i = 0; i < EVENT_RULES.length; i++) {
    const r = EVENT_RULES[i] as EventRule;
    if (r.event === event && r.activity === activity) return r;
  }
  return null;
}

/** True when at least dwellMs have passed from `since` to `now` (since <= now is a World invariant). */
function dwellReached(since: U64, now: U64, dwellMs: number): boolean {
  const age = u64Sub(now, since);
  // Dwell times are below 2^32, so the U64 is just the low half.
  return age !== null && u64Compare(age, u64(0, dwellMs)) >= 0;
}

function isDelta(deltaMs: unknown): boolean {
  return typeof deltaMs === "number" && deltaMs >= 0 && deltaMs <= MAX_SAFE && Math.floor(deltaMs) === deltaMs;
}

function isPetEvent(event: unknown): boolean {
  for (let i = 0; i < PET_EVENTS.length; i++) if (PET_EVENTS[i] === event) return true;
  return false;
}

/**
 * Advances `world` by `deltaMs` of world-clock time and then applies `event`, if any, at the new
 * clock. Returns "ok", or the first problem in this fixed order, leaving the world untouched:
 * bad-delta, bad-event, invalid-world, clock-overflow, count-overflow. See docs/behaviour.md.
 *
 * Time makes at most one activity transition per update: dwell is measured from activitySince and a
 * long delta is not replayed as a chain of activities. A stamp becomes the new clock whenever a step
 * sets its field to a different value. So when the timer ends a reaction and the event in the same
 * update brings it straight back (poking a pet whose grumpy face just faded), the reaction restarts
 * with a fresh stamp instead of vanishing on the next tick.
 */
export function updateWorld(world: World, deltaMs: number, event?: PetEvent): UpdateStatus {
  // Checks first, all of them before anything is written.
  if (!isDelta(deltaMs)) return "bad-delta";
  if (event !== undefined && !isPetEvent(event)) return "bad-event";
  if (validateWorld(world) !== "ok") return "invalid-world";
  const now = u64Add(world.elapsed, u64FromNumber(deltaMs) as U64);
  if (now === null) return "clock-overflow";
  if (u64Equal(world.updateCount, U64_MAX)) return "count-overflow";
  const count = u64Add(world.updateCount, u64(0, 1)) as U64;

  // Everything below works on locals; the world is assigned only at the very end.
  let activity = world.activity;
  let activitySince = world.activitySince;
  let expression = world.expression;
  let expressionSince = world.expressionSince;

  // 1. Time: the activity ends after its dwell, or else a transient expression fades after its own.
  const rule = ACTIVITY_RULES[activity] as ActivityRule;
  if (dwellReached(activitySince, now, rule.dwellMs)) {
    activity = chooseNextActivity(activity, now, count);
    activitySince = now;
    const resting = restingExpressionOf(activity);
    if (expression !== resting) {
      expression = resting;
      expressionSince = now;
    }
  } else if (expression !== rule.restingExpression) {
    const fade = (EXPRESSION_RULES[expression] as ExpressionRule).transientDwellMs;
    if (dwellReached(expressionSince, now, fade)) {
      expression = rule.restingExpression;
      expressionSince = now;
    }
  }

  // 2. The event, reacting to what the pet is doing after the time step.
  if (event !== undefined) {
    const reaction = findEventRule(event, activity) as EventRule;
    if (reaction.toActivity !== activity) {
      activity = reaction.toActivity;
      activitySince = now;
    }
    if (reaction.toExpression !== expression) {
      expression = reaction.toExpression;
      expressionSince = now;
    }
  }

  world.activity = activity;
  world.expression = expression;
  world.activitySince = activitySince;
  world.expressionSince = expressionSince;
  world.elapsed = now;
  world.updateCount = count;
  return "ok";
}
