/**
 * `pet-save push [--port P] IMAGE|PAYLOAD [--board FILE]`: restores a backup onto a running board
 * (without --port, the one ESP32 board plugged in, as `npm run upload` finds it).
 *
 * The file is checked first and nothing is sent unless it passes: a payload (84 bytes, or its hex
 * text) must pass
 * loadWorld; a region image must hold a current save (the one the firmware would restore). Then the
 * board is asked what it is, and refused when the profile (--board, else env BOARD, else
 * boards/esp32.json) does not fit it (boardSession.ts). Either way what is sent is one payload,
 * through the firmware's own `pet.importHex(hex)` (the console protocol's pet call,
 * src/boards/consoleProtocol.ts), which checks it again, makes it the live pet and saves it as the
 * newest slot of the board's log. The region is never rewritten wholesale: the running firmware owns
 * it, and its older saves stay as they were.
 */
import { bytesToHex } from "../../../core/hex";
import { loadWorld } from "../../../save/codec";
import { NO_PET, parseResult, petCallCommand, type Exchange } from "../../../boards/consoleProtocol";
import { parseCommandArgs } from "./args";
import { rejected, type Command } from "./command";
import { withFittingBoard } from "./boardSession";
import { CliError, EXIT_OK, EXIT_REJECTED, inputName, readImageInput, usageError, type CliIo } from "./io";
import { chipBoardFinder, currentPayload, notARegion, readProfile, readRegion, regionBoardFinder } from "./regionFile";
import { classifyFile } from "../../../inspect/fileKind";
import { profileFileFor } from "../boardProfiles";

/** The payload a file would push, or a CliError (exit 1) saying why it must not be pushed. */
export function payloadToPush(file: Uint8Array, path: string, boardOption: string | undefined, nowMs: number): Uint8Array {
  // What the file is, told once (src/inspect/fileKind.ts); then it is read as that.
  const k = classifyFile(file, inputName(path), regionBoardFinder(boardOption), chipBoardFinder(boardOption));
  if (k.kind === "bad-hex") throw new CliError(EXIT_REJECTED, k.message);
  if (k.kind === "neither") throw notARegion(file.length, boardOption, path);
  if (k.kind === "region") return currentPayload(readRegion(file, k.board), path);
  if (k.kind === "chip") return currentPayload(readRegion(file.subarray(k.offset, k.offset + k.board.profile.petRegion.size), k.board), path);
  const loaded = loadWorld(k.bytes, nowMs);
  if (loaded.status !== "ok") {
    const e = rejected(loaded.status, k.bytes);
    throw new CliError(e.exitCode, path + ": " + e.message + "\nnothing was sent to the board");
  }
  return k.bytes;
}

/** How long the board may take over the import (it checks the payload and saves it). */
const IMPORT_MS = 20_000;

/** Pushes `payload` over `exchange` (the board's console; the tests pass a stand-in). Returns the exit code. */
export async function pushWith(exchange: Exchange, payload: Uint8Array, path: string, io: CliIo): Promise<number> {
  let answer: string;
  try {
    answer = await exchange(petCallCommand("importHex", [bytesToHex(payload)]), parseResult, IMPORT_MS, "pet.importHex()");
  } catch {
    throw new CliError(EXIT_REJECTED, "the board gave no answer to the import (is the pet firmware running?)");
  }
  if (answer === "ok") {
    io.writeStderr("pushed " + path + ": the board imported it and saved it as its newest save\n");
    return EXIT_OK;
  }
  if (answer === NO_PET) throw new CliError(EXIT_REJECTED, "the board has no pet console: the pet firmware is not running on it");
  throw new CliError(EXIT_REJECTED, "the board refused the import: " + answer);
}

export const pushCommand: Command = {
  name: "push",
  summary: "check a payload or region image, then import its save on a running board (pet.importHex)",
  usage: "push [--port P] IMAGE|PAYLOAD [--board FILE]",
  help: {
    about:
      "Restore a backup on a running board: the file is checked first (a payload must load; an image must have\n" +
      "a current save) and nothing is sent unless it passes. The save goes to the firmware's\n" +
      "pet.importHex(), which checks it again, makes it the live pet and saves it as the board's newest save.\n" +
      "Without --port: the one ESP32 board plugged in.",
    options: [
      ["IMAGE|PAYLOAD", "the backup: a region image (its current save is sent) or a payload, or - for stdin"],
      ["-p, --port P", "the board's serial port (/dev/ttyUSB0, COM3) or tcp://HOST:PORT; `npm run upload -- --list` lists ports"],
      ["--board FILE", "the board profile the board must fit (default: env BOARD, else boards/esp32.json), and whose region an image is (when its size does not say)"],
    ],
    examples: ["pet-save push board.bin", "pet-save push --port /dev/ttyUSB0 pip.pay"],
    exits: [
      [0, "the board imported and saved it"],
      [1, "the file was refused (nothing sent), no board, the port is not a serial port, the board does not fit the profile, or the board refused or never answered"],
    ],
  },
  async run(args, io) {
    const parsed = parseCommandArgs(args, { port: { type: "string", short: "p" }, board: { type: "string" } }, 1);
    const port = parsed.values.port;
    if (port === "") throw usageError("push --port needs a serial device, COMn or tcp://host:port (or leave it out for the one ESP32 board plugged in)");
    const path = parsed.positionals[0] as string;
    const boardOption = parsed.values.board as string | undefined;
    const payload = payloadToPush(await readImageInput(path, io), path, boardOption, Date.now());
    const board = readProfile(profileFileFor(boardOption));
    const tell = (line: string): void => io.writeStderr(line + "\n");
    return withFittingBoard(typeof port === "string" ? port : undefined, board, { doing: "push to", untouched: "Nothing was sent.", tell }, (con) =>
      pushWith(con.exchange, payload, path, io),
    );
  },
};
