/**
 * A payload's fields as `pet-save decode` prints them, one "label: value" row each. Host-neutral:
 * the command line and the web page's file view show a payload with the same words.
 */
import { ABSENCE_CLAMP_MS } from "../save/layout";
import { u64IsSafe, u64ToNumber, type U64 } from "../core/u64";
import type { PayloadJson } from "../save/payloadJson";

/** The save stamp with its UTC date when it is a plausible epoch time. */
function describeSavedAt(savedAt: U64, decimal: string): string {
  if (decimal === "0") return "0 (unknown)";
  if (!u64IsSafe(savedAt)) return decimal;
  const date = new Date(u64ToNumber(savedAt));
  return isNaN(date.getTime()) ? decimal : decimal + " (" + date.toISOString() + ")";
}

export function payloadText(j: PayloadJson, savedAt: U64, absenceMs: number): string {
  const rows: Array<[string, string]> = [
    ["format version", String(j.formatVersion)],
    ["name", JSON.stringify(j.name) + " (" + j.nameHex.length / 2 + " bytes, hex " + j.nameHex + ")"],
    ["elapsed", j.elapsedMs + " ms" + (absenceMs > 0 ? " (includes " + absenceMs + " ms away)" : "")],
    ["update count", j.updateCount],
    ["saved at", describeSavedAt(savedAt, j.savedAtMs)],
    ["activity", j.activity + " (" + j.activityName + ") since " + j.activitySinceMs + " ms"],
    ["expression", j.expression + " (" + j.expressionName + ") since " + j.expressionSinceMs + " ms"],
  ];
  if (absenceMs === ABSENCE_CLAMP_MS) rows.push(["note", "time away was clamped to 7 days"]);
  let out = "";
  for (const [label, value] of rows) out += (label + ":").padEnd(16) + value + "\n";
  return out;
}

