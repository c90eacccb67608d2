/**
 * `pet-save extract IMAGE -o PAYLOAD [--board FILE]`: the region image's current save (the one the
 * firmware would restore at boot) as an 84-byte payload file, written atomically. IMAGE may also be
 * a dump of a whole chip's flash, read at the region's address. An image with no
 * current save is refused with exit status 1 and nothing is written.
 */
import { parseCommandArgs } from "./args";
import type { Command } from "./command";
import { CliError, EXIT_OK, EXIT_REJECTED, readImageInput, usageError, writeOutput } from "./io";
import { currentPayload, readRegion, regionOfFile } from "./regionFile";
import { PAYLOAD_LENGTH } from "../../../save/layout";

export const extractCommand: Command = {
  name: "extract",
  summary: "write a region image's current save as an 84-byte payload file (atomically)",
  usage: "extract IMAGE -o PAYLOAD [--board FILE]",
  help: {
    about:
      "Write a region image's current save (the one the firmware would restore at boot) as an 84-byte payload\n" +
      "file, atomically. An image without a readable save is refused and nothing is written.",
    options: [
      ["IMAGE", "the region image, or - to read it from stdin"],
      ["-o, --output PAYLOAD", "the payload file to write, or - for stdout"],
      ["--board FILE", "the board profile whose region the image is (when its size does not say)"],
    ],
    examples: ["pet-save extract pet-region.bin -o pip.pay"],
    exits: [
      [0, "written"],
      [1, "no current save in the image, or the file could not be read or written; nothing written"],
    ],
  },
  async run(args, io) {
    const parsed = parseCommandArgs(args, { output: { type: "string", short: "o" }, board: { type: "string" } }, 1);
    const out = parsed.values.output;
    if (typeof out !== "string" || out === "") throw usageError("extract needs -o PAYLOAD (the file to write, or - for stdout)");
    const path = parsed.positionals[0] as string;
    const bytes = await readImageInput(path, io);
    if (bytes.length === PAYLOAD_LENGTH) {
      throw new CliError(EXIT_REJECTED, path + " is already an " + PAYLOAD_LENGTH + "-byte payload, not a region image");
    }
    const found = regionOfFile(bytes, parsed.values.board as string | undefined, path, path);
    const contents = readRegion(found.bytes, found.board);
    const payload = currentPayload(contents, path);
    await writeOutput(out, payload, io);
    if (out !== "-") {
      io.writeStderr(
        "extracted sector " + contents.current.sector + " slot " + contents.current.slot + " of " + path + found.where + " to " + out + "\n",
      );
    }
    return EXIT_OK;
  },
};
