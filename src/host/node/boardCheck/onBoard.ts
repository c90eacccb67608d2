/**
 * What board-check types at the board's console to time things there, by the board's own clock
 * (getTime()), and how it reads the answers. The floor is the bench's (floor.js beside this file,
 * which the bench uploads to the interpreter's Storage; here it is typed into RAM rather than uploaded
 * to Storage, which would write outside the pet's region) in its board mode: its flash writes are
 * all-ones, which program nothing on NOR flash.
 *
 * Every line is an evaluation of the console protocol (src/boards/consoleProtocol.ts, `evaluate`),
 * whose answer comes back as JSON on a line of its own.
 */
import { parse } from "acorn";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { evaluate as evaluateOver } from "../../../boards/consoleProtocol";
import { packageRoot } from "../packageRoot";
import type { BoardConsole } from "../serial/boardConsole";

/**
 * Characters of floor.js per console line. Each line is answered before the next is sent; a line is
 * held twice while it runs (as typed and as a string), some 350 JsVars at 2 KiB, little beside the
 * 1 000 the floor itself takes once typed. Every line is a wait for the board: 7 lines instead of 17
 * at 768.
 */
const PIECE = 2048;
/**
 * Tries of one piece. A console without flow control can still lose bytes inside a line: the
 * emulated ESP32, starved by a busy host, once kept 3 591 of 4 096 characters (a CI run,
 * 2026-12-06). The board's answer, the length it holds, shows it, and the piece is typed again.
 */
const PIECE_TRIES = 3;
/** How long one typed line may take to answer (a timing line runs its operation RUNS times). */
const LINE_MS = 60_000;
/** The globals floor.js defines, removed again at the end. */
const FLOOR_GLOBALS = ["benchInit", "benchOp", "benchCheck", "benchScratch", "benchFloor"];

/** floor.js, found from the package's root (this module also runs compiled into dist/host/). */
export function floorFile(): string {
  return join(packageRoot(), "src", "host", "node", "boardCheck", "floor.js");
}

/** Evaluates `expr` on the board and resolves with its JSON value (an exception is re-thrown here with the board's words). */
export function evaluate<T>(con: BoardConsole, expr: string, what: string, ms = LINE_MS): Promise<T> {
  return evaluateOver<T>(con.exchange, expr, what, ms);
}

/**
 * floor.js as typed: its comments and indentation left out (a third of its text), each line
 * otherwise as written, so what runs is the code the bench runs. Every piece typed is a wait for
 * the console: 0.6 s each on the emulated ESP32, whose console passes a line on that late.
 */
export function floorAsTyped(text: string): string {
  const comments: [number, number][] = [];
  parse(text, { ecmaVersion: 5, onComment: (_block, _text, start, end) => void comments.push([start, end]) });
  let code = "";
  let last = 0;
  for (const [start, end] of comments) {
    code += text.slice(last, start);
    last = end;
  }
  code += text.slice(last);
  return code
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * Types floor.js into a global string piece by piece, then runs it: benchInit and benchOp exist after.
 * Each line sets the string to what the pieces before it made plus its own piece, so a piece typed
 * again after a loss (PIECE_TRIES) replaces the damaged one rather than adding to it.
 */
export async function typeFloor(con: BoardConsole, text: string = floorAsTyped(readFileSync(floorFile(), "utf8"))): Promise<void> {
  for (let at = 0; at < text.length; at += PIECE) {
    const want = Math.min(text.length, at + PIECE);
    const expr = "(global.__petFloor=" + (at === 0 ? "" : "global.__petFloor.substr(0," + at + ")+") + JSON.stringify(text.slice(at, want)) + ").length";
    for (let tries = 1; ; tries++) {
      let length: number;
      try {
        length = await evaluate<number>(con, expr, "typing the floor");
      } catch (e) {
        // A loss inside the line can make it no JavaScript at all: the board's words for it.
        if (tries >= PIECE_TRIES) throw e;
        continue;
      }
      if (length === want) break;
      if (tries >= PIECE_TRIES) throw new Error("typing the floor: the board holds " + length + " characters, not " + want + " (" + tries + " tries)");
    }
  }
  await evaluate(con, "(eval(global.__petFloor),delete global.__petFloor,typeof benchOp)", "running the floor");
}

/** Removes what typeFloor and benchInit left on the board. */
export async function removeFloor(con: BoardConsole): Promise<void> {
  await evaluate(con, FLOOR_GLOBALS.map((g) => "delete global." + g).join(",") + ",delete global.__petFloor,0", "removing the floor");
}

/** What benchOp answers: the median and the extremes of the runs, in milliseconds by getTime(). */
export interface OpTime {
  ms: number;
  min: number;
  max: number;
}

/** Runs floor.js's benchOp(name, runs) on the board. */
export function timeOp(con: BoardConsole, name: string, runs: number): Promise<OpTime> {
  return evaluate<OpTime>(con, "benchOp(" + JSON.stringify(name) + "," + runs + ")", "timing " + name);
}
