/** `pet-save decode PAYLOAD [--now MS] [--json]`: show a payload's fields (binary or hex text), or reject it. */
import { loadWorld } from "../../../save/codec";
import type { U64 } from "../../../core/u64";
import { payloadText } from "../../files/payloadReport";
import { nowOption, parseCommandArgs } from "./args";
import { rejected, type Command } from "./command";
import { EXIT_OK, INPUT_LIMITS, readPayloadInput, type CliIo } from "./io";
import { payloadJson } from "../../../save/payloadJson";

/** Prints a payload's fields (JSON or readable), or throws the rejection. inspect shows payloads this way too. */
export function showPayload(bytes: Uint8Array, now: U64, json: boolean, io: CliIo): number {
  const result = loadWorld(bytes, now);
  if (result.status !== "ok" || result.world === null) throw rejected(result.status, bytes);
  const j = payloadJson(result.world, result.savedAt);
  io.writeStdout(json ? JSON.stringify(j) + "\n" : payloadText(j, result.savedAt, result.absenceMs));
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
