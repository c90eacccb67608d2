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
  help: {
    about:
      "Write the 84-byte payload for a JSON object of the shape `decode --json` prints (edit one field, encode\n" +
      "it back). Every field is checked and the world must be one the firmware would load; nothing is written\n" +
      "otherwise. OUT is written atomically (a temporary file renamed into place).",
    options: [
      ["JSONFILE", "the JSON object, or - to read it from stdin"],
      ["-o, --out OUT", "the payload file to write, or - for stdout"],
    ],
    examples: ["pet-save decode pip.pay --json > pip.json && pet-save encode pip.json -o pip2.pay"],
    exits: [
      [0, "written"],
      [1, "a field or the world was rejected, or the file could not be read or written; nothing written"],
    ],
  },
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
