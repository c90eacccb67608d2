/**
 * `pet-save pull [--port P] -o IMAGE [--board FILE]`: copies a board's pet region into an image file,
 * as a backup. Without --port, the one ESP32 board plugged in (as `npm run upload` finds it). The
 * region's address and size come from the board profile (--board, else env BOARD, else
 * boards/esp32.json), which the board must fit (asked first: boardSession.ts).
 *
 * The board's program, the check of its output and the pull over the console are
 * src/inspect/regionPull.ts (shared with board-check, the soak and the web page). The image is
 * written, atomically, only when every chunk arrived exactly once with a matching CRC; anything less
 * is an error and nothing is written.
 */
import { pullOver, PullError, pullProgram } from "../../../inspect/regionPull";
import { BAUD, type Exchange } from "../../../boards/consoleProtocol";
import { parseCommandArgs } from "./args";
import type { Command } from "./command";
import { withFittingBoard } from "./boardSession";
import { CliError, EXIT_OK, EXIT_REJECTED, lockOutput, usageError, writeOutput, type CliIo } from "./io";
import { readProfile, readRegion, type LoadedProfile } from "./regionFile";
import { profileFileFor } from "../boardProfiles";

/** Pulls the region of `board` over `exchange` (the board's console; the tests pass a stand-in) into `out`. Returns the exit code. */
export async function pullWith(exchange: Exchange, board: LoadedProfile, out: string, io: CliIo): Promise<number> {
  const r = board.profile.petRegion;
  let image: Uint8Array;
  try {
    image = await pullOver(exchange, pullProgram(r.address, r.size), r.size);
  } catch (e) {
    if (e instanceof PullError) throw new CliError(EXIT_REJECTED, e.message);
    throw e;
  }
  await writeOutput(out, image, io);
  const c = readRegion(image, board);
  const summary =
    c.current.status === "ok" ? "current save at sector " + c.current.sector + " slot " + c.current.slot : "warning: no readable save in it (" + c.current.status + ")";
  io.writeStderr("pulled " + r.size + " bytes of the " + board.profile.name + " pet region into " + out + "; " + summary + "\n");
  return EXIT_OK;
}

export const pullCommand: Command = {
  name: "pull",
  summary: "copy a board's pet region into an image file (a backup), over its console",
  usage: "pull [--port P] -o IMAGE [--board FILE]",
  help: {
    about:
      "Copy a running board's pet region into an image file (a backup), over its Espruino console: the board\n" +
      "is asked what it is first (a board the profile does not fit is refused), then reads its flash in chunks\n" +
      "and prints each with its CRC; the image is written, atomically, only when every chunk arrived intact.\n" +
      "Without --port: the one ESP32 board plugged in. Takes about ten seconds over " + BAUD + "-baud serial; the\n" +
      "pet keeps running.",
    options: [
      ["-p, --port P", "the board's serial port (/dev/ttyUSB0, COM3) or tcp://HOST:PORT; `npm run upload -- --list` lists ports"],
      ["-o, --output IMAGE", "the image file to write"],
      ["--board FILE", "the board profile that says where the region is (default: env BOARD, else boards/esp32.json)"],
    ],
    examples: ["pet-save pull -o board.bin", "pet-save pull --port /dev/ttyUSB0 -o board.bin"],
    exits: [
      [0, "the image is written"],
      [1, "no board, the port is not a serial port, the board did not answer or does not fit the profile, or the copy was incomplete; nothing written"],
    ],
  },
  async run(args, io) {
    const parsed = parseCommandArgs(args, { port: { type: "string", short: "p" }, output: { type: "string", short: "o" }, board: { type: "string" } }, 0);
    const port = parsed.values.port;
    const out = parsed.values.output;
    if (port === "") throw usageError("pull --port needs a serial device, COMn or tcp://host:port (or leave it out for the one ESP32 board plugged in)");
    if (typeof out !== "string" || out === "") throw usageError("pull needs -o IMAGE (the file to write)");
    const board = readProfile(profileFileFor(typeof parsed.values.board === "string" ? parsed.values.board : undefined));
    // The image is held from the start: a program running on it (npm start) is named at once, before
    // the board is looked for, and nothing starts writing it while the transfer runs.
    const lock = out === "-" ? null : await lockOutput(out);
    try {
      const tell = (line: string): void => io.writeStderr(line + "\n");
      return await withFittingBoard(typeof port === "string" ? port : undefined, board, { doing: "pull from", untouched: "Nothing was read or written.", tell }, (con) =>
        pullWith(con.exchange, board, out, io),
      );
    } finally {
      if (lock !== null) lock.release();
    }
  },
};
