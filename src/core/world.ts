/**
 * The world model: what makes a world valid, and creating, validating and copying worlds. Pure: no
 * I/O, no clock, no randomness. updateWorld (time passing and events) lives beside the rules table in
 * rules.ts.
 *
 * Two of a world's rules are checked in several places, each written once, here: the name rule
 * (isValidName) and the since-stamp rule (sinceStampsWithin). The paths the device runs most carry
 * them written out, because the interpreter spends a function call's worth on every call:
 * validateWorld (every save), whose copies sit right below the originals and
 * test/core-world-rules-agree.test.ts holds equal; and the boot's restore, loadWorld (the name's
 * zero byte, the stamps at the clock with the time away) and the firmware's store (the stamps at the
 * stored clock), held by test/codec-validates-assembled-world.test.ts and
 * test/codec-time-away-agrees.test.ts. On the emulated ESP32 those calls and loadWorld's padding sum
 * were about 4 % of a restore, the margin of its target. Everything else calls these.
 */
import { ACTIVITY_COUNT, Activity, EXPRESSION_COUNT, Expression, NAME_MAX_BYTES, NAME_MIN_BYTES, type World, type WorldStatus } from "./types";
import { U64_ZERO } from "./u64";

/**
 * The name rule: a valid pet name is 1 to 31 bytes (NAME_MIN_BYTES to NAME_MAX_BYTES), none of them
 * zero. The codec judges a payload's name by it, the console a typed one (name.ts nameFromString),
 * the firmware a profile's.
 */
export function isValidName(bytes: Uint8Array): boolean {
  if (!(bytes instanceof Uint8Array)) return false;
  if (bytes.length < NAME_MIN_BYTES || bytes.length > NAME_MAX_BYTES) return false;
  return bytes.indexOf(0) < 0; // native on Espruino: no loop step per byte
}

/**
 * The since-stamp rule: a world's activity and expression began on or before the world clock, here
 * the clock (hi, lo): for a valid world its own (validateWorld), for a loaded one the clock with the
 * time away added (the codec's last acceptance step).
 */
export function sinceStampsWithin(world: World, hi: number, lo: number): boolean {
  const a = world.activitySince;
  const e = world.expressionSince;
  return !(a.hi > hi || (a.hi === hi && a.lo > lo) || e.hi > hi || (e.hi === hi && e.lo > lo));
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
 *
 * Every save and export runs this, so it is written for the interpreter, which reads a function's
 * text each time it runs it (docs/speed.md): `x >>> 0 === x` holds exactly for the whole numbers
 * 0 .. 2^32 - 1 (a string, a boolean, a fraction, NaN, a negative or a larger number comes back
 * different, strictly), so no typeof guard is needed beside it; a field that is not an object reads
 * as undefined halves, which fail it the same way. What `>>>` cannot convert (a BigInt, a Symbol,
 * an object whose valueOf throws) and a missing u64 (null or undefined, whose halves cannot be read)
 * throw instead. The catch, after the rest, answers unknown-activity when the activity is not a
 * number, else unknown-expression when the expression is not, else invalid-world: the statuses the
 * fixed order gives (test/core-world-validation-odd-fields.test.ts).
 */
export function validateWorld(world: World): WorldStatus {
  if (typeof world !== "object" || world === null) return "invalid-world";
  let a: unknown;
  let e: unknown;
  try {
    a = world.activity;
    e = world.expression;
    if ((a as number) >>> 0 !== a || (a as number) >= ACTIVITY_COUNT) return "unknown-activity";
    if ((e as number) >>> 0 !== e || (e as number) >= EXPRESSION_COUNT) return "unknown-expression";
    // isValidName, written out (indexOf is native on Espruino: no loop step per byte).
    const name = world.name;
    if (!(name instanceof Uint8Array) || name.length < NAME_MIN_BYTES || name.length > NAME_MAX_BYTES || name.indexOf(0) >= 0) return "bad-name";
    const c = world.elapsed;
    const n = world.updateCount;
    const as = world.activitySince;
    const es = world.expressionSince;
    if (
      c.hi >>> 0 !== c.hi || c.lo >>> 0 !== c.lo || n.hi >>> 0 !== n.hi || n.lo >>> 0 !== n.lo ||
      as.hi >>> 0 !== as.hi || as.lo >>> 0 !== as.lo || es.hi >>> 0 !== es.hi || es.lo >>> 0 !== es.lo
    )
      return "invalid-world";
    // sinceStampsWithin(world, c.hi, c.lo), written out: a since stamp after the clock (compared as hi, then lo).
    return as.hi > c.hi || (as.hi === c.hi && as.lo > c.lo) || es.hi > c.hi || (es.hi === c.hi && es.lo > c.lo) ? "invalid-world" : "ok";
  } catch (err) {
    return typeof a !== "number" ? "unknown-activity" : typeof e !== "number" ? "unknown-expression" : "invalid-world";
  }
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
