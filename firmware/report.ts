/**
 * The words the firmware prints: the console lines. The pet.status() object is
 * src/save/payloadJson.ts, shared with `pet-save decode --json`.
 */
import { ACTIVITY_NAMES, EXPRESSION_NAMES, type World } from "../src/core/types";
import { nameForDisplay } from "../src/core/name";
import { TWO_POW_32, u64ToDecimal, type U64 } from "../src/core/u64";
import { activityName, expressionName } from "../src/save/payloadJson";
import { STORAGE_ERROR, type SaveOutcome } from "./store";

/**
 * "Pip: playing, happy, updates 57" plus ", saved" (or ", save failed: x") when a save just ran.
 * `nameText` is nameForDisplay(world.name) when the caller has it already (the running pet keeps it
 * while the name does not change, so a line costs no UTF-8 decoding).
 *
 * A board without a panel prints this at every change and every save the pet makes itself (a
 * pet.save() that succeeds prints none: its answer says so), where a call costs more than
 * the work it does: the names are the tables' (activityName and expressionName only for a number the
 * tables lack) and the count is u64ToDecimal's shortcut below 2^53, as payloadJson does it;
 * test/firmware-status-line-agrees.test.ts holds it to those functions.
 */
export function statusLine(world: World, saveNote: string, nameText?: string): string {
  return statusHead(world, nameText === undefined ? nameForDisplay(world.name) : nameText) + statusTail(world.updateCount, saveNote);
}

/**
 * The status line's first part, "Pip: playing, happy", which changes only with the name, the activity
 * or the expression: the running pet keeps it between such changes (RunningPet.refresh_), so a save's
 * line builds only the rest.
 */
export function statusHead(world: World, nameText: string): string {
  const an = ACTIVITY_NAMES[world.activity];
  const xn = EXPRESSION_NAMES[world.expression];
  return nameText + ": " + (typeof an === "string" ? an : activityName(world.activity)) + ", " + (typeof xn === "string" ? xn : expressionName(world.expression));
}

/** The status line's rest: ", updates 57" and ", " + the note when there is one. */
export function statusTail(count: U64, saveNote: string): string {
  return ", updates " + (count.hi < 0x200000 ? String(count.hi * TWO_POW_32 + count.lo) : u64ToDecimal(count)) + (saveNote === "" ? "" : ", " + saveNote);
}

/** An error as one short line: Espruino's custom errors print as "[object Object]" otherwise. */
export function errorText(e: unknown): string {
  if (typeof e === "object" && e !== null) {
    const o = e as { name?: unknown; message?: unknown };
    if (typeof o.message === "string") return (typeof o.name === "string" ? o.name + ": " : "") + o.message;
  }
  return String(e);
}

/**
 * A failed save's outcome as the console says it: the status alone ("paused", "bad-name"), the
 * status and the storage's words in brackets ("verify-failed (the payload did not program ...)"), or
 * a broken store's error after its status ("storage-error Error: ..."). Built only when it is said;
 * a save that went through is just "ok".
 */
export function saveOutcomeText(o: SaveOutcome): string {
  const status = o.status;
  if (o.message === "") return status;
  return status === STORAGE_ERROR ? status + " " + o.message : status + " (" + o.message + ")";
}
