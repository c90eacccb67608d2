/** `pet-save verify FILE [--now MS]`: exit 0 and print "ok" when the payload would load. */
import { loadWorld } from "../../../save/codec";
import { nowOption, parseCommandArgs } from "./args";
import { rejected, type Command } from "./command";
import { EXIT_OK, INPUT_LIMITS, readInput } from "./io";

export const verifyCommand: Command = {
  name: "verify",
  summary: 'check a payload; prints "ok" and exits 0 when it is accepted',
  usage: "verify FILE [--now MS]",
  async run(args, io) {
    const parsed = parseCommandArgs(args, { now: { type: "string" } }, 1);
    const now = nowOption(parsed.values.now);
    const result = loadWorld(await readInput(parsed.positionals[0] as string, io, INPUT_LIMITS.payload), now);
    if (result.status !== "ok") throw rejected(result.status);
    io.writeStdout("ok\n");
    return EXIT_OK;
  },
};
