#!/usr/bin/env node
/**
 * `npm start`: the pet on the desktop. Builds the firmware for boards/desktop.json with the same
 * build as the upload (same ES5 bundle, only the board profile differs; cached, so an unchanged
 * bundle is not rebuilt) and runs it in the desktop Espruino host (src/host/node/sim/desktop.ts,
 * compiled to dist/host/desktop.js: no TypeScript loader at run time) over a region image file.
 * `npm start -- --help` lists the options (HELP below).
 *
 * Order matters for a quick answer: the arguments, the board profile and an existing --image are
 * checked before anything is built, so a refused image or a typo answers at once. On a terminal the
 * keyboard is put in raw mode at the start and what is typed before the pet is up is dropped (not
 * echoed, not replayed later as presses); Ctrl-C still stops it. Keys from a pipe are a script and
 * are all read, in order, once the pet runs. The command line's edges (--help, --version, usage
 * errors, exit statuses) are scripts/lib/command.js's.
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildFirmware, ROOT } from "./lib/build.js";
import { freshHostBundle } from "./lib/hostBuild.js";
import { runCommand, UsageError } from "./lib/command.js";
import { loadProfileFile } from "../src/host/node/profileFile.js";

const MAX_SPEED = 3600; // src/host/emulator/clock.ts MAX_SPEED

let running = null;

await runCommand({
  program: "npm start",
  usage: "usage: npm start -- [--image PATH] [--reset] [--speed N] [--board FILE] [--bundle FILE] [--blocks] [--lines]",
  about: `
The pet on the desktop: the firmware, built for boards/desktop.json (cached: rebuilt only when a
source changed), runs in a small Espruino host over a region image file. The terminal is the OLED,
the keyboard the button. When stdout is not a terminal it prints one line per change instead and
reads the keys from stdin; it then saves and exits when stdin ends.`,
  options: [
    { name: "image", value: "PATH", help: "the region image (default ./pet-region.bin, created erased when missing); an\nexisting file that is not a pet region is refused and left untouched" },
    { name: "reset", help: "erase the region image first (its pet, or whatever else it held, is lost)" },
    { name: "speed", value: "N", help: "the world clock runs N times real time, 0 < N <= " + MAX_SPEED },
    { name: "blocks", help: "draw the OLED with half blocks instead of braille (needs a 130-column terminal)" },
    { name: "lines", help: "print lines even on a terminal" },
    { name: "board", value: "FILE", help: "another board profile (default boards/desktop.json)" },
    { name: "bundle", value: "FILE", help: "run an already built bundle instead of building" },
  ],
  sections: [
    [
      "keys",
      "  space interact · h held 5 s: long press (hatch) · H hatch (asks y/n) · s save · q save and quit\n" +
        "  Killing it (even kill -9) is a power cut: the next start restores the pet from the image.",
    ],
  ],
  examples: ["npm start", "npm start -- --image backup.bin --speed 600", "printf ' ' | npm start -- --image pip.bin     # one press, then save and exit"],
  exits: [
    [0, "quit (q, Ctrl-C, SIGTERM, end of piped input, output closed)"],
    [1, "the image is not a pet region, the board profile is bad, the build failed, or the firmware did not start"],
  ],
  // A reader that went away (`npm start | head`) is a quit: save first, as q does.
  onClosed: () => (running ? running.quit() : process.exit(0)),
  // Timers of the firmware are stopped at the end; stdin may still hold the loop open.
  exitWhenDone: true,
  run: start,
});

async function start(args) {
  const speed = args.speed === undefined ? 1 : Number(args.speed);
  if (!(speed > 0) || !(speed <= MAX_SPEED)) throw new UsageError("--speed takes a number above 0 and at most " + MAX_SPEED + " (times real time), got " + args.speed);

  // Keys typed from now until the pet is up are dropped; Ctrl-C still ends it (raw mode turns it into a character).
  const stdin = process.stdin;
  let dropKeys = null;
  if (stdin.isTTY && typeof stdin.setRawMode === "function") {
    stdin.setRawMode(true);
    dropKeys = (chunk) => {
      if (String(chunk).includes("\u0003")) {
        stdin.setRawMode(false);
        process.exit(130);
      }
    };
    stdin.on("data", dropKeys);
  }

  // Read as every command reads a profile (src/host/node/profileFile.js: a relative path from the
  // package's root); the simulator's own, not env BOARD's, unless --board names another.
  const boardFile = resolve(ROOT, args.board || "boards/desktop.json");
  const imagePath = args.image || "pet-region.bin";
  try {
    const desktop = await import(pathToFileURL(await freshHostBundle("desktop")).href);
    const board = loadProfileFile(boardFile, ROOT, desktop.checkBoardProfile).profile;
    // An existing file that is not a pet region is refused now, before any build (runDesktop checks
    // again when it opens the file; --reset erases it only once the firmware is ready).
    if (!args.reset) desktop.guardRegionImage(imagePath, board.petRegion, false);
    let code;
    let bundleName;
    if (args.bundle) {
      bundleName = resolve(args.bundle);
      code = readFileSync(bundleName, "utf8");
    } else {
      const built = await buildFirmware({
        board: boardFile,
        outFile: join(ROOT, "dist", "desktop", "firmware.js"),
        onBuild: () => {
          if (process.stderr.isTTY) process.stderr.write("building the firmware for " + relative(process.cwd(), boardFile) + " (done once; then cached)\n");
        },
      });
      code = built.code;
      bundleName = built.outFile;
    }
    if (dropKeys) stdin.off("data", dropKeys);
    running = await desktop.runDesktop({
      code,
      bundleName,
      board,
      imagePath,
      speed,
      style: args.blocks ? "blocks" : "braille",
      input: stdin,
      output: process.stdout,
      screen: process.stdout.isTTY === true && !args.lines,
      reset: args.reset === true,
    });
  } catch (e) {
    // Our own refusals (an image that is not a pet region, a bad profile, a failed build) are
    // sentences already: the runner prints them as they are, status 1.
    if (dropKeys && stdin.isTTY) stdin.setRawMode(false);
    throw e;
  }
  return await running.done;
}
