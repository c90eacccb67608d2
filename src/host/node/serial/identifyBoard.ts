/**
 * "What are you?" asked of a board over its console (boardConsole.ts), and the answer judged against
 * a board profile by the one rule the project has for it (src/boards/boardFit.ts). `npm run upload`
 * asks before it builds or sends anything, `npm run board-check` before it reads or times anything.
 */
import { boardFit, parseBoardReport, reportLine, type BoardFit, type BoardReport } from "../../../boards/boardFit";
import type { DeviceBoardProfile } from "../../../boards/boardProfile";
import { ConsoleError, type BoardConsole } from "./boardConsole";

/** How long a board has to answer (the "a silent port fails within 3 s"). */
export const IDENTIFY_MS = 3000;
/** Asked again this often meanwhile: a board that the port's opening reset may miss the first question. */
const ASK_AGAIN_MS = 1000;

/**
 * Asks the board on `con` (an open board console) for its report and judges it against `profile`
 * (a device profile; `file` names it in messages). Resolves with { report, fit }; a board that does
 * not answer within IDENTIFY_MS is a ConsoleError of kind "silent" whose message says what to check.
 */
export async function identifyBoard(con: BoardConsole, profile: DeviceBoardProfile, file?: string): Promise<{ report: BoardReport; fit: BoardFit }> {
  let report: BoardReport;
  try {
    report = await con.ask(reportLine(profile.petRegion), parseBoardReport, IDENTIFY_MS, "the question what it is (process.env)", ASK_AGAIN_MS);
  } catch (e) {
    if (e instanceof ConsoleError && e.kind === "silent") {
      throw new ConsoleError(
        "the board at " + con.port + " did not answer within " + IDENTIFY_MS / 1000 + " s: is it running Espruino, at " +
          (con.port.startsWith("tcp://") ? "that address" : "115200 baud") +
          "? A board in its bootloader, a bare ESP32 (install Espruino on it first: docs/firmware.md) or another port stays silent; press its EN/RST button and try again",
        "silent",
      );
    }
    throw e;
  }
  return { report, fit: boardFit(profile, report, file) };
}

/** One line saying what the board is, e.g. "Espruino 2v29 on ESP32". */
export function boardLine(report: BoardReport): string {
  return "Espruino " + report.version + " on " + report.board;
}
