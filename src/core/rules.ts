/**
 * The pet's behaviour: how time and events move a world along. Pure and deterministic: no clock is
 * read (every advance is a delta the caller supplies), no Math.random. The rules are DATA in the
 * columns below; docs/behaviour.md mirrors them and test/core-rules-table.test.ts pins them
 * row by row, so a changed number has to be changed in all three places on purpose.
 */
import { ACTIVITY_NAMES, Activity, Expression, PET_EVENTS, type PetEvent, type UpdateStatus, type World } from "./types";
import { type U64, MAX_SAFE, TWO_POW_32 } from "./u64";
import { validateWorld } from "./world";

// The tables are columns: one array per field, indexed by the row's activity, expression or event
// row. On Espruino an object holds a variable per field for as long as the program runs (the three
// tables as rows of objects took 172 of the device's variables, as columns they take 45), and
// a column is one index where a row is an index and a property search.
//
// The columns read before a world is validated (DWELL_MS, RESTING_EXPRESSION, FADE_MS: tickWorld and
// quietUntil look an unknown activity or expression up) are plain arrays, where an index past the end
// or one that is not a whole number reads undefined, in Node and on Espruino alike, and the code
// relies on that. The others are read only with indices already known to be rows, so they are
// Uint8Arrays, one block of bytes each (Espruino throws on a typed array's non-index read, -1 say,
// where Node answers undefined: they must never see one).

/** World-clock milliseconds each activity lasts before the next one starts (index: the activity). */
export const DWELL_MS: readonly number[] = [
  20000, // Idle
  30000, // Wandering
  15000, // Eating
  12000, // Playing
  180000, // Sleeping
];

/** The face each activity wears with nothing else going on (index: the activity). */
export const RESTING_EXPRESSION: readonly number[] = [Expression.Neutral, Expression.Curious, Expression.Happy, Expression.Happy, Expression.Sleepy];

/**
 * Exactly four candidates for the activity after each one: activity a's at 4a to 4a + 3, in order;
 * updateWorld picks one by nextActivityIndex (0..3).
 */
export const NEXT_ACTIVITY: Uint8Array = new Uint8Array([
  Activity.Wandering, Activity.Wandering, Activity.Eating, Activity.Sleeping, // after Idle
  Activity.Idle, Activity.Idle, Activity.Eating, Activity.Playing, // after Wandering
  Activity.Idle, Activity.Idle, Activity.Sleeping, Activity.Wandering, // after Eating
  Activity.Idle, Activity.Idle, Activity.Wandering, Activity.Eating, // after Playing
  Activity.Idle, Activity.Idle, Activity.Idle, Activity.Wandering, // after Sleeping
]);

/**
 * How long an expression that is NOT the activity's resting one stays before it fades back
 * (index: the expression).
 */
export const FADE_MS: readonly number[] = [
  3000, // Neutral
  4000, // Happy
  6000, // Sleepy
  2000, // Surprised
  5000, // Grumpy
  4000, // Curious
];

/** Activities in the tables (one per ACTIVITY_NAMES entry): DWELL_MS and RESTING_EXPRESSION have a row each. */
export const ACTIVITY_COUNT = ACTIVITY_NAMES.length;

/**
 * The reaction to an event, given what the pet is doing when it arrives: for event e (its index in
 * PET_EVENTS) during activity a, row e * ACTIVITY_COUNT + a of both columns gives the activity and
 * the face the pet takes.
 */
export const REACTION_ACTIVITY: Uint8Array = new Uint8Array([
  // interact: Idle, Wandering, Eating, Playing, Sleeping
  Activity.Playing, Activity.Playing, Activity.Eating, Activity.Playing, Activity.Sleeping,
  // wake
  Activity.Idle, Activity.Wandering, Activity.Eating, Activity.Playing, Activity.Idle,
]);
export const REACTION_EXPRESSION: Uint8Array = new Uint8Array([
  // interact: Idle, Wandering, Eating, Playing, Sleeping
  Expression.Happy, Expression.Happy, Expression.Grumpy, Expression.Happy, Expression.Grumpy,
  // wake
  Expression.Curious, Expression.Curious, Expression.Curious, Expression.Surprised, Expression.Surprised,
]);

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
  "not called at boot";
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

  // validateWorld has made activity and expression whole numbers inside their tables.
  const resting = RESTING_EXPRESSION[activity] as number;
  if (dwellReached(activitySince, nowHi, nowLo, DWELL_MS[activity] as number)) {
    activity = NEXT_ACTIVITY[activity * 4 + nextActivityIndex(now, count)] as number;
    activitySince = now;
    const nextResting = RESTING_EXPRESSION[activity] as number;
    if (expression !== nextResting) {
      expression = nextResting;
      expressionSince = now;
    }
  } else if (expression !== resting) {
    if (dwellReached(expressionSince, nowHi, nowLo, FADE_MS[expression] as number)) {
      expression = resting;
      expressionSince = now;
    }
  }

  if (event !== undefined) {
    const row = PET_EVENTS.indexOf(event) * ACTIVITY_COUNT + activity;
    const toActivity = REACTION_ACTIVITY[row] as number;
    const toExpression = REACTION_EXPRESSION[row] as number;
    if (toActivity !== activity) {
      activity = toActivity;
      activitySince = now;
    }
    if (toExpression !== expression) {
      expression = toExpression;
      expressionSince = now;
    }
  }

  world.activity = activity;
  world.expression = expression;
  world.activitySince = activitySince;
  world.expressionSince = expressionSince;
  // The clock gets an object of its own, never the one a new stamp holds: the firmware's idle step
  // adds to the clock's low half in place (firmware/runningPet.ts tick_).
  world.elapsed = activitySince === now || expressionSince === now ? { hi: nowHi, lo: nowLo } : now;
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
  const dwell = DWELL_MS[world.activity];
  const lo = elapsed.lo + deltaMs;
  // A whole delta that keeps the low halves below 2^32 (no carry into hi) on a known activity.
  if (dwell !== undefined && deltaMs >= 0 && deltaMs === Math.floor(deltaMs) && lo < TWO_POW_32 && updates.lo < 0xffffffff) {
    const act = world.activitySince;
    const exp = world.expressionSince;
    const face = FADE_MS[world.expression];
    const fade = world.expression === RESTING_EXPRESSION[world.activity] ? -1 : face !== undefined ? face : 0;
    // Ages as in dwellReached; `act.hi === elapsed.hi` keeps them small and exact here.
    if (
      act.hi === elapsed.hi &&
      exp.hi === elapsed.hi &&
      act.lo <= elapsed.lo &&
      exp.lo <= elapsed.lo &&
      lo - act.lo < dwell &&
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
  const dwell = DWELL_MS[world.activity];
  const e = world.elapsed;
  const a = world.activitySince;
  const x = world.expressionSince;
  if (dwell === undefined || a.hi !== e.hi || x.hi !== e.hi) return -1;
  let until = a.lo + dwell;
  if (world.expression !== RESTING_EXPRESSION[world.activity]) {
    const fade = FADE_MS[world.expression];
    if (fade === undefined) return -1;
    if (x.lo + fade < until) until = x.lo + fade;
  }
  return until < TWO_POW_32 ? until : TWO_POW_32;
}
