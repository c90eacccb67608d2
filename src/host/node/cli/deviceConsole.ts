/**
 * Talking to a board's console for `pet-save pull` and `push`: run a few lines of JavaScript on the
 * device and get back what it printed. The real transport is the `espruino` package's command line,
 * run the way scripts/lib/upload.js runs it for uploads (offline: a local board description so it
 * neither asks espruino.com for the board's JSON nor fetches require("Flash") as a module): with
 * `-e CODE` it connects (serial, or tcp://host:port), sends the code without resetting the board,
 * relays the console (lines prefixed "--] ") and exits once the board has been quiet for a moment.
 * Tests substitute a fake that runs the code in a local context.
 *
 * The device code prints marker lines ("PETPULL ...", "PETPUSH ...") so the parser can ignore the
 * uploader's own chatter and anything else the firmware prints meanwhile.
 */
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CliError, EXIT_REJECTED } from "./io";

export interface DeviceConsole {
  /** Runs `code` on the board; resolves with everything the console printed. */
  run(code: string): Promise<string>;
}

/** The part of scripts/lib/upload.js used here (it is plain JavaScript, loaded at run time). */
interface UploadLib {
  DEFAULT_BAUD: number;
  writeUploaderBoard(): { file: string; cleanup(): void };
  runEspruinoCli(args: string[], options?: { timeoutMs?: number }): Promise<{ code: number; output: string }>;
}

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "..", "..");
/** How long a whole transfer may take (a 64 KiB pull at 115200 baud is about 10 s). */
const TIMEOUT_MS = 120000;
/** A refused connection (a console session still closing, a port just released) is retried once. */
const RETRY_AFTER_MS = 1000;

async function uploadLib(): Promise<UploadLib> {
  const url = pathToFileURL(join(ROOT, "scripts", "lib", "upload.js")).href;
  return (await import(url)) as UploadLib;
}

/** The console of the board at `port` (a serial device path or tcp://host:port). */
export function espruinoConsole(port: string): DeviceConsole {
  return {
    async run(code: string): Promise<string> {
      const lib = await uploadLib();
      const board = lib.writeUploaderBoard();
      try {
        const args = ["--no-ble", "--board", board.file, "--config", "MODULE_URL=", "-p", port];
        if (!port.startsWith("tcp://")) args.push("-b", String(lib.DEFAULT_BAUD));
        args.push("-e", code);
        let r = await lib.runEspruinoCli(args, { timeoutMs: TIMEOUT_MS });
        if (!/Connected/.test(r.output)) {
          await new Promise((done) => setTimeout(done, RETRY_AFTER_MS));
          r = await lib.runEspruinoCli(args, { timeoutMs: TIMEOUT_MS });
        }
        if (!/Connected/.test(r.output) || /Unable to connect/i.test(r.output)) {
          const last = r.output.trim().split("\n").slice(-3).join("\n");
          throw new CliError(EXIT_REJECTED, "could not talk to the board at " + port + (last ? ":\n" + last : ""));
        }
        if (/timed out after/.test(r.output)) {
          throw new CliError(EXIT_REJECTED, "no complete answer from " + port + " within " + TIMEOUT_MS / 1000 + " s");
        }
        return r.output;
      } finally {
        board.cleanup();
      }
    },
  };
}
