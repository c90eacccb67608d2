/**
 * Talking to a board's console for `pet-save pull` and `push`: run a few lines of JavaScript on the
 * device and get back what it printed. The real transport is the `espruino` package's command line,
 * run the way the upload runs it (../upload/espruinoTool.ts; offline: a local board description so it
 * neither asks espruino.com for the board's JSON nor fetches require("Flash") as a module): with
 * `-e CODE` it connects (serial, or tcp://host:port), sends the code without resetting the board,
 * relays the console (lines prefixed "--] ") and exits once the board has been quiet for a moment.
 * Tests substitute a fake that runs the code in a local context.
 *
 * The port is found as `npm run upload` finds it (../serial/serialPorts.ts): without one, the one
 * ESP32 board plugged in; a named serial port that exists is used even when the tool does not list
 * it (the tool's process preloads ../upload/uploaderShim.cjs, which also reports whether the board
 * sent anything back).
 *
 * The device code prints marker lines ("PETPULL ...", "PETPUSH ...") so the parser can ignore the
 * uploader's own chatter and anything else the firmware prints meanwhile.
 */
import { CliError, EXIT_REJECTED } from "./io";
import { connectFailure, notSerialPortReason, uploaderCrash } from "./portTrouble";
import { PortError, resolveBoardPort } from "../serial/serialPorts";
import { DEFAULT_BAUD, runEspruinoCli, writeUploaderBoard } from "../upload/espruinoTool";

export interface DeviceConsole {
  /** Runs `code` on the board; resolves with everything the console printed. */
  run(code: string): Promise<string>;
}

/** How long a whole transfer may take (a 64 KiB pull at 115200 baud is about 10 s). */
const TIMEOUT_MS = 120000;
/** A refused connection (a console session still closing, a port just released) is retried once. */
const RETRY_AFTER_MS = 1000;

/**
 * The board's port: `named`, or the one ESP32 board plugged in; what was decided goes to `tell`
 * (after the port is known to be one: a refusal is the only line).
 */
async function findPort(named: string | undefined, tell: (line: string) => void): Promise<string> {
  try {
    const found = await resolveBoardPort(named);
    const notSerial = notSerialPortReason(found.path);
    if (notSerial !== null) throw new CliError(EXIT_REJECTED, notSerial);
    for (const line of found.lines) tell(line);
    return found.path;
  } catch (e) {
    if (e instanceof PortError) throw new CliError(EXIT_REJECTED, e.message);
    throw e;
  }
}

/**
 * The console of the board at `named` (a serial device, COMn, or tcp://host:port; undefined for
 * the one ESP32 board plugged in). `tell` gets the lines saying which port is used and why.
 */
export function espruinoConsole(named: string | undefined, tell: (line: string) => void = () => {}): DeviceConsole {
  return {
    async run(code: string): Promise<string> {
      const port = await findPort(named, tell);
      const board = writeUploaderBoard();
      try {
        const args = ["--no-ble", "--board", board.file, "--config", "MODULE_URL=", "-p", port];
        if (!port.startsWith("tcp://")) args.push("-b", String(DEFAULT_BAUD));
        args.push("-e", code);
        let r = await runEspruinoCli(args, { timeoutMs: TIMEOUT_MS, port });
        if (!/Connected/.test(r.output)) {
          await new Promise((done) => setTimeout(done, RETRY_AFTER_MS));
          r = await runEspruinoCli(args, { timeoutMs: TIMEOUT_MS, port });
        }
        const crash = uploaderCrash(r.output, port);
        if (crash !== null && !r.answered) throw new CliError(EXIT_REJECTED, crash);
        if (!/Connected/.test(r.output) || /Unable to connect/i.test(r.output)) {
          throw new CliError(EXIT_REJECTED, "could not talk to the board at " + port + " (" + connectFailure(r.output) + "): is it plugged in, or listening there, and running Espruino?");
        }
        if (/timed out after/.test(r.output)) {
          throw new CliError(EXIT_REJECTED, "no complete answer from " + port + " within " + TIMEOUT_MS / 1000 + " s");
        }
        if (!r.answered) throw new CliError(EXIT_REJECTED, "the board at " + port + " never answered (is it running Espruino, at 115200 baud? is this its port?)");
        return r.output;
      } finally {
        board.cleanup();
      }
    },
  };
}
