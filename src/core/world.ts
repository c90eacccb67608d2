/**
 * The world model: creating, validating and copying worlds. Pure: no I/O, no clock, no randomness.
 * updateWorld (time passing and events) lives beside the rules table in rules.ts.
 */
import { isValidName } from "./name";
import { ACTIVITY_NAMES, Activity, EXPRESSION_NAMES, Expression, NAME_MAX_BYTES, NAME_MIN_BYTES, type World, type WorldStatus } from "./types";
import { TWO_POW_32, U64_ZERO } from "./u64";

export function isKnownActivity(v: unknown): boolean {
  return typeof v === "number" && Math.floor(v) === v && v >= 0 && v < ACTIVITY_NAMES.length;
}

export function isKnownExpression(v: unknown): boolean {
  return typeof v === "number" && Math.floor(v) === v && v >= 0 && v < EXPRESSION_NAMES.length;
}

/**
 * A newly hatched pet with the given name bytes: idle, neutral, world clock and update count zero.
 * Returns null when the name is not valid (see isValidName).
 */
export function createWorld(name: Uint8Array): World | null {
  if (!isValidName(name)) return null;
  return {
    name: new Uint8Array(name),
    activity: Activity.Idle,
    expression: Expression.Neutral,
    activitySince: U64_ZERO,
    expressionSince: U64_ZERO,
    elapsed: U64_ZERO,
    updateCount: U64_ZERO,
  };
}

/** True for a well-formed U64 (see u64.ts); written out here so validateWorld makes no other call. */
function isU64Value(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return false;
  const o = v as { hi?: unknown; lo?: unknown };
  const hi = o.hi as number;
  const lo = o.lo as number;
  return typeof hi === "number" && typeof lo === "number" && hi >= 0 && hi < TWO_POW_32 && Math.floor(hi) === hi && lo >= 0 && lo < TWO_POW_32 && Math.floor(lo) === lo;
}

/**
 * Checks a world in a fixed order and returns the first problem, or "ok".
 * The Core's invariants beyond the field ranges: both since stamps lie on or before the world clock.
 *
 * Every update and every save runs this, so it is one function with its checks written out rather
 * than a call per field: on Espruino each call costs as much as a dozen comparisons.
 */
export function validateWorld(world: World): WorldStatus {
  if (typeof world !== "object" || world === null) return "invalid-world";
  const a = world.activity;
  const e = world.expression;
  if (!(typeof a === "number" && a >= 0 && a < ACTIVITY_NAMES.length && Math.floor(a) === a)) return "unknown-activity";
  if (!(typeof e === "number" && e >= 0 && e < EXPRESSION_NAMES.length && Math.floor(e) === e)) return "unknown-expression";
  const name = world.name;
  if (!(name instanceof Uint8Array) || name.length < NAME_MIN_BYTES || name.length > NAME_MAX_BYTES) return "bad-name";
  for (let i = 0; i < name.length; i++) if (name[i] === 0) return "bad-name";
  const elapsed = world.elapsed;
  const as = world.activitySince;
  const es = world.expressionSince;
  if (!isU64Value(elapsed) || !isU64Value(world.updateCount) || !isU64Value(as) || !isU64Value(es)) return "invalid-world";
  // A since stamp after the clock (compared as hi, then lo).
  if (as.hi > elapsed.hi || (as.hi === elapsed.hi && as.lo > elapsed.lo)) return "invalid-world";
  if (es.hi > elapsed.hi || (es.hi === elapsed.hi && es.lo > elapsed.lo)) return "invalid-world";
  return "ok";
}

/** Copies every field of `src` into `dst` (the name bytes are copied, not shared). */
export function copyWorld(dst: World, src: World): World {
  dst.name = new Uint8Array(src.name);
  dst.activity = src.activity;
  dst.expression = src.expression;
  dst.activitySince = src.activitySince;
  dst.expressionSince = src.expressionSince;
  dst.elapsed = src.elapsed;
  dst.updateCount = src.updateCount;
  return dst;
}

/** A deep copy of a world. */
export function cloneWorld(src: World): World {
  return copyWorld({} as World, src);
}
