/**
 * Save format v1: a world to 84 bytes and back. Pure functions: no I/O, no clock of their own, no
 * exceptions. Every field is written from its value through a DataView with littleEndian = true, so
 * host byte order and object layout never reach the payload (docs/save-format-v1.md).
 *
 * Runs on Espruino as ES5: u64 values stay as two u32 halves (no BigInt), no spread. The device and
 * the desktop tools run this same code; its shape (one DataView, no per-byte or per-field helper
 * calls) is the one that is fast inside the interpreter.
 */
import type { World, WorldStatus } from "../core/types";
import { isU64, MAX_SAFE, TWO_POW_32, U64_ZERO, type U64 } from "../core/u64";
import { ACTIVITY_NAMES, EXPRESSION_NAMES } from "../core/types";
import { copyWorld, validateWorld } from "../core/world";
import { byteSum } from "../core/bytes";
import { crc32 } from "./crc32";
import {
  ABSENCE_CLAMP_MS,
  CRC_COVERED_LENGTH,
  FORMAT_VERSION,
  HEADER_LENGTH,
  MAGIC_U32LE,
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
  SHIFTED_ELAPSED,
  SHIFTED_SAVED_AT,
  SHIFTED_UPDATE_COUNT,
  SHIFTED_WORD_COUNT,
  WORD_ACTIVITY_SINCE,
  WORD_COUNT,
  WORD_CRC,
  WORD_EXPRESSION_SINCE,
  WORD_MAGIC,
} from "./layout";
import type { LoadStatus, SaveStatus } from "./status";

// The device bundle's build defines ESPRUINO_BUILD (scripts/lib/build.js buildDefines): there the
// checksum is E.CRC32's, called here on a view made by the Uint8Array constructor, natively on every
// Espruino. crc32() would take the view with subarray, which Espruino 2v06 lacks: on the ESP32's own
// firmware that is the function form's prelude, JavaScript run on every save and load. Undefined in
// Node and the unminified bundle, where crc32() decides as before.
declare const ESPRUINO_BUILD: true | undefined;
// ESPRUINO_WORD_VIEWS: true in a bundle for a profile that runs on Espruino itself (buildDefines).
// There the u32 fields go in and out through two Uint32Array views (layout.ts, WORD_*), indexed
// like an array, instead of a DataView's method calls: on the emulated ESP32 a DataView costs about
// 25,000 Xtensa instructions to make (a Uint32Array view 17,000 to 21,000) and 17,000 per
// getUint32, an indexed word about 6,500 (docs/speed.md). One of the views starts 6 bytes in, off the 4-byte grid: Espruino's typed arrays
// take any byte offset (and both of its builds the product serves, the ESP32 and x86 Linux, are
// little-endian, as the payload is), while Node and browsers refuse one, so the bundles they run
// (the simulators', false) and Node (undefined) keep the DataView.
declare const ESPRUINO_WORD_VIEWS: boolean | undefined;
declare const E: { CRC32(data: Uint8Array): number; sum(data: Uint8Array): number };
/** Whether this bundle uses the word views (a constant the build folds into each use). */
const WORD_VIEWS = typeof ESPRUINO_WORD_VIEWS !== "undefined" && ESPRUINO_WORD_VIEWS;

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

/**
 * A wall-clock reading as a U64, or null when it is not one. Accepts a U64 or a non-negative finite
 * number up to 2^53 - 1; a fractional part is dropped because Espruino's Date.now() carries one.
 */
function clockValue(v: number | U64): U64 | null {
  "rarely called";
  if (typeof v === "number") {
    if (!(v >= 0) || v > MAX_SAFE) return null; // also rejects NaN
    const n = Math.floor(v);
    const hi = Math.floor(n / TWO_POW_32);
    return { hi: hi, lo: n - hi * TWO_POW_32 };
  }
  return isU64(v) ? { hi: v.hi, lo: v.lo } : null;
}

/**
 * Encodes a world saved at wall-clock `savedAtMs` (UTC ms since the epoch, 0 when unknown).
 * The world is checked with validateWorld first; a failure is returned as its status and no bytes.
 *
 * The fields go in through one DataView over the payload's buffer (little-endian, each u64 as its
 * two u32 halves): on Espruino that is a native call per field instead of a shift and a store per
 * byte, and in Node it is just as exact.
 */
export function saveWorld(world: World, savedAtMs: number | U64): SaveResult {
  "not called at boot"; // a boot that restores never encodes: its text is read at the first save or export
  const worldStatus: WorldStatus = validateWorld(world);
  if (worldStatus !== "ok") return { status: worldStatus, bytes: null };
  // clockValue, written out for a number (every save and export passes one): no call, no object.
  let stampHi: number;
  let stampLo: number;
  if (typeof savedAtMs === "number") {
    if (!(savedAtMs >= 0) || savedAtMs > MAX_SAFE) return { status: "bad-saved-at", bytes: null }; // also NaN
    stampLo = Math.floor(savedAtMs);
    stampHi = Math.floor(stampLo / TWO_POW_32);
    stampLo -= stampHi * TWO_POW_32;
  } else {
    const savedAt = clockValue(savedAtMs);
    if (savedAt === null) return { status: "bad-saved-at", bytes: null };
    stampHi = savedAt.hi;
    stampLo = savedAt.lo;
  }

  const out = new Uint8Array(PAYLOAD_LENGTH); // zero-filled: the name padding needs no loop
  out[OFFSET_ACTIVITY] = world.activity;
  out[OFFSET_EXPRESSION] = world.expression;
  out[OFFSET_NAME_LENGTH] = world.name.length;
  out.set(world.name, OFFSET_NAME_BYTES);
  if (WORD_VIEWS) {
    const words = new Uint32Array(out.buffer, 0, WORD_COUNT);
    const shifted = new Uint32Array(out.buffer, OFFSET_ELAPSED, SHIFTED_WORD_COUNT);
    words[WORD_MAGIC] = MAGIC_U32LE;
    out[OFFSET_VERSION] = FORMAT_VERSION; // a u16 below 256: its high byte stays 0
    shifted[SHIFTED_ELAPSED] = world.elapsed.lo;
    shifted[SHIFTED_ELAPSED + 1] = world.elapsed.hi;
    shifted[SHIFTED_UPDATE_COUNT] = world.updateCount.lo;
    shifted[SHIFTED_UPDATE_COUNT + 1] = world.updateCount.hi;
    shifted[SHIFTED_SAVED_AT] = stampLo;
    shifted[SHIFTED_SAVED_AT + 1] = stampHi;
    words[WORD_ACTIVITY_SINCE] = world.activitySince.lo;
    words[WORD_ACTIVITY_SINCE + 1] = world.activitySince.hi;
    words[WORD_EXPRESSION_SINCE] = world.expressionSince.lo;
    words[WORD_EXPRESSION_SINCE + 1] = world.expressionSince.hi;
    words[WORD_CRC] = E.CRC32(new Uint8Array(out.buffer, 0, CRC_COVERED_LENGTH));
    return { status: "ok", bytes: out };
  }
  const dv = new DataView(out.buffer);
  dv.setUint32(OFFSET_MAGIC, MAGIC_U32LE, true);
  dv.setUint16(OFFSET_VERSION, FORMAT_VERSION, true);
  dv.setUint32(OFFSET_ELAPSED, world.elapsed.lo, true);
  dv.setUint32(OFFSET_ELAPSED + 4, world.elapsed.hi, true);
  dv.setUint32(OFFSET_UPDATE_COUNT, world.updateCount.lo, true);
  dv.setUint32(OFFSET_UPDATE_COUNT + 4, world.updateCount.hi, true);
  dv.setUint32(OFFSET_SAVED_AT, stampLo, true);
  dv.setUint32(OFFSET_SAVED_AT + 4, stampHi, true);
  dv.setUint32(OFFSET_ACTIVITY_SINCE, world.activitySince.lo, true);
  dv.setUint32(OFFSET_ACTIVITY_SINCE + 4, world.activitySince.hi, true);
  dv.setUint32(OFFSET_EXPRESSION_SINCE, world.expressionSince.lo, true);
  dv.setUint32(OFFSET_EXPRESSION_SINCE + 4, world.expressionSince.hi, true);
  const crc = typeof ESPRUINO_BUILD !== "undefined" ? E.CRC32(new Uint8Array(out.buffer, 0, CRC_COVERED_LENGTH)) >>> 0 : crc32(out, 0, CRC_COVERED_LENGTH);
  dv.setUint32(OFFSET_CRC, crc, true);
  return { status: "ok", bytes: out };
}

function rejected(status: LoadStatus, savedAt: U64): LoadResult {
  return { status: status, world: null, savedAt: savedAt, absenceMs: 0 };
}

/**
 * Decodes a payload at wall-clock `nowMs` (0 when unknown; a value that is not a clock reading counts
 * as unknown). Checks run in the contract's order and the first failure is the status. On "ok" the
 * world is copied into `into` when given; on any rejection `into` is left exactly as it was.
 * Never throws, whatever `bytes` is.
 *
 * Written as one function over one DataView, with the absence and the clock addition done inline
 * on the u32 halves: the restore at boot runs it, and on Espruino every helper call costs more than
 * the arithmetic it would do.
 */
export function loadWorld(bytes: Uint8Array, nowMs: number | U64, into?: World): LoadResult {
  if (!(bytes instanceof Uint8Array) || bytes.length < HEADER_LENGTH) return rejected("too-short", U64_ZERO);
  // With the word views, the magic and the version are read as bytes: the views are made only once
  // the length is known to be PAYLOAD_LENGTH.
  const dv = WORD_VIEWS ? undefined : new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (
    WORD_VIEWS
      ? bytes[OFFSET_MAGIC] !== (MAGIC_U32LE & 0xff) || bytes[OFFSET_MAGIC + 1] !== ((MAGIC_U32LE >>> 8) & 0xff) || bytes[OFFSET_MAGIC + 2] !== ((MAGIC_U32LE >>> 16) & 0xff) || bytes[OFFSET_MAGIC + 3] !== MAGIC_U32LE >>> 24
      : dv!.getUint32(OFFSET_MAGIC, true) !== MAGIC_U32LE
  )
    return rejected("bad-magic", U64_ZERO);
  if (WORD_VIEWS ? bytes[OFFSET_VERSION] !== FORMAT_VERSION || bytes[OFFSET_VERSION + 1] !== 0 : dv!.getUint16(OFFSET_VERSION, true) !== FORMAT_VERSION) return rejected("unsupported-version", U64_ZERO);
  if (bytes.length !== PAYLOAD_LENGTH) return rejected("bad-length", U64_ZERO);
  // The length is PAYLOAD_LENGTH from here on: the views below are made natively (see ESPRUINO_BUILD).
  const at = bytes.byteOffset;
  const words = WORD_VIEWS ? new Uint32Array(bytes.buffer, at, WORD_COUNT) : undefined;
  const shifted = WORD_VIEWS ? new Uint32Array(bytes.buffer, at + OFFSET_ELAPSED, SHIFTED_WORD_COUNT) : undefined;
  const crc = typeof ESPRUINO_BUILD !== "undefined" ? E.CRC32(new Uint8Array(bytes.buffer, at, CRC_COVERED_LENGTH)) >>> 0 : crc32(bytes, 0, CRC_COVERED_LENGTH);
  if (crc !== (WORD_VIEWS ? words![WORD_CRC] : dv!.getUint32(OFFSET_CRC, true))) return rejected("bad-checksum", U64_ZERO);

  const savedAt: U64 = WORD_VIEWS
    ? { hi: shifted![SHIFTED_SAVED_AT + 1] as number, lo: shifted![SHIFTED_SAVED_AT] as number }
    : { hi: dv!.getUint32(OFFSET_SAVED_AT + 4, true), lo: dv!.getUint32(OFFSET_SAVED_AT, true) };
  const activity = bytes[OFFSET_ACTIVITY] as number;
  const expression = bytes[OFFSET_EXPRESSION] as number;
  if (activity >= ACTIVITY_NAMES.length) return rejected("unknown-activity", savedAt);
  if (expression >= EXPRESSION_NAMES.length) return rejected("unknown-expression", savedAt);
  // Name: the bytes the length names make a valid name (the Core's rule; a length past the field,
  // 31 bytes, names a longer one, which the rule refuses), and every padding byte is zero (their sum
  // is 0).
  // Neither view below may have length 0: Espruino reads `new Uint8Array(buffer, offset, 0)` as the
  // rest of the buffer (test/codec-device-word-views-agree.test.ts found a 31-byte name refused on
  // the device that way). So an empty name is refused here, and a full one has no padding to sum.
  const nameLength = bytes[OFFSET_NAME_LENGTH] as number;
  if (nameLength === 0 || nameLength > NAME_FIELD_SIZE) return rejected("bad-name", savedAt);
  // isValidName(name), written out: the view is a Uint8Array of 1 to 31 bytes, so only the zero byte
  // is left to refuse. On the device the padding is summed by E.sum itself: byteSum would be written
  // here as a function expression made anew at every load.
  const name = new Uint8Array(bytes.buffer, at + OFFSET_NAME_BYTES, nameLength);
  if (name.indexOf(0) >= 0) return rejected("bad-name", savedAt);
  if (nameLength < NAME_FIELD_SIZE) {
    const padding = new Uint8Array(bytes.buffer, at + OFFSET_NAME_BYTES + nameLength, NAME_FIELD_SIZE - nameLength);
    if ((typeof ESPRUINO_BUILD !== "undefined" ? E.sum(padding) : byteSum(padding)) !== 0) return rejected("bad-name", savedAt);
  }

  // The time away, written out (loadWorld is the boot's restore): absenceMs(savedAt, nowMs), then
  // addTimeAway(world, absence) on the halves before the world is assembled. Both originals are
  // below, in this file; test/codec-time-away-agrees.test.ts holds this copy to them.
  // The absence: now - savedAt when both are known (nonzero) and now is later, clamped to seven
  // days. The difference is formed from the halves; it is exact whenever it is below 2^53, and a
  // larger one (where rounding could creep in) keeps its sign and is clamped anyway.
  // For a number (the boot passes one), clockValue is written out: below 1 it is 0 (unknown) once
  // its fraction is dropped, and up to 2^53 - 1 the difference with the stamp's value is exact; a
  // stamp of 2^53 or more rounds but stays above any such now, as the halves' difference does.
  let absence = 0;
  let diff = 0;
  if (typeof nowMs === "number") {
    if (nowMs >= 1 && nowMs <= MAX_SAFE && (savedAt.hi !== 0 || savedAt.lo !== 0)) diff = Math.floor(nowMs) - (savedAt.hi * TWO_POW_32 + savedAt.lo);
  } else {
    const now = clockValue(nowMs);
    if (now !== null && (now.hi !== 0 || now.lo !== 0) && (savedAt.hi !== 0 || savedAt.lo !== 0)) diff = (now.hi - savedAt.hi) * TWO_POW_32 + (now.lo - savedAt.lo);
  }
  if (diff > 0) absence = diff > ABSENCE_CLAMP_MS ? ABSENCE_CLAMP_MS : diff;
  // The world clock: the stored one plus the absence (below 2^32, so at most one carry).
  let lo = (WORD_VIEWS ? (shifted![SHIFTED_ELAPSED] as number) : dv!.getUint32(OFFSET_ELAPSED, true)) + absence;
  let hi = WORD_VIEWS ? (shifted![SHIFTED_ELAPSED + 1] as number) : dv!.getUint32(OFFSET_ELAPSED + 4, true);
  if (lo >= TWO_POW_32) {
    lo -= TWO_POW_32;
    hi++;
  }
  if (hi >= TWO_POW_32) return rejected("clock-overflow", savedAt);

  // Assembled in a fresh object so a rejection cannot leave a half-loaded world behind. The world
  // judged is the one the caller would get: its clock already includes the absence, so a since
  // stamp up to elapsed + absence is accepted (the contract's last step judges the assembled world,
  // not the stored fields). Whether such a payload loads therefore depends on `now`. Every other
  // rule of validateWorld was checked above, so the stamps are what is left to judge.
  const world: World = {
    name: new Uint8Array(name),
    activity: activity,
    expression: expression,
    activitySince: WORD_VIEWS
      ? { hi: words![WORD_ACTIVITY_SINCE + 1] as number, lo: words![WORD_ACTIVITY_SINCE] as number }
      : { hi: dv!.getUint32(OFFSET_ACTIVITY_SINCE + 4, true), lo: dv!.getUint32(OFFSET_ACTIVITY_SINCE, true) },
    expressionSince: WORD_VIEWS
      ? { hi: words![WORD_EXPRESSION_SINCE + 1] as number, lo: words![WORD_EXPRESSION_SINCE] as number }
      : { hi: dv!.getUint32(OFFSET_EXPRESSION_SINCE + 4, true), lo: dv!.getUint32(OFFSET_EXPRESSION_SINCE, true) },
    elapsed: { hi: hi, lo: lo },
    updateCount: WORD_VIEWS
      ? { hi: shifted![SHIFTED_UPDATE_COUNT + 1] as number, lo: shifted![SHIFTED_UPDATE_COUNT] as number }
      : { hi: dv!.getUint32(OFFSET_UPDATE_COUNT + 4, true), lo: dv!.getUint32(OFFSET_UPDATE_COUNT, true) },
  };
  // The world's since-stamp rule at the clock with the time away (test/codec-validates-assembled-world.test.ts):
  // sinceStampsWithin(world, hi, lo), written out.
  const as = world.activitySince;
  const es = world.expressionSince;
  if (as.hi > hi || (as.hi === hi && as.lo > lo) || es.hi > hi || (es.hi === hi && es.lo > lo)) return rejected("invalid-world", savedAt);

  const result = typeof into === "object" && into !== null ? copyWorld(into, world) : world;
  return { status: "ok", world: result, savedAt: savedAt, absenceMs: absence };
}

/**
 * The time-away rule of the format: how long the pet was away between a save stamped `savedAtMs` and
 * the wall clock `nowMs` (UTC ms; 0 means unknown): nowMs - savedAtMs when both are known and now is
 * later, at most ABSENCE_CLAMP_MS (seven days); 0 otherwise. loadWorld adds it at every load, over
 * the payload's u64 halves (written out there, exact for any stamp; test/codec-time-away-agrees.test.ts
 * holds the two equal); the firmware also when the wall clock becomes known only after the boot
 * (firmware/clock.ts lateAbsenceMs). One expression, so that the build writes it into that one caller.
 */
export function absenceMs(savedAtMs: number, nowMs: number): number {
  return savedAtMs > 0 && nowMs > savedAtMs ? Math.min(nowMs - savedAtMs, ABSENCE_CLAMP_MS) : 0;
}

/**
 * Adds `ms` of time away (0 to ABSENCE_CLAMP_MS, a whole number) to the world clock, carrying into
 * its high half. False, with the world unchanged, when the clock would pass 2^64 - 1: a load
 * refuses such a save as "clock-overflow".
 */
export function addTimeAway(world: World, ms: number): boolean {
  const e = world.elapsed;
  let lo = e.lo + ms;
  let hi = e.hi;
  if (lo >= TWO_POW_32) {
    lo -= TWO_POW_32;
    hi++;
  }
  if (hi >= TWO_POW_32) return false;
  world.elapsed = { hi: hi, lo: lo };
  return true;
}

/**
 * The slot log's validity check for a stored payload, wherever a region is read: the codec accepts
 * it judged without a wall clock, so which save counts as the newest never depends on when it is
 * read. The firmware's store answers the same from the one decode the boot makes at its wall clock
 * (firmware/store.ts; test/codec-time-away-agrees.test.ts holds the two equal).
 */
export function isLoadablePayload(payload: Uint8Array): boolean {
  return loadWorld(payload, 0).status === "ok";
}
