/**
 * board-check types floor.js at the console in 2 KiB lines (src/host/node/boardCheck/onBoard.ts,
 * typeFloor). A console without flow control can lose bytes inside a line (the emulated ESP32 once
 * kept 3 591 of 4 096 characters): the board's answer shows it, and the piece is typed again over
 * what the pieces before it made, so the board ends with exactly the text. A console that keeps
 * losing is named with what the board holds.
 */
import { describe, expect, it } from "vitest";
import { runInNewContext } from "node:vm";
import { typeFloor } from "../src/host/node/boardCheck/onBoard";
import type { BoardConsole } from "../src/host/node/serial/boardConsole";

/** A board whose console runs each typed line as JavaScript, losing bytes of the lines `lose` picks. */
function lossyBoard(lose: (line: string, n: number) => boolean): { con: BoardConsole; global: Record<string, unknown>; lines: number; ran: string[] } {
  const global: Record<string, unknown> = {};
  const state = { con: null as unknown as BoardConsole, global, lines: 0, ran: [] as string[] };
  const exchange = async <T,>(text: string, pick: (line: string) => T | null | undefined): Promise<T> => {
    let line = text.replace(/[\x03\x10\n]/g, "");
    state.lines++;
    // Loses 300 characters from the middle of the piece, as an overrun input queue does.
    if (lose(line, state.lines)) line = line.slice(0, 1000) + line.slice(1300);
    const printed: string[] = [];
    try {
      runInNewContext(line, { global, print: (s: string) => printed.push(s), JSON, eval: (code: string) => state.ran.push(code) });
    } catch (e) {
      printed.push("Uncaught " + String(e));
    }
    for (const p of printed) {
      const got = pick(p);
      if (got !== null && got !== undefined) return got;
    }
    throw new Error("no answer to a line the board could not run (" + printed.join(" | ").slice(0, 80) + ")");
  };
  state.con = { exchange } as unknown as BoardConsole;
  return state;
}

// Three pieces of ASCII that floor.js-like text holds, the last one short; and what runs it at the end.
const TEXT = "var benchOp=function(){return 1};" + "/*x*/".repeat(1000) + "var benchInit=0;";

describe("typing floor.js over a console that loses bytes", () => {
  it("types a damaged piece again and ends with exactly the text", async () => {
    const board = lossyBoard((line, n) => n === 2 && line.indexOf("__petFloor.substr(0,2048)") >= 0);
    await typeFloor(board.con, TEXT);
    expect(board.ran).toEqual([TEXT]); // what ran is the text, byte for byte
    expect(board.global.__petFloor).toBeUndefined(); // and deleted, as on the board
    // Three pieces, one of them typed twice, and the line that runs the floor.
    expect(board.lines).toBe(5);
  });

  it("types the first piece again too (it has no pieces before it to keep)", async () => {
    const board = lossyBoard((_line, n) => n === 1);
    await typeFloor(board.con, TEXT);
    expect(board.ran).toEqual([TEXT]);
    expect(board.lines).toBe(5);
  });

  it("gives up after three tries of one piece, saying what the board holds", async () => {
    const board = lossyBoard((line) => line.indexOf("__petFloor.substr(0,2048)") >= 0);
    await expect(typeFloor(board.con, TEXT)).rejects.toThrow(/typing the floor: the board holds 3796 characters, not 4096 \(3 tries\)/);
    expect(board.ran).toEqual([]);
  });
});
