/**
 * `pet-save extract IMAGE -o PAYLOAD [--board FILE]`: the region image's current save (the one the
 * firmware would restore at boot) as an 84-byte payload file, written atomically. An image with no
 * current save is refused with exit status 1 and nothing is written.
 */
import { parseCommandArgs } from "./args";
import type { Command } from "./command";
import { CliError, EXIT_OK, EXIT_REJECTED, readImageInput, usageError, writeOutput } from "./io";
import { boardForImage, currentPayload, readRegion } from "./regionFile";
import { PAYLOAD_LENGTH } from "../../../save/layout";

export const extractCommand: Command = {
  name: "extract",
  summary: "write a region image's current save as an 84-byte payload file (atomically)",
  usage: "extract IMAGE -o PAYLOAD [--board FILE]",
  async run(args, io) {
    const parsed = parseCommandArgs(args, { output: { type: "string", short: "o" }, board: { type: "string" } }, 1);
    const out = parsed.values.output;
    if (typeof out !== "string" || out === "") throw usageError("extract needs -o PAYLOAD (the file to write, or - for stdout)");
    const path = parsed.positionals[0] as string;
    const bytes = await readImageInput(path, io);
    if (bytes.length === PAYLOAD_LENGTH) {
      throw new CliError(EXIT_REJECTED, path + " is already an " + PAYLOAD_LENGTH + "-byte payload, not a region image");
    }
    const contents = readRegion(bytes, boardForImage(bytes.length, parsed.values.board as string | undefined, path));
    const payload = currentPayload(contents, path);
    await writeOutput(out, payload, io);
    if (out !== "-") {
      io.writeStderr(
        "extracted sector " + contents.current.sector + " slot " + contents.current.slot + " of " + path + " to " + out + "\n",
      );
    }
    return EXIT_OK;
  },
};
