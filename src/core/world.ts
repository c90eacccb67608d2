/**
 * The world model: creating, validating and copying worlds. Pure: no I/O, no clock, no randomness.
 * updateWorld (time passing and events) lives beside the rules table in rules.ts.
 */
import { isValidName } from "./name";
import { ACTIVITY_NAMES, Activity, EXPRESSION_NAMES, Expression, type World, type WorldStatus } from "./types";
import { isU64, u64Compare, U64_ZERO } from "./u64";

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

/**
 * Checks a world in a fixed order and returns the first problem, or "ok".
 * The Core's invariants beyond the field ranges: both since stamps lie on or before the world clock.
 */
export function validateWorld(world: World): WorldStatus {
  if (typeof world !== "object" || world === null) return "invalid-world";
  if (!isKnownActivity(world.activity)) return "unknown-activity";
  if (!isKnownExpression(world.expression)) return "unknown-expression";
  if (!isValidName(world.name)) return "bad-name";
  if (!isU64(world.elapsed) || !isU64(world.updateCount)) return "invalid-world";
  if (!isU64(world.activitySince) || !isU64(world.expressionSince)) return "invalid-world";
  if (u64Compare(world.activitySince, world.elapsed) > 0) return "invalid-world";
  if (u64Compare(world.expressionSince, world.elapsed) > 0) return "invalid-world";
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
