/**
 * `encode`'s input: the JSON form of a payload (src/save/payloadJson.ts, which `decode --json` prints)
 * read back into a world and a save stamp. Every field is checked with an error that names it.
 */
import { ACTIVITY_NAMES, EXPRESSION_NAMES, type World } from "../../../core/types";
import { MAX_SAFE, u64FromDecimal, u64FromNumber, type U64 } from "../../../core/u64";
import { utf8Decode, utf8Encode } from "../../../core/name";
import { hexToBytes } from "../../../core/hex";
import { FORMAT_VERSION } from "../../../save/layout";
import { PAYLOAD_JSON_KEYS } from "../../../save/payloadJson";
import { CliError, EXIT_REJECTED } from "./io";

function fieldError(key: string, problem: string): CliError {
  return new CliError(EXIT_REJECTED, "bad field " + key + ": " + problem);
}

/** A u64 field given as a decimal string or a safe non-negative integer. */
function u64Field(obj: { [k: string]: unknown }, key: string): U64 {
  const v = obj[key];
  if (v === undefined) throw fieldError(key, "missing");
  if (typeof v === "number") {
    const n = v <= MAX_SAFE ? u64FromNumber(v) : null;
    if (n === null) throw fieldError(key, "a number must be a non-negative integer up to 2^53 - 1; use a decimal string beyond");
    return n;
  }
  const s = typeof v === "string" ? u64FromDecimal(v) : null;
  if (s === null) throw fieldError(key, "expected a decimal string of a value from 0 to 2^64 - 1");
  return s;
}

/** An enumerated field given by number, by name, or by both when they agree. */
function enumField(obj: { [k: string]: unknown }, key: string, nameKey: string, names: readonly string[]): number {
  const v = obj[key];
  const n = obj[nameKey];
  if (v !== undefined && (typeof v !== "number" || Math.floor(v) !== v || v < 0 || v > 255)) {
    throw fieldError(key, "expected a number from 0 to 255");
  }
  if (n !== undefined && (typeof n !== "string" || names.indexOf(n) < 0)) {
    throw fieldError(nameKey, "expected one of " + names.join(", "));
  }
  if (v === undefined && n === undefined) throw fieldError(key, "missing (give " + key + " or " + nameKey + ")");
  if (v !== undefined && n !== undefined && names[v as number] !== n) {
    throw fieldError(nameKey, '"' + String(n) + '" does not name ' + key + " " + String(v));
  }
  // An unknown number is passed through so that saveWorld reports it with its proper status.
  return v !== undefined ? (v as number) : names.indexOf(n as string);
}

/** The name bytes from nameHex (exact) or name (UTF-8); when both are given they must agree. */
function nameField(obj: { [k: string]: unknown }): Uint8Array {
  const text = obj.name;
  const hex = obj.nameHex;
  if (text !== undefined && typeof text !== "string") throw fieldError("name", "expected a string");
  let bytes: Uint8Array | null = null;
  if (hex !== undefined) {
    bytes = typeof hex === "string" ? hexToBytes(hex) : null;
    if (bytes === null) throw fieldError("nameHex", "expected an even number of hex digits");
    // decode prints name as the UTF-8 reading of these bytes, so an untouched pair always agrees.
    if (text !== undefined && utf8Decode(bytes) !== text) {
      throw fieldError("name", "name and nameHex disagree; give only the one you changed");
    }
    return bytes;
  }
  if (text === undefined) throw fieldError("name", "missing (give name or nameHex)");
  // Any text is encoded; saveWorld then reports "bad-name" for an empty, too long or NUL-holding name.
  return utf8Encode(text as string);
}

/** The world and save stamp an `encode` input describes; malformed fields throw CliError. */
export function worldFromJson(input: unknown): { world: World; savedAt: U64 } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new CliError(EXIT_REJECTED, "expected one JSON object with the fields decode --json prints");
  }
  const obj = input as { [k: string]: unknown };
  for (const key of Object.keys(obj)) {
    if ((PAYLOAD_JSON_KEYS as readonly string[]).indexOf(key) < 0) throw fieldError(key, "unknown field");
  }
  if (obj.formatVersion !== undefined && obj.formatVersion !== FORMAT_VERSION) {
    throw fieldError("formatVersion", "only version " + FORMAT_VERSION + " can be written");
  }
  const world: World = {
    name: nameField(obj),
    activity: enumField(obj, "activity", "activityName", ACTIVITY_NAMES),
    expression: enumField(obj, "expression", "expressionName", EXPRESSION_NAMES),
    activitySince: u64Field(obj, "activitySinceMs"),
    expressionSince: u64Field(obj, "expressionSinceMs"),
    elapsed: u64Field(obj, "elapsedMs"),
    updateCount: u64Field(obj, "updateCount"),
  };
  return { world: world, savedAt: u64Field(obj, "savedAtMs") };
}
