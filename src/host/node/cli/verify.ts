/** `pet-save verify PAYLOAD [--now MS]`: exit 0 and print "ok" when the payload would load. */
import { loadWorld } from "../../../save/codec";
import { nowOption, parseCommandArgs } from "./args";
import { rejected, type Command } from "./command";
import { EXIT_OK, INPUT_LIMITS, readPayloadInput } from "./io";

export const verifyCommand: Command = {
  name: "verify",
  summary: 'check a payload; prints "ok" and exits 0 when it is accepted',
  usage: "verify PAYLOAD [--now MS]",
  help: {
    about: "Check that a payload would load: print \"ok\" when the firmware would accept it, or the reason it would not.",
    options: [
      ["PAYLOAD", "the payload file (binary or hex text), or - to read it from stdin"],
      ["--now MS", "judge it against this clock (milliseconds since 1970), as a boot at that time would"],
    ],
    examples: ["pet-save verify pip.pay && echo good"],
    exits: [
      [0, "ok: it would load"],
      [1, "rejected (the status and why on stderr) or unreadable"],
    ],
  },
  async run(args, io) {
    const parsed = parseCommandArgs(args, { now: { type: "string" } }, 1);
    const now = nowOption(parsed.values.now);
    const input = await readPayloadInput(parsed.positionals[0] as string, io, INPUT_LIMITS.payload);
    const result = loadWorld(input.bytes, now);
    if (result.status !== "ok") throw rejected(result.status, input.bytes);
    io.writeStdout("ok\n");
    return EXIT_OK;
  },
};
