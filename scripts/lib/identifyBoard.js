/**
 * "What are you?" asked of a board over its console (scripts/lib/boardConsole.js), and the answer
 * judged against a board profile by the one rule the project has for it (src/boards/boardFit.ts,
 * loaded through tsx like the build's profile checker). `npm run flash` asks before it builds or
 * sends anything, `npm run board-check` before it reads or times anything.
 */
import { join } from "node:path";
import { ROOT } from "./build.js";
import { ConsoleError } from "./boardConsole.js";

/** How long a board has to answer (the "a silent port fails within 3 s"). */
export const IDENTIFY_MS = 3000;
/** Asked again this often meanwhile: a board that the port's opening reset may miss the first question. */
const ASK_AGAIN_MS = 1000;

let rulePromise = null;
/** src/boards/boardFit.ts, loaded once per process. */
export function boardFitRule() {
  if (!rulePromise) {
    rulePromise = import("tsx/esm/api").then(({ tsImport }) => tsImport(join(ROOT, "src", "boards", "boardFit.ts"), import.meta.url));
  }
  return rulePromise;
}

/**
 * Asks the board on `con` (an open board console) for its report and judges it against `profile`
 * (a device profile; `file` names it in messages). Resolves with { report, fit }; a board that does
 * not answer within IDENTIFY_MS is a ConsoleError of kind "silent" whose message says what to check.
 */
export async function identifyBoard(con, profile, file) {
  const rule = await boardFitRule();
  let report;
  try {
    report = await con.ask(rule.reportLine(profile.petRegion), (l) => rule.parseBoardReport(l), IDENTIFY_MS, "the question what it is (process.env)", ASK_AGAIN_MS);
  } catch (e) {
    if (e instanceof ConsoleError && e.kind === "silent") {
      throw new ConsoleError(
        "the board at " + con.port + " did not answer within " + IDENTIFY_MS / 1000 + " s: is it running Espruino, at " +
          (con.port.startsWith("tcp://") ? "that address" : "115200 baud") +
          "? A board in its bootloader, a bare ESP32 (put Espruino on it first: docs/firmware.md) or another port stays silent; press its EN/RST button and try again",
        "silent",
      );
    }
    throw e;
  }
  return { report, fit: rule.boardFit(profile, report, file) };
}

/** One line saying what the board is, e.g. "Espruino 2v29 on ESP32". */
export function boardLine(report) {
  return "Espruino " + report.version + " on " + report.board;
}
