/** `pet-save decode PAYLOAD [--now MS] [--json]`: show a payload's fields (binary or hex text), or reject it. */
import { loadWorld } from "../../../save/codec";
import { ABSENCE_CLAMP_MS } from "../../../save/layout";
import { u64IsSafe, u64ToNumber, type U64 } from "../../../core/u64";
import { nowOption, parseCommandArgs } from "./args";
import { rejected, type Command } from "./command";
import { EXIT_OK, INPUT_LIMITS, readPayloadInput, type CliIo } from "./io";
import { payloadJson, type PayloadJson } from "../../../save/payloadJson";

/** The save stamp with its UTC date when it is a plausible epoch time. */
function describeSavedAt(savedAt: U64, decimal: string): string {
  if (decimal === "0") return "0 (unknown)";
  if (!u64IsSafe(savedAt)) return decimal;
  const date = new Date(u64ToNumber(savedAt));
  return isNaN(date.getTime()) ? decimal : decimal + " (" + date.toISOString() + ")";
}

function readable(j: PayloadJson, savedAt: U64, absenceMs: number): string {
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

/** Prints a payload's fields (JSON or readable), or throws the rejection. inspect shows payloads this way too. */
export function showPayload(bytes: Uint8Array, now: U64, json: boolean, io: CliIo): number {
  const result = loadWorld(bytes, now);
  if (result.status !== "ok" || result.world === null) throw rejected(result.status, bytes);
  const j = payloadJson(result.world, result.savedAt);
  io.writeStdout(json ? JSON.stringify(j) + "\n" : readable(j, result.savedAt, result.absenceMs));
  return EXIT_OK;
}

export const decodeCommand: Command = {
  name: "decode",
  summary: "print a payload's fields (elapsed includes the time away when --now is given)",
  usage: "decode PAYLOAD [--now MS] [--json]",
  async run(args, io) {
    const parsed = parseCommandArgs(args, { now: { type: "string" }, json: { type: "boolean" } }, 1);
    const now = nowOption(parsed.values.now);
    const input = await readPayloadInput(parsed.positionals[0] as string, io, INPUT_LIMITS.payload);
    return showPayload(input.bytes, now, parsed.values.json === true, io);
  },
};
