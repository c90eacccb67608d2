/** `pet-save encode JSONFILE -o OUT`: build a payload from decode's JSON form. */
import { saveWorld } from "../../../save/codec";
import { parseCommandArgs } from "./args";
import { rejected, type Command } from "./command";
import { CliError, EXIT_OK, EXIT_REJECTED, INPUT_LIMITS, readInput, usageError, writeOutput } from "./io";
import { worldFromJson } from "./worldJson";

export const encodeCommand: Command = {
  name: "encode",
  summary: "write the 84-byte payload for a JSON object like decode --json prints",
  usage: "encode JSONFILE -o OUT",
  async run(args, io) {
    const parsed = parseCommandArgs(args, { out: { type: "string", short: "o" } }, 1);
    const out = parsed.values.out;
    if (typeof out !== "string" || out === "") throw usageError("encode needs -o OUT (use -o - for stdout)");
    const source = parsed.positionals[0] as string;
    const text = new TextDecoder().decode(await readInput(source, io, INPUT_LIMITS.json));
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch (e) {
      throw new CliError(EXIT_REJECTED, source + " is not valid JSON: " + (e instanceof Error ? e.message : String(e)));
    }
    const { world, savedAt } = worldFromJson(input);
    const saved = saveWorld(world, savedAt);
    if (saved.status !== "ok" || saved.bytes === null) throw rejected(saved.status);
    await writeOutput(out, saved.bytes, io);
    return EXIT_OK;
  },
};
