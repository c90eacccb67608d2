#!/usr/bin/env node
/**
 * `npm start`: builds the firmware for boards/desktop.json with the same build as the upload (same
 * ES5 bundle, only the board profile differs) and runs it in the desktop Espruino host
 * (src/host/node/sim/desktop.ts) over a region image file.
 *
 *   npm start -- [--image PATH] [--reset] [--speed N] [--board FILE] [--bundle FILE] [--blocks] [--lines]
 *
 * --image PATH   region image (default ./pet-region.bin; created erased when missing; an existing
 *                file that is not a pet region, or has the wrong size, is refused with status 1)
 * --reset        erase the region image first (its pet, or whatever else it held, is lost)
 * --speed N      the world clock runs N times faster than real time, 0 < N <= 3600 (getTime() is
 *                scaled; above 45 the firmware's 1 s tick also runs more often, since one tick may
 *                add at most a minute)
 * --board FILE   board profile (default boards/desktop.json)
 * --bundle FILE  run an already built bundle instead of building (tests use this to build once)
 * --blocks       draw the OLED with half blocks instead of braille (needs a 130-column terminal)
 * --lines        print lines even on a terminal (what happens anyway when stdout is not a TTY)
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { buildFirmware, loadBoardProfile, ROOT } from "./lib/build.js";

const USAGE = "usage: npm start -- [--image PATH] [--reset] [--speed N] [--board FILE] [--bundle FILE] [--blocks] [--lines]";

function fail(message, code = 2) {
  process.stderr.write(message + "\n");
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    args: process.argv.slice(2),
    options: {
      image: { type: "string" },
      reset: { type: "boolean" },
      speed: { type: "string" },
      board: { type: "string" },
      bundle: { type: "string" },
      blocks: { type: "boolean" },
      lines: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  }).values;
} catch (e) {
  fail((e instanceof Error ? e.message : String(e)) + "\n" + USAGE);
}
if (args.help) {
  process.stdout.write(USAGE + "\n");
  process.exit(0);
}

const MAX_SPEED = 3600; // src/host/emulator/clock.ts MAX_SPEED
const speed = args.speed === undefined ? 1 : Number(args.speed);
if (!(speed > 0) || !(speed <= MAX_SPEED)) {
  fail("--speed takes a number above 0 and at most " + MAX_SPEED + " (times real time), got " + args.speed + "\n" + USAGE);
}
const boardFile = resolve(args.board || join(ROOT, "boards", "desktop.json"));
const imagePath = args.image || "pet-region.bin";

let board;
let code;
let bundleName;
try {
  if (args.bundle) {
    board = await loadBoardProfile(boardFile);
    bundleName = resolve(args.bundle);
    code = readFileSync(bundleName, "utf8");
  } else {
    const built = await buildFirmware({ board: boardFile, outFile: join(ROOT, "dist", "desktop", "firmware.js") });
    board = built.profile;
    code = built.code;
    bundleName = built.outFile;
  }
} catch (e) {
  fail(e instanceof Error ? e.message : String(e), 1);
}

register();
const { runDesktop } = await import(new URL("../src/host/node/sim/desktop.ts", import.meta.url).href);
const screen = process.stdout.isTTY === true && !args.lines;
let run;
try {
  run = await runDesktop({
    code,
    bundleName,
    board,
    imagePath,
    speed,
    style: args.blocks ? "blocks" : "braille",
    input: process.stdin,
    output: process.stdout,
    screen,
    reset: args.reset === true,
  });
} catch (e) {
  fail(e instanceof Error ? e.message : String(e), 1);
}
process.exitCode = await run.done;
// Timers of the firmware are stopped; stdin may still hold the loop open.
process.exit(process.exitCode);
