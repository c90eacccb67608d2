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
 * are all read, in order, once the pet runs.
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { buildFirmware, ROOT } from "./lib/build.js";
import { freshHostBundle } from "./lib/hostBuild.js";
import { failUnexpected, guardOutput, versionLine, wantsVersion } from "./lib/processEdges.js";

const PROGRAM = "npm start";
const USAGE = "usage: npm start -- [--image PATH] [--reset] [--speed N] [--board FILE] [--bundle FILE] [--blocks] [--lines]";
const MAX_SPEED = 3600; // src/host/emulator/clock.ts MAX_SPEED

const HELP = `${USAGE}

The pet on the desktop: the firmware, built for boards/desktop.json (cached: rebuilt only when a
source changed), runs in a small Espruino host over a region image file. The terminal is the OLED,
the keyboard the button. When stdout is not a terminal it prints one line per change instead and
reads the keys from stdin; it then saves and exits when stdin ends.

options:
  --image PATH   the region image (default ./pet-region.bin, created erased when missing); an
                 existing file that is not a pet region is refused and left untouched
  --reset        erase the region image first (its pet, or whatever else it held, is lost)
  --speed N      the world clock runs N times real time, 0 < N <= ${MAX_SPEED}
  --blocks       draw the OLED with half blocks instead of braille (needs a 130-column terminal)
  --lines        print lines even on a terminal
  --board FILE   another board profile (default boards/desktop.json)
  --bundle FILE  run an already built bundle instead of building
  --version      print the version
  -h, --help     this help

keys: space interact · h held 5 s: long press (hatch) · H hatch (asks y/n) · s save · q save and quit
Killing it (even kill -9) is a power cut: the next start restores the pet from the image.

examples:
  npm start
  npm start -- --image backup.bin --speed 600
  printf ' ' | npm start -- --image pip.bin     # one press, then save and exit

exit status:
  0  quit (q, Ctrl-C, SIGTERM, end of piped input, output closed)
  1  the image is not a pet region, the board profile is bad, the build failed, or the firmware did not start
  2  bad usage
`;

function usageError(message) {
  process.stderr.write(message + "\n" + USAGE + "\n");
  process.exit(2);
}

let run = null;
// A reader that went away (`npm start | head`) is a quit: save first, as q does.
guardOutput(PROGRAM, { onClosed: () => (run ? run.quit() : process.exit(0)) });

const argv = process.argv.slice(2);
if (wantsVersion(argv)) {
  process.stdout.write(versionLine(PROGRAM) + "\n");
  process.exit(0);
}
let args;
try {
  args = parseArgs({
    args: argv,
    options: {
      image: { type: "string" },
      reset: { type: "boolean" },
      speed: { type: "string" },
      board: { type: "string" },
      bundle: { type: "string" },
      blocks: { type: "boolean" },
      lines: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
    },
    strict: true,
  }).values;
} catch (e) {
  usageError(e instanceof Error ? e.message : String(e));
}
if (args.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const speed = args.speed === undefined ? 1 : Number(args.speed);
if (!(speed > 0) || !(speed <= MAX_SPEED)) {
  usageError("--speed takes a number above 0 and at most " + MAX_SPEED + " (times real time), got " + args.speed);
}

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

const boardFile = resolve(args.board || join(ROOT, "boards", "desktop.json"));
const imagePath = args.image || "pet-region.bin";

try {
  const desktop = await import(pathToFileURL(await freshHostBundle("desktop")).href);
  const board = readBoard(boardFile, desktop.checkBoardProfile);
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
  run = await desktop.runDesktop({
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
  if (dropKeys && stdin.isTTY) stdin.setRawMode(false);
  // Our own refusals (an image that is not a pet region, a bad profile, a failed build) are
  // sentences already: printed as they are, status 1.
  if (!(e instanceof Error)) failUnexpected(PROGRAM, e);
  process.stderr.write(e.message + "\n");
  process.exit(1);
}
process.exitCode = await run.done;
// Timers of the firmware are stopped; stdin may still hold the loop open.
process.exit(process.exitCode);

/** The board profile at `file`, checked; a bad one ends the program with every problem named. */
function readBoard(file, check) {
  let profile;
  try {
    profile = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error("bad board profile " + file + ": cannot read it as JSON: " + (e instanceof Error ? e.message : String(e)));
  }
  const problems = check(profile);
  if (problems.length > 0) throw new Error("bad board profile " + file + ":\n  - " + problems.join("\n  - "));
  return profile;
}
