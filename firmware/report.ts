/**
 * The words the firmware prints and returns: the pet.status() object and the console lines.
 */
import { ACTIVITY_NAMES, EXPRESSION_NAMES, type World } from "../src/core/types";
import { bytesToHex } from "../src/core/hex";
import { nameToString } from "../src/core/name";
import { u64ToDecimal, type U64 } from "../src/core/u64";
import { FORMAT_VERSION } from "../src/save/layout";

/**
 * What pet.status() returns: the same keys, in the same order and with the same value types, as
 * `pet-save decode --json` prints for a payload. u64 values are decimal strings (exact beyond 2^53).
 */
export interface PetStatus {
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

export function activityName(activity: number): string {
  const n = ACTIVITY_NAMES[activity];
  return typeof n === "string" ? n : "activity " + activity;
}

export function expressionName(expression: number): string {
  const n = EXPRESSION_NAMES[expression];
  return typeof n === "string" ? n : "expression " + expression;
}

/** The status object for `world`, whose last save carried the stamp `savedAt`. */
export function petStatus(world: World, savedAt: U64): PetStatus {
  return {
    formatVersion: FORMAT_VERSION,
    elapsedMs: u64ToDecimal(world.elapsed),
    updateCount: u64ToDecimal(world.updateCount),
    savedAtMs: u64ToDecimal(savedAt),
    activity: world.activity,
    activityName: activityName(world.activity),
    expression: world.expression,
    expressionName: expressionName(world.expression),
    activitySinceMs: u64ToDecimal(world.activitySince),
    expressionSinceMs: u64ToDecimal(world.expressionSince),
    name: nameToString(world.name),
    nameHex: bytesToHex(world.name),
  };
}

/** "Pip: playing, happy, updates 57" plus ", saved" (or ", save failed: x") when a save just ran. */
export function statusLine(world: World, saveNote: string): string {
  return (
    nameToString(world.name) +
    ": " +
    activityName(world.activity) +
    ", " +
    expressionName(world.expression) +
    ", updates " +
    u64ToDecimal(world.updateCount) +
    (saveNote === "" ? "" : ", " + saveNote)
  );
}

/** An error as one short line: Espruino's custom errors print as "[object Object]" otherwise. */
export function errorText(e: unknown): string {
  if (typeof e === "object" && e !== null) {
    const o = e as { name?: unknown; message?: unknown };
    if (typeof o.message === "string") return (typeof o.name === "string" ? o.name + ": " : "") + o.message;
  }
  return String(e);
}
