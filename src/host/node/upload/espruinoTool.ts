/**
 * The `espruino` npm package's command-line tool (EspruinoTools 0.1.67), run offline: uploading the
 * bundle so that it runs at every boot (`npm run upload`), and running a few lines on a board for
 * `pet-save pull` and `push` (src/host/node/cli/deviceConsole.ts).
 *
 * What the tool does with our options (read from node_modules/espruino, bin/espruino-cli.js and
 * plugins/saveOnSend.js):
 * - `--storage .bootcde:-` sends the code as `require("Storage").write(".bootcde", chunk, offset, size)`
 *   lines (1 KiB chunks) followed by `load(".bootcde")`. Espruino runs `.bootcde` at every boot.
 *   We use this rather than `--config SAVE_ON_SEND=1` because `-o` (dry run) silently turns
 *   SAVE_ON_SEND off, while `--storage` survives it: dry run and real upload send the same text.
 * - `--board FILE.json` with a path (anything containing ".") is read locally and stops the tool
 *   from asking the board for process.env and then downloading that board's JSON from espruino.com.
 *   It is the tool's own board format, not our profile: we write a minimal one (firmware version,
 *   so the tool uses Storage; built-in module names, so require("Flash") is not fetched).
 * - `--config MODULE_URL=` leaves the tool no URL to fetch modules from, should anything slip by.
 * - Over a serial port the tool waits 250 ms after every Storage.write piece, because XON/XOFF
 *   alone is too slow to stop a fast serial line before the board's input buffer overflows while
 *   it writes flash. A tcp:// port (the Linux interpreter's telnet console) has TCP's own flow
 *   control, and Espruino's telnet server reads the socket only when its input buffer has room, so
 *   nothing can be lost there: we pass `--config STORAGE_UPLOAD_METHOD=1` (the tool's "No delays"),
 *   which takes a 33 KB upload from about 8 s to under 1 s.
 * - The tool exits 0 even when it cannot connect; we look at what it printed instead.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { packageRoot } from "../packageRoot";

// Found as Node finds the package, so also where npm put it beside an installed espruino-pet.
export const ESPRUINO_CLI = join(dirname(createRequire(import.meta.url).resolve("espruino/package.json")), "bin", "espruino-cli.js");
export const DEFAULT_BAUD = 115200;
/** Storage file Espruino runs at boot. */
export const BOOT_FILE = ".bootcde";

/**
 * The uploader's board description (EspruinoTools format). binary_version >= 1v96 makes it write to
 * Storage; MODULES / builtin_modules are the modules compiled into Espruino for ESP32 (and Linux)
 * that the tool must not try to download.
 */
export const UPLOADER_BOARD: { info: { binary_version: string; builtin_modules: string[] }; MODULES: string } = {
  info: {
    binary_version: "2v26",
    builtin_modules: ["Flash", "Storage", "heatshrink", "ESP32", "Wifi", "net", "dgram", "http", "crypto", "tls", "NetworkJS", "TelnetServer"],
  },
  MODULES: "Flash,Storage,heatshrink,ESP32,Wifi,net,dgram,http,crypto,tls,NetworkJS,TelnetServer",
};

/** Command-line arguments for the espruino tool's upload of `bundleFile` (to `port`, or into `outJs` for a dry run). */
export function uploadArgs({ bundleFile, boardJson, port, baud = DEFAULT_BAUD, outJs }: { bundleFile: string; boardJson: string; port?: string; baud?: number; outJs?: string }): string[] {
  const args = ["--no-ble", "--board", boardJson, "--config", "MODULE_URL=", "--storage", BOOT_FILE + ":-"];
  if (port && port.startsWith("tcp://")) args.push("--config", "STORAGE_UPLOAD_METHOD=1");
  if (port) args.push("-p", port, "-b", String(baud));
  if (outJs) args.push("-o", outJs);
  args.push(bundleFile);
  return args;
}

/** Arguments for a plain terminal session (`--monitor`). */
export function monitorArgs({ boardJson, port, baud = DEFAULT_BAUD }: { boardJson: string; port: string; baud?: number }): string[] {
  return ["--no-ble", "--board", boardJson, "--config", "MODULE_URL=", "-p", port, "-b", String(baud)];
}

/** Writes UPLOADER_BOARD to a fresh temp dir; returns its path and a cleanup function. */
export function writeUploaderBoard(): { file: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "pet-upload-"));
  const file = join(dir, "espruino-tools-board.json");
  writeFileSync(file, JSON.stringify(UPLOADER_BOARD));
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The tool's process preloads this (named ports, progress and answer markers; see the file). A
 * CommonJS file of its own beside this module, found from the package's root at run time, because
 * this module runs compiled into dist/host/ as well as from its source.
 */
export function uploaderShim(): string {
  return join(packageRoot(), "src", "host", "node", "upload", "uploaderShim.cjs");
}

/** What runEspruinoCli answers. */
export interface ToolRun {
  /** The tool's exit status (-1 when it was killed). */
  code: number;
  /** Everything it printed, stdout and stderr in order. */
  output: string;
  /** Some byte came back from the board (the shim's marker). */
  answered: boolean;
}

/**
 * How to start the tool: { command, args, env }. `port` is the port in `args` (a serial path is
 * handed to the shim so the tool opens it even when its list does not show it); `markers` asks
 * the shim for its "[pet] ..." lines (not in an interactive terminal).
 */
export function cliSpawn(args: string[], { port, markers = true }: { port?: string; markers?: boolean } = {}): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  const env = { ...process.env, PET_MARKERS: markers ? "1" : "", PET_NAMED_PORT: port && !port.startsWith("tcp://") ? port : "" };
  return { command: process.execPath, args: ["--require", uploaderShim(), ESPRUINO_CLI].concat(args), env };
}

/**
 * Runs the espruino tool and collects what it prints. Resolves with { code, output, answered }
 * (never rejects on tool failure; a timeout kills it and is reported in `output`). `answered`: some
 * byte came back from the board. `onProgress(sent, total)` is called as the upload goes out.
 */
export function runEspruinoCli(
  args: string[],
  { timeoutMs = 120000, echo = false, port, onProgress }: { timeoutMs?: number; echo?: boolean; port?: string; onProgress?: (sent: number, total: number) => void } = {},
): Promise<ToolRun> {
  return new Promise((resolvePromise) => {
    const how = cliSpawn(args, { port });
    const child = spawn(how.command, how.args, { stdio: ["ignore", "pipe", "pipe"], env: how.env });
    let output = "";
    let pending = "";
    const onData = (d: Buffer): void => {
      output += d.toString();
      if (echo) process.stdout.write(d);
    };
    child.stdout.on("data", (d: Buffer) => {
      onData(d);
      pending += d.toString();
      const lines = pending.split("\n");
      pending = lines.pop() as string;
      for (const line of lines) {
        const m = /^\[pet\] progress (\d+) (\d+)/.exec(line);
        if (m && onProgress) onProgress(Number(m[1]), Number(m[2]));
      }
    });
    child.stderr.on("data", onData);
    const timer = setTimeout(() => {
      output += "\n(timed out after " + timeoutMs + " ms)\n";
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code === null ? -1 : code, output, answered: /^\[pet\] board answered/m.test(output) });
    });
  });
}

/**
 * When the tool crashed (it exited with a status other than 0, or Node printed an uncaught error and
 * its stack), the error's own words, else null. Node prints the cause in the middle of the dump, under
 * the source line it came from, which is why the tool's raw output is no message for a person.
 */
export function uploaderCrash(output: string, code: number): string | null {
  const stack = /^\s+at .+:\d+/m.test(output) || /^Node\.js v\d/m.test(output);
  if (!stack && (code === 0 || code === -1)) return null;
  for (const line of output.split(/\r?\n/)) {
    const m = /^(?:Uncaught )?([A-Za-z]*Error)(?: \[[A-Z_]+\])?: (.+)$/.exec(line.trim());
    if (m) return m[1] + ": " + (m[2] as string).trim();
  }
  return "it exited with status " + code;
}

/**
 * Why the upload did not go through, as one line that names the cause and what to do, or null when
 * it went through. `r` is runEspruinoCli's answer.
 */
export function uploadTrouble(r: ToolRun, port: string): string | null {
  const crash = uploaderCrash(r.output, r.code);
  if (crash !== null) {
    return "the espruino tool crashed while uploading to " + port + " (" + crash + "); try again, and if it crashes again run with --verbose and report what it prints";
  }
  const problem = uploadProblem(r.output);
  if (problem === null) return null;
  const todo = (<Record<string, string>>{
    "could not connect to the board": "is another program using the port? close it and try again",
    "the espruino tool timed out": "the board stopped answering mid-way; press its EN/RST button and upload again (the pet's region was not touched)",
    "the board reported a missing module": "the bundle needs a module the board lacks; run with --verbose to see which",
  })[problem];
  return problem + (todo ? "; " + todo : "; run with --verbose to see what the espruino tool printed");
}

/** Did the tool's output say the upload went through? Returns null when fine, else why not. */
export function uploadProblem(output: string): string | null {
  if (/Unable to connect|ECONNREFUSED|EHOSTUNREACH|ETIMEDOUT|ENOTFOUND|Port ".*" not found/i.test(output)) {
    return "could not connect to the board";
  }
  if (/timed out after/.test(output)) return "the espruino tool timed out";
  // The tool says "Upload Complete" once it has written everything, answer or not.
  if (!/^\[pet\] board answered/m.test(output)) return "the board never answered (is it running Espruino, at this baud rate? is this its port?)";
  if (/Module .* not found/i.test(output)) return "the board reported a missing module";
  if (!/Upload Complete/.test(output)) return "the espruino tool did not report \"Upload Complete\"";
  return null;
}
