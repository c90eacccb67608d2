/**
 * Save format v1: a world to 84 bytes and back. Pure functions: no I/O, no clock of their own, no
 * exceptions. Every field is written from its value byte by byte, little-endian, so host byte order
 * and object layout never reach the payload (docs/save-format-v1.md).
 *
 * Runs on Espruino as ES5: u64 values stay as two u32 halves (no BigInt), no DataView, no spread.
 */
import type { World, WorldStatus } from "../core/types";
import {
  isU64,
  MAX_SAFE,
  readU32LE,
  readU64LE,
  u64Add,
  u64Compare,
  u64FromNumber,
  u64IsZero,
  u64Min,
  u64Sub,
  U64_ZERO,
  writeU32LE,
  writeU64LE,
  type U64,
} from "../core/u64";
import { copyWorld, isKnownActivity, isKnownExpression, validateWorld } from "../core/world";
import { crc32 } from "./crc32";
import {
  ABSENCE_CLAMP_MS,
  CRC_COVERED_LENGTH,
  FORMAT_VERSION,
  HEADER_LENGTH,
  MAGIC,
  NAME_FIELD_SIZE,
  OFFSET_ACTIVITY,
  OFFSET_ACTIVITY_SINCE,
  OFFSET_CRC,
  OFFSET_ELAPSED,
  OFFSET_EXPRESSION,
  OFFSET_EXPRESSION_SINCE,
  OFFSET_MAGIC,
  OFFSET_NAME_BYTES,
  OFFSET_NAME_LENGTH,
  OFFSET_SAVED_AT,
  OFFSET_UPDATE_COUNT,
  OFFSET_VERSION,
  PAYLOAD_LENGTH,
} from "./layout";
import type { LoadStatus, SaveStatus } from "./status";

export interface SaveResult {
  status: SaveStatus;
  /** Exactly PAYLOAD_LENGTH bytes when status is "ok", else null. */
  bytes: Uint8Array | null;
}

export interface LoadResult {
  status: LoadStatus;
  /** The loaded world (the `into` object when one was given) when status is "ok", else null. */
  world: World | null;
  /** The payload's save stamp once its checksum has been verified, else zero. Zero also means "unknown". */
  savedAt: U64;
  /** Milliseconds of absence added to the world clock (0 to ABSENCE_CLAMP_MS); 0 on rejection. */
  absenceMs: number;
}

const ABSENCE_CLAMP: U64 = { hi: 0, lo: ABSENCE_CLAMP_MS };

/**
 * A wall-clock reading as a U64, or null when it is not one. Accepts a U64 or a non-negative finite
 * number up to 2^53 - 1; a fractional part is dropped because Espruino's Date.now() carries one.
 */
function clockValue(v: number | U64): U64 | null {
  if (typeof v === "number") {
    if (!(v >= 0) || v > MAX_SAFE) return null; // also rejects NaN
    return u64FromNumber(Math.floor(v));
  }
  return isU64(v) ? { hi: v.hi, lo: v.lo } : null;
}

/**
 * Encodes a world saved at wall-clock `savedAtMs` (UTC ms since the epoch, 0 when unknown).
 * The world is checked with validateWorld first; a failure is returned as its status and no bytes.
 */
export function saveWorld(world: World, savedAtMs: number | U64): SaveResult {
  const worldStatus: WorldStatus = validateWorld(world);
  if (worldStatus !== "ok") return { status: worldStatus, bytes: null };
  const savedAt = clockValue(savedAtMs);
  if (savedAt === null) return { status: "bad-saved-at", bytes: null };

  const out = new Uint8Array(PAYLOAD_LENGTH); // zero-filled: the name padding needs no loop
  for (let i = 0; i < MAGIC.length; i++) out[OFFSET_MAGIC + i] = MAGIC[i] as number;
  out[OFFSET_VERSION] = FORMAT_VERSION & 0xff;
  out[OFFSET_VERSION + 1] = (FORMAT_VERSION >>> 8) & 0xff;
  writeU64LE(out, OFFSET_ELAPSED, world.elapsed);
  writeU64LE(out, OFFSET_UPDATE_COUNT, world.updateCount);
  writeU64LE(out, OFFSET_SAVED_AT, savedAt);
  out[OFFSET_ACTIVITY] = world.activity;
  out[OFFSET_EXPRESSION] = world.expression;
  writeU64LE(out, OFFSET_ACTIVITY_SINCE, world.activitySince);
  writeU64LE(out, OFFSET_EXPRESSION_SINCE, world.expressionSince);
  const name = world.name;
  out[OFFSET_NAME_LENGTH] = name.length;
  for (let i = 0; i < name.length; i++) out[OFFSET_NAME_BYTES + i] = name[i] as number;
  writeU32LE(out, OFFSET_CRC, crc32(out, 0, CRC_COVERED_LENGTH));
  return { status: "ok", bytes: out };
}

function rejected(status: LoadStatus, savedAt: U64): LoadResult {
  return { status: status, world: null, savedAt: savedAt, absenceMs: 0 };
}

/** Name length 1..31, no zero byte inside the length, every padding byte zero. */
function nameFieldIsValid(bytes: Uint8Array): boolean {
  const length = bytes[OFFSET_NAME_LENGTH] as number;
  if (length < 1 || length > NAME_FIELD_SIZE) return false;
  for (let i = 0; i < NAME_FIELD_SIZE; i++) {
    const b = bytes[OFFSET_NAME_BYTES + i] as number;
    if (i < length ? b === 0 : b !== 0) return false;
  }
  return true;
}

/**
 * The time the pet was away: now - savedAt when both are known (nonzero) and now is later, clamped
 * to seven days; otherwise zero.
 */
function absenceBetween(savedAt: U64, now: U64): U64 {
  if (u64IsZero(savedAt) || u64IsZero(now) || u64Compare(now, savedAt) <= 0) return U64_ZERO;
  return u64Min(u64Sub(now, savedAt) as U64, ABSENCE_CLAMP);
}

/**
 * Decodes a payload at wall-clock `nowMs` (0 when unknown; a value that is not a clock reading counts
 * as unknown). Checks run in the contract's order and the first failure is the status. On "ok" the
 * world is copied into `into` when given; on any rejection `into` is left exactly as it was.
 * Never throws, whatever `bytes` is.
 */
export function loadWorld(bytes: Uint8Array, nowMs: number | U64, into?: World): LoadResult {
  if (!(bytes instanceof Uint8Array) || bytes.length < HEADER_LENGTH) return rejected("too-short", U64_ZERO);
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[OFFSET_MAGIC + i] !== MAGIC[i]) return rejected("bad-magic", U64_ZERO);
  }
  const version = (bytes[OFFSET_VERSION] as number) | ((bytes[OFFSET_VERSION + 1] as number) << 8);
  if (version !== FORMAT_VERSION) return rejected("unsupported-version", U64_ZERO);
  if (bytes.length !== PAYLOAD_LENGTH) return rejected("bad-length", U64_ZERO);
  if (crc32(bytes, 0, CRC_COVERED_LENGTH) !== readU32LE(bytes, OFFSET_CRC)) return rejected("bad-checksum", U64_ZERO);

  const savedAt = readU64LE(bytes, OFFSET_SAVED_AT);
  const activity = bytes[OFFSET_ACTIVITY] as number;
  const expression = bytes[OFFSET_EXPRESSION] as number;
  if (!isKnownActivity(activity)) return rejected("unknown-activity", savedAt);
  if (!isKnownExpression(expression)) return rejected("unknown-expression", savedAt);
  if (!nameFieldIsValid(bytes)) return rejected("bad-name", savedAt);

  const storedElapsed = readU64LE(bytes, OFFSET_ELAPSED);
  const now = clockValue(nowMs);
  const absence = absenceBetween(savedAt, now === null ? U64_ZERO : now);
  const elapsed = u64Add(storedElapsed, absence);
  if (elapsed === null) return rejected("clock-overflow", savedAt);

  // Assembled in a fresh object so a rejection cannot leave a half-loaded world behind. The world
  // that is validated is the one the caller would get: its clock already includes the absence, so a
  // since stamp up to elapsed + absence is accepted (the contract's last step judges the assembled
  // world, not the stored fields). Whether such a payload loads therefore depends on `now`.
  const nameLength = bytes[OFFSET_NAME_LENGTH] as number;
  const world: World = {
    name: new Uint8Array(bytes.subarray(OFFSET_NAME_BYTES, OFFSET_NAME_BYTES + nameLength)),
    activity: activity,
    expression: expression,
    activitySince: readU64LE(bytes, OFFSET_ACTIVITY_SINCE),
    expressionSince: readU64LE(bytes, OFFSET_EXPRESSION_SINCE),
    elapsed: elapsed,
    updateCount: readU64LE(bytes, OFFSET_UPDATE_COUNT),
  };
  const worldStatus = validateWorld(world);
  if (worldStatus !== "ok") return rejected(worldStatus, savedAt);

  const result = typeof into === "object" && into !== null ? copyWorld(into, world) : world;
  return { status: "ok", world: result, savedAt: savedAt, absenceMs: absence.lo };
}
