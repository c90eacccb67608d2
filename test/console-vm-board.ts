/**
 * A board's console without a board, for the console protocol's tests: an Exchange
 * (src/boards/consoleProtocol.ts) that runs each command line it is sent in a vm context with the
 * globals the test gives it (and `print`, which prints a line), the way Espruino runs a typed line,
 * then offers what was printed to the pick, line by line. Lines the test wants printed before an
 * answer (another evaluation's late answer, an echo, the firmware's own chatter) are `noise`.
 */
import vm from "node:vm";
import type { Exchange } from "../src/boards/consoleProtocol";

export interface VmBoard {
  exchange: Exchange;
  /** Every line sent, control characters (Ctrl-P, Ctrl-C) removed. */
  sent: string[];
  /** Lines printed before the next command's own output. */
  noise: string[];
}

export function vmBoard(globals: Record<string, unknown> = {}): VmBoard {
  const board: VmBoard = { sent: [], noise: [], exchange: undefined as unknown as Exchange };
  let printed: string[] = [];
  const context = vm.createContext({ ...globals, print: (...a: unknown[]) => void printed.push(a.join(" ")) });
  board.exchange = async <T>(text: string, pick: (line: string) => T | null | undefined, _ms: number, what: string): Promise<T> => {
    printed = board.noise.splice(0);
    for (const line of text.split("\n")) {
      const code = line.replace(/[\x03\x10]/g, "");
      if (code.trim() === "") continue;
      board.sent.push(code);
      try {
        vm.runInContext(code, context);
      } catch (e) {
        printed.push("Uncaught " + String(e)); // as Espruino reports an error at the console
      }
    }
    for (const line of printed.join("\n").split("\n")) {
      const v = pick(line);
      if (v !== null && v !== undefined) return v;
    }
    throw new Error("no answer to " + what + " (the board printed " + JSON.stringify(printed) + ")");
  };
  return board;
}
