/**
 * Talking to a board's console for `pet-save pull` and `push`: run a few lines of JavaScript on the
 * device and get back what it printed. The real transport is the `espruino` package's command line
 * (`espruino --no-ble -p PORT -e CODE`): it connects (serial, or tcp://host:port), sends the code
 * without resetting the board, relays the console and exits once the board has been quiet for half
 * a second. Tests substitute a fake that runs the code in a local context.
 *
 * The device code prints marker lines ("PETPULL ...", "PETPUSH ...") so the parser can ignore the
 * uploader's own chatter and anything else the firmware prints meanwhile.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { CliError, EXIT_REJECTED } from "./io";

export interface DeviceConsole {
  /** Runs `code` on the board; resolves with everything the console printed. */
  run(code: string): Promise<string>;
}

/** How long a whole transfer may take before it is abandoned (a 64 KiB pull at 115200 baud is ~10 s). */
const TIMEOUT_MS = 120000;

/** Path of the espruino package's command-line script. */
function espruinoCli(): string {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve("espruino/bin/espruino-cli.js");
  } catch {
    throw new CliError(EXIT_REJECTED, "the espruino package is not installed (npm ci installs it as a dev dependency)");
  }
}

/** The console of the board at `port` (a serial device path or tcp://host:port). */
export function espruinoConsole(port: string): DeviceConsole {
  return {
    run(code: string): Promise<string> {
      const cli = espruinoCli();
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [cli, "--no-ble", "-p", port, "-e", code], { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new CliError(EXIT_REJECTED, "no complete answer from " + port + " within " + TIMEOUT_MS / 1000 + " s"));
        }, TIMEOUT_MS);
        child.stdout.setEncoding("latin1");
        child.stderr.setEncoding("latin1");
        child.stdout.on("data", (d: string) => (out += d));
        child.stderr.on("data", (d: string) => (err += d));
        child.on("error", (e) => {
          clearTimeout(timer);
          reject(new CliError(EXIT_REJECTED, "cannot run the espruino uploader: " + e.message));
        });
        child.on("close", (code) => {
          clearTimeout(timer);
          if (/Unable to connect|Error opening|Connection refused|ECONNREFUSED/i.test(out + err) || code !== 0) {
            const last = (err + out).trim().split("\n").slice(-3).join("\n");
            reject(new CliError(EXIT_REJECTED, "could not talk to the board at " + port + (last ? ":\n" + last : "")));
            return;
          }
          resolve(out);
        });
      });
    },
  };
}
