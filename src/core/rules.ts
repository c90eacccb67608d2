/**
 * The pet's behaviour: how time and events move a world along. Pure and deterministic: no clock is
 * read (every advance is a delta the caller supplies), no Math.random. The rules are DATA in the
 * three tables below; docs/behaviour.md mirrors them and test/core-rules-table.test.ts pins them
 * row by row, so a changed number has to be changed in all three places on purpose.
 */
import { Activity, Expression, PET_EVENTS, type PetEvent, type UpdateStatus, type World } from "./types";
import { type U64, MAX_SAFE, TWO_POW_32 } from "./u64";
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

/** The row of EVENT_RULES for this event and activity, or null (no such row). */
export function findEventRule(event: PetEvent, activity: number): EventRule | null {
  // The table lists every activity for the first event, then for the second: try that position
  // first (one lookup instead of a walk of the table), and walk only if someone reordered it.
  const guess = EVENT_RULES[PET_EVENTS.indexOf(event) * ACTIVITY_RULES.length + activity];
  if (guess !== undefined && guess.event === event && guess.activity === activity) return guess;
  for (let i = 0; i < EVENT_RULES.length; i++) {
    const r = EVENT_RULES[i] as EventRule;
    if (r.event === event && r.activity === activity) return r;
  }
  return null;
}

/**
 * True when at least dwellMs (below 2^32) have passed from `since` to the clock (nowHi, nowLo);
 * since <= now is a World invariant. The age is formed from the halves: exact while below 2^53, and
 * any larger age is far past every dwell, so rounding there cannot change the answer.
 */
function dwellReached(since: U64, nowHi: number, nowLo: number, dwellMs: number): boolean {
  return (nowHi - since.hi) * TWO_POW_32 + (nowLo - since.lo) >= dwellMs;
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
 *
 * The device runs this every second, so the u64 sums are written out on the halves here instead of
 * going through u64.ts (on Espruino every call re-reads the callee's text); the results are the
 * same exact values, over the whole u64 range.
 */
export function updateWorld(world: World, deltaMs: number, event?: PetEvent): UpdateStatus {
  if (!(typeof deltaMs === "number" && deltaMs >= 0 && deltaMs <= MAX_SAFE && Math.floor(deltaMs) === deltaMs)) return "bad-delta";
  if (event !== undefined && PET_EVENTS.indexOf(event) < 0) return "bad-event";
  if (validateWorld(world) !== "ok") return "invalid-world";
  // now = elapsed + delta, with the delta split into halves (it is below 2^53).
  const deltaHi = Math.floor(deltaMs / TWO_POW_32);
  let nowLo = world.elapsed.lo + (deltaMs - deltaHi * TWO_POW_32);
  let nowHi = world.elapsed.hi + deltaHi;
  if (nowLo >= TWO_POW_32) {
    nowLo -= TWO_POW_32;
    nowHi++;
  }
  if (nowHi >= TWO_POW_32) return "clock-overflow";
  const updates = world.updateCount;
  if (updates.hi === 0xffffffff && updates.lo === 0xffffffff) return "count-overflow";
  const count: U64 = updates.lo === 0xffffffff ? { hi: updates.hi + 1, lo: 0 } : { hi: updates.hi, lo: updates.lo + 1 };
  const now: U64 = { hi: nowHi, lo: nowLo };

  let activity = world.activity;
  let activitySince = world.activitySince;
  let expression = world.expression;
  let expressionSince = world.expressionSince;

  const rule = ACTIVITY_RULES[activity] as ActivityRule;
  if (dwellReached(activitySince, nowHi, nowLo, rule.dwellMs)) {
    activity = rule.next[nextActivityIndex(now, count)] as number;
    activitySince = now;
    const resting = (ACTIVITY_RULES[activity] as ActivityRule).restingExpression;
    if (expression !== resting) {
      expression = resting;
      expressionSince = now;
    }
  } else if (expression !== rule.restingExpression) {
    if (dwellReached(expressionSince, nowHi, nowLo, (EXPRESSION_RULES[expression] as ExpressionRule).transientDwellMs)) {
      expression = rule.restingExpression;
      expressionSince = now;
    }
  }

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

/**
 * One tick of a world its owner keeps valid (created by createWorld or loadWorld and changed only
 * through updateWorld, this, and validated names): the same result as updateWorld(world, deltaMs)
 * with no event for every valid world and every delta, but the common case, where no dwell ends
 * and no half of a u64 carries, is checked and applied in a few statements. Everything else (a
 * dwell that ends, a carry, a delta that is not a small whole number, an unknown activity or
 * expression, a since stamp past the clock) goes through updateWorld, which validates and decides.
 * The fast path does not re-read the name bytes: a caller that may hold an invalid world must call
 * updateWorld. The device loop calls this every second: on Espruino a full updateWorld
 * costs several times the whole idle tick's budget. test/core-tick-world.test.ts holds it to
 * updateWorld over random worlds and deltas.
 */
export function tickWorld(world: World, deltaMs: number): UpdateStatus {
  const elapsed = world.elapsed;
  const updates = world.updateCount;
  const rule = ACTIVITY_RULES[world.activity];
  const lo = elapsed.lo + deltaMs;
  // A whole delta that keeps the low halves below 2^32 (no carry into hi) on a known activity.
  if (rule !== undefined && deltaMs >= 0 && deltaMs === Math.floor(deltaMs) && lo < TWO_POW_32 && updates.lo < 0xffffffff) {
    const act = world.activitySince;
    const exp = world.expressionSince;
    const face = EXPRESSION_RULES[world.expression];
    const fade = world.expression === rule.restingExpression ? -1 : face !== undefined ? face.transientDwellMs : 0;
    // Ages as in dwellReached; `act.hi === elapsed.hi` keeps them small and exact here.
    if (
      act.hi === elapsed.hi &&
      exp.hi === elapsed.hi &&
      act.lo <= elapsed.lo &&
      exp.lo <= elapsed.lo &&
      lo - act.lo < rule.dwellMs &&
      (fade < 0 || lo - exp.lo < fade) // an unknown expression (fade 0) never passes
    ) {
      world.elapsed = { hi: elapsed.hi, lo: lo };
      world.updateCount = { hi: updates.hi, lo: updates.lo + 1 };
      return "ok";
    }
  }
  return updateWorld(world, deltaMs);
}

/**
 * The world clock (as its low half; the high half stays as it is) below which an update without an
 * event changes nothing but the clock and the update count: the earlier of the activity's dwell end
 * and a transient expression's fade end, and never past 2^32 (where the low half would carry).
 * -1 when it cannot be said that way (a since stamp in another high half, an unknown activity or
 * expression): then there is no quiet stretch to skip through. An owner that keeps its world valid
 * can step a tick with elapsed.lo + delta below this and an update count whose low half is not
 * 0xFFFFFFFF by adding to the clock and the count alone; test/core-tick-world.test.ts holds that to
 * updateWorld.
 */
export function quietUntil(world: World): number {
  const rule = ACTIVITY_RULES[world.activity];
  const e = world.elapsed;
  const a = world.activitySince;
  const x = world.expressionSince;
  if (rule === undefined || a.hi !== e.hi || x.hi !== e.hi) return -1;
  let until = a.lo + rule.dwellMs;
  if (world.expression !== rule.restingExpression) {
    const face = EXPRESSION_RULES[world.expression];
    if (face === undefined) return -1;
    if (x.lo + face.transientDwellMs < until) until = x.lo + face.transientDwellMs;
  }
  return until < TWO_POW_32 ? until : TWO_POW_32;
}
