/**
 * `pet-save pull [--port P] -o IMAGE [--board FILE]`: copies a board's pet region into an image file,
 * as a backup. Without --port, the one ESP32 board plugged in (as `npm run flash` finds it). The region's address and size come from the board profile (default boards/esp32.json).
 *
 * The board runs a short loop that reads the region with require("Flash").read in 256-byte chunks
 * and prints one line per chunk: offset, the bytes in base64 (btoa is native, so this is quick even
 * on the interpreter) and E.CRC32 of the chunk. The image is written, atomically, only when every
 * chunk arrived exactly once with a matching CRC; anything less is an error and nothing is written.
 */
import { crc32 as zlibCrc32 } from "node:zlib";
import { join } from "node:path";
import { parseCommandArgs } from "./args";
import type { Command } from "./command";
import { espruinoConsole, type DeviceConsole } from "./deviceConsole";
import { CliError, EXIT_OK, EXIT_REJECTED, usageError, writeOutput, type CliIo } from "./io";
import { BOARDS_DIR, readBoard, readRegion, type RegionBoard } from "./regionFile";

export const PULL_CHUNK = 256;

/** The code the board runs: one "PETPULL offset base64 crc" line per chunk between BEGIN and END. */
export function pullProgram(address: number, size: number): string {
  return (
    "(function(){var F=require(\"Flash\"),a=" + address + ",n=" + size + ",c=" + PULL_CHUNK + ",o,d;" +
    "print(\"PETPULL BEGIN \"+n);" +
    "for(o=0;o<n;o+=c){d=F.read(Math.min(c,n-o),a+o);print(\"PETPULL \"+o+\" \"+btoa(E.toString(d))+\" \"+E.CRC32(d));}" +
    "print(\"PETPULL END \"+n);})();"
  );
}

/**
 * The region from a pull's console output, or a CliError naming what is missing or wrong.
 * Lines that are not PETPULL lines (the uploader's messages, the firmware's own prints) are ignored.
 */
export function parsePullOutput(text: string, size: number): Uint8Array {
  const image = new Uint8Array(size);
  const seen = new Set<number>();
  let begun = false;
  let ended = false;
  const bad = (why: string): CliError => new CliError(EXIT_REJECTED, "the transfer from the board is incomplete or garbled: " + why + "; nothing written");
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const begin = /PETPULL BEGIN (\d+)$/.exec(line);
    if (begin) {
      if (Number(begin[1]) !== size) throw bad("the board reports a region of " + begin[1] + " bytes, the profile says " + size);
      begun = true;
      continue;
    }
    if (/PETPULL END (\d+)$/.test(line)) {
      ended = true;
      continue;
    }
    const m = /PETPULL (\d+) ([A-Za-z0-9+/=]*) (-?\d+)$/.exec(line);
    if (!m) continue;
    const offset = Number(m[1]);
    if (offset % PULL_CHUNK !== 0 || offset >= size) throw bad("a chunk at offset " + offset + " lies outside the region");
    if (seen.has(offset)) throw bad("the chunk at offset " + offset + " arrived twice");
    const bytes = new Uint8Array(Buffer.from(m[2] as string, "base64"));
    const expected = Math.min(PULL_CHUNK, size - offset);
    if (bytes.length !== expected) throw bad("the chunk at offset " + offset + " has " + bytes.length + " bytes, not " + expected);
    if ((zlibCrc32(bytes) >>> 0) !== Number(m[3]) >>> 0) throw bad("the chunk at offset " + offset + " fails its CRC-32");
    image.set(bytes, offset);
    seen.add(offset);
  }
  if (!begun) throw bad("the board never started the dump (is the port right, and is it running Espruino?)");
  const missing = Math.ceil(size / PULL_CHUNK) - seen.size;
  if (missing > 0) throw bad(missing + " of " + Math.ceil(size / PULL_CHUNK) + " chunks are missing");
  if (!ended) throw bad("the dump did not finish");
  return image;
}

/** Pulls with any console (the tests pass a fake). Returns the exit code. */
export async function pullWith(device: DeviceConsole, board: RegionBoard, out: string, io: CliIo): Promise<number> {
  const r = board.profile.petRegion;
  const text = await device.run(pullProgram(r.address, r.size));
  const image = parsePullOutput(text, r.size);
  await writeOutput(out, image, io);
  const c = readRegion(image, board);
  const summary =
    c.current.status === "ok" ? "current save at sector " + c.current.sector + " slot " + c.current.slot : "warning: no readable save in it (" + c.current.status + ")";
  io.writeStderr("pulled " + r.size + " bytes of the " + board.profile.name + " pet region into " + out + "; " + summary + "\n");
  return EXIT_OK;
}

export const pullCommand: Command = {
  name: "pull",
  summary: "copy a board's pet region into an image file (a backup), over the espruino uploader",
  usage: "pull [--port P] -o IMAGE [--board FILE]",
  async run(args, io) {
    const parsed = parseCommandArgs(args, { port: { type: "string", short: "p" }, output: { type: "string", short: "o" }, board: { type: "string" } }, 0);
    const port = parsed.values.port;
    const out = parsed.values.output;
    if (port === "") throw usageError("pull --port needs a serial device, COMn or tcp://host:port (or leave it out for the one ESP32 board plugged in)");
    if (typeof out !== "string" || out === "") throw usageError("pull needs -o IMAGE (the file to write)");
    const board = readBoard(typeof parsed.values.board === "string" ? parsed.values.board : join(BOARDS_DIR, "esp32.json"));
    return pullWith(espruinoConsole(typeof port === "string" ? port : undefined, (line) => io.writeStderr(line + "\n")), board, out, io);
  },
};
