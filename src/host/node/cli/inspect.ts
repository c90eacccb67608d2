/**
 * `pet-save inspect FILE [--json] [--all] [--board FILE]`: what a file holds.
 *
 * An 84-byte file, or a hex text file, is a payload and is shown exactly as `decode` shows it. Anything else is taken as
 * a region image (offset 0 = the first byte of a board's pet region; the board is --board or the
 * profile in boards/ whose region has the file's size), or a dump of a whole chip's flash holding
 * a board's region at its address (esptool's read_flash, the emulated ESP32's flash file): the save
 * the firmware would restore, and every sector and slot with its state. Runs of erased slots and sectors are folded into one row
 * unless --all.
 * Exit status 1 when the region holds data but no readable save (damaged or foreign).
 */
import { relative } from "node:path";
import { parseCommandArgs } from "./args";
import type { Command } from "./command";
import { showPayload } from "./decode";
import { U64_ZERO } from "../../../core/u64";
import { CliError, EXIT_OK, EXIT_REJECTED, inputName, readImageInput } from "./io";
import { chipBoardFinder, notARegion, readRegion, regionBoardFinder } from "./regionFile";
import { classifyFile } from "../../../inspect/fileKind";
import { regionJson, regionText } from "../../../inspect/regionReport";

export const inspectCommand: Command = {
  name: "inspect",
  summary: "show a payload, or every sector and slot of a region image and which save is current",
  usage: "inspect IMAGE|PAYLOAD [--json] [--all] [--board FILE]",
  help: {
    about:
      "Show what a backup holds. A region image: the save the firmware would restore at boot, then every sector\n" +
      "and slot (valid, torn by a power cut, invalid, erased). A payload (84 bytes or hex text): its fields,\n" +
      "as decode prints them. The board is the profile in boards/ whose region has the image's size. A dump of\n" +
      "a whole chip's flash (esptool.py read_flash 0 0x400000 dump.bin) is read at the region's address.",
    options: [
      ["IMAGE|PAYLOAD", "the file, or - to read it from stdin"],
      ["--json", "one JSON object instead of the report"],
      ["--all", "list every erased slot and sector instead of folding runs of them into one row"],
      ["--board FILE", "the board profile whose region the image is (when its size does not say)"],
    ],
    examples: ["pet-save inspect pet-region.bin", "pet-save inspect board.bin --json --board boards/esp32.json", "pet-save inspect flash-dump.bin"],
    exits: [
      [0, "shown (an image with a current save, or an erased one)"],
      [1, "the image holds data but no readable save, the payload is rejected, or the file is unreadable"],
    ],
  },
  async run(args, io) {
    const parsed = parseCommandArgs(args, { json: { type: "boolean" }, all: { type: "boolean" }, board: { type: "string" } }, 1);
    const path = parsed.positionals[0] as string;
    const boardOption = parsed.values.board as string | undefined;
    const bytes = await readImageInput(path, io);
    // What the file is, told once (src/inspect/fileKind.ts); then it is read as that.
    const k = classifyFile(bytes, inputName(path), regionBoardFinder(boardOption), chipBoardFinder(boardOption));
    if (k.kind === "bad-hex") throw new CliError(EXIT_REJECTED, k.message);
    if (k.kind === "payload") return showPayload(k.bytes, U64_ZERO, parsed.values.json === true, io);
    if (k.kind === "neither") throw notARegion(bytes.length, boardOption, path);
    const region = k.kind === "chip" ? bytes.subarray(k.offset, k.offset + k.board.profile.petRegion.size) : bytes;
    const contents = readRegion(region, k.board);
    if (contents.scan.status !== "ok") throw new CliError(EXIT_REJECTED, path + ": could not read the image (" + contents.scan.status + ")");
    const j = regionJson(contents);
    const name = k.kind === "chip" ? path + " (the pet region at 0x" + k.offset.toString(16) + " of a " + bytes.length / 1048576 + " MiB flash dump)" : path;
    io.writeStdout(parsed.values.json ? JSON.stringify(k.kind === "chip" ? { ...j, chipOffset: k.offset } : j) + "\n" : regionText(j, name, parsed.values.all === true, relative(process.cwd(), j.boardFile)));
    // An erased region is simply unused; one with no readable save is damaged or foreign: exit 1.
    if (j.current.status === "ok" || j.current.status === "empty") return EXIT_OK;
    io.writeStderr(path + ": no readable save in this region (" + j.current.status + ")\n");
    return EXIT_REJECTED;
  },
};
