/**
 * The JSON form of a payload: what `pet-save decode --json` prints and what the firmware's
 * pet.status() returns, built here once so the two cannot drift apart. One flat object; u64 values
 * are decimal strings (a JSON number, and an Espruino number, cannot hold 2^64 - 1 exactly);
 * activity and expression are numbers with their names beside them; the name is given as text and
 * as its exact bytes in hex.
 *
 * Runs on the device: ES5 only (the bundle checks of docs/firmware.md hold it to that).
 */
import { ACTIVITY_NAMES, EXPRESSION_NAMES, type World } from "../core/types";
import { bytesToHex } from "../core/hex";
import { utf8Decode } from "../core/name";
import { TWO_POW_32, u64ToDecimal, type U64 } from "../core/u64";
import { FORMAT_VERSION } from "./layout";

export interface PayloadJson {
  formatVersion: number;
  elapsedMs: string;
  updateCount: string;
  savedAtMs: string;
  activity: number;
  activityName: string;
  expression: number;
  expressionName: string;
  activitySinceMs: string;
  expressionSinceMs: string;
  name: string;
  nameHex: string;
}

/** The keys of a PayloadJson in the order they are printed; `pet-save encode` accepts these and no others. */
export const PAYLOAD_JSON_KEYS: readonly (keyof PayloadJson)[] = [
  "formatVersion",
  "elapsedMs",
  "updateCount",
  "savedAtMs",
  "activity",
  "activityName",
  "expression",
  "expressionName",
  "activitySinceMs",
  "expressionSinceMs",
  "name",
  "nameHex",
];

/**
 * The activity's name, or "activity N" for a number this version does not know. The number stays
 * in the words because a console line or the display shows only the name; "unknown" alone would
 * hide which value it was. (A world from loadWorld never has one; this covers a world built by hand.)
 */
export function activityName(activity: number): string {
  const n = ACTIVITY_NAMES[activity];
  return typeof n === "string" ? n : "activity " + activity;
}

/** The expression's name, or "expression N" for a number this version does not know (see activityName). */
export function expressionName(expression: number): string {
  const n = EXPRESSION_NAMES[expression];
  return typeof n === "string" ? n : "expression " + expression;
}

/**
 * The JSON object for `world`, whose save carries the stamp `savedAt`. `name` is the UTF-8 reading of
 * the bytes (bad sequences become U+FFFD, as in TextDecoder), or `nameText` when the caller has read
 * them already (the firmware reads them with the interpreter's own UTF-8 support); `nameHex` is exact.
 */
export function payloadJson(world: World, savedAt: U64, nameText?: string): PayloadJson {
  // pet.status() runs this on the device, where every call costs more than the work it does: each
  // decimal is u64ToDecimal's own shortcut for values below 2^53 (the call only above), and each name
  // the table's (activityName or expressionName only for a number the table lacks). 
  // test/payload-json-agrees.test.ts holds these to the functions they stand for (fast-check).
  const e = world.elapsed;
  const c = world.updateCount;
  const a = world.activitySince;
  const x = world.expressionSince;
  const an = ACTIVITY_NAMES[world.activity];
  const xn = EXPRESSION_NAMES[world.expression];
  return {
    formatVersion: FORMAT_VERSION,
    elapsedMs: e.hi < 0x200000 ? String(e.hi * TWO_POW_32 + e.lo) : u64ToDecimal(e),
    updateCount: c.hi < 0x200000 ? String(c.hi * TWO_POW_32 + c.lo) : u64ToDecimal(c),
    savedAtMs: savedAt.hi < 0x200000 ? String(savedAt.hi * TWO_POW_32 + savedAt.lo) : u64ToDecimal(savedAt),
    activity: world.activity,
    activityName: typeof an === "string" ? an : activityName(world.activity),
    expression: world.expression,
    expressionName: typeof xn === "string" ? xn : expressionName(world.expression),
    activitySinceMs: a.hi < 0x200000 ? String(a.hi * TWO_POW_32 + a.lo) : u64ToDecimal(a),
    expressionSinceMs: x.hi < 0x200000 ? String(x.hi * TWO_POW_32 + x.lo) : u64ToDecimal(x),
    name: nameText === undefined ? utf8Decode(world.name) : nameText,
    nameHex: bytesToHex(world.name),
  };
}
