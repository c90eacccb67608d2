/**
 * The board `pet-save pull` and `push` talk to, as every command that talks to a board finds and
 * asks it: the port found as `npm run upload` finds it (../serial/serialPorts.ts: without one, the
 * one ESP32 board plugged in; a named port that exists is used even when no list shows it), its
 * console opened over the one Node transport (../serial/boardConsole.ts), and the board asked what it
 * is and refused, before anything is read or sent, when the profile does not fit it
 * (../serial/identifyBoard.ts, src/boards/boardFit.ts). Each failure is a CliError (status 1) in one
 * line saying what to do; the console is closed whatever happens.
 */
import { PortError, resolveBoardPort } from "../serial/serialPorts";
import { ConsoleError, openBoardConsole, type BoardConsole } from "../serial/boardConsole";
import { identifyBoard, misfitText } from "../serial/identifyBoard";
import { deviceProfile } from "../boardProfiles";
import { shortPath } from "../packageRoot";
import type { LoadedProfile } from "../../../inspect/regionReport";
import { notSerialPortReason } from "./portTrouble";
import { CliError, EXIT_REJECTED, usageError } from "./io";

/**
 * Runs `work` on the console of the board at `named` (a serial device, COMn or tcp://host:port;
 * undefined for the one ESP32 board plugged in) once the board has said what it is and `board` fits
 * it. `doing` says what the command does with a board ("pull from"), `tell` gets the lines saying
 * which port is used and why; `untouched` ends a refusal ("Nothing was sent.").
 */
export async function withFittingBoard<T>(
  named: string | undefined,
  board: LoadedProfile,
  o: { doing: string; untouched: string; tell: (line: string) => void },
  work: (con: BoardConsole) => Promise<T>,
): Promise<T> {
  const { doing, untouched, tell } = o;
  let device;
  try {
    device = deviceProfile(board, doing);
  } catch (e) {
    throw usageError(e instanceof Error ? e.message : String(e));
  }
  let port: string;
  try {
    const found = await resolveBoardPort(named);
    const notSerial = notSerialPortReason(found.path);
    if (notSerial !== null) throw new CliError(EXIT_REJECTED, notSerial);
    for (const line of found.lines) tell(line);
    port = found.path;
  } catch (e) {
    if (e instanceof PortError) throw new CliError(EXIT_REJECTED, e.message);
    throw e;
  }
  let con: BoardConsole;
  try {
    con = await openBoardConsole(port);
  } catch (e) {
    if (e instanceof ConsoleError) throw new CliError(EXIT_REJECTED, e.message);
    throw e;
  }
  try {
    const { report, fit } = await identifyBoard(con, device.profile, shortPath(device.file));
    if (!fit.fits) throw new CliError(EXIT_REJECTED, misfitText(port, report, fit, shortPath(device.file)) + " " + untouched);
    return await work(con);
  } catch (e) {
    if (e instanceof ConsoleError) throw new CliError(EXIT_REJECTED, e.message);
    throw e;
  } finally {
    await con.close();
  }
}
