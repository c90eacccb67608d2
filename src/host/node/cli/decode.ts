/** `pet-save decode PAYLOAD [--now MS] [--json]`: show a payload's fields (binary or hex text), or reject it. */
import { loadWorld } from "../../../save/codec";
import type { U64 } from "../../../core/u64";
import { payloadText } from "../../../inspect/payloadReport";
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
  help: {
    about:
      "Print the fields of one save: the pet's name, activity, expression, clock and update count, and when\n" +
      "it was saved. PAYLOAD is 84 binary bytes or their hex text (pet.exportHex()), or - for stdin. A payload\n" +
      "the firmware would refuse is not printed; stderr says why (rejected: <status>).",
    options: [
      ["PAYLOAD", "the payload file, or - to read it from stdin"],
      ["--now MS", "judge it against this clock (milliseconds since 1970): elapsed then includes the time away, as at boot"],
      ["--json", "print one JSON object (the form `encode` reads back) instead of lines"],
    ],
    examples: ["pet-save decode pip.pay", "pet-save decode pip.hex --now $(date +%s000) --json"],
    exits: [
      [0, "printed"],
      [1, "rejected (the status and why on stderr) or unreadable"],
    ],
  },
  async run(args, io) {
    const parsed = parseCommandArgs(args, { now: { type: "string" }, json: { type: "boolean" } }, 1);
    const now = nowOption(parsed.values.now);
    const input = await readPayloadInput(parsed.positionals[0] as string, io, INPUT_LIMITS.payload);
    return showPayload(input.bytes, now, parsed.values.json === true, io);
  },
};
