/**
 * "What are you?" asked of a board over its console (boardConsole.ts), and the answer judged against
 * a board profile by the one rule the project has for it (src/boards/boardFit.ts). Every command that
 * talks to a board asks first: `npm run upload` before it builds or sends anything, `npm run
 * board-check` before it reads or times anything, the soak, `pet-save pull` and `push` before they
 * read or send anything; a board the profile does not fit is refused in the words of misfitText.
 */
import { boardFit, parseBoardReport, reportLine, type BoardFit, type BoardReport } from "../../../boards/boardFit";
import { BAUD } from "../../../boards/consoleProtocol";
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
          (con.port.startsWith("tcp://") ? "that address" : BAUD + " baud") +
          "? A board in its bootloader, a bare ESP32 (install Espruino on it first: docs/firmware.md) or another port stays silent; press its EN/RST button and try again",
        "silent",
      );
    }
    throw e;
  }
  return { report, fit: boardFit(profile, report, file) };
}

/**
 * Why the board at `port`, which reported `report`, cannot be used with the profile `file` (as the
 * messages show it): "the board at P (Espruino 2v29 on LINUX_ESP32) does not fit boards/esp32.json:
 * <the fit rule's first problem>. <What to do>." The caller says what was left undone.
 */
export function misfitText(port: string, report: BoardReport, fit: BoardFit, file: string): string {
  const p = fit.problems[0];
  if (p === undefined) return "the board at " + port + " (" + boardLine(report) + ") fits " + file;
  return "the board at " + port + " (" + boardLine(report) + ") does not fit " + file + ": " + p.message + ". " + p.todo.charAt(0).toUpperCase() + p.todo.slice(1) + ".";
}

/** One line saying what the board is, e.g. "Espruino 2v29 on ESP32". */
export function boardLine(report: BoardReport): string {
  return "Espruino " + report.version + " on " + report.board;
}
