/**
 * The `espruino` npm package's command-line tool (EspruinoTools 0.1.67), run offline: the terminal
 * of `npm run upload -- --monitor`, and running a few lines on a board for `pet-save pull` and
 * `push` (src/host/node/cli/deviceConsole.ts). The upload itself no longer goes through it
 * (../upload/upload.ts says why: it overruns a UART console without flow control).
 *
 * What the tool does with our options (read from node_modules/espruino, bin/espruino-cli.js):
 * - `--board FILE.json` with a path (anything containing ".") is read locally and stops the tool
 *   from asking the board for process.env and then downloading that board's JSON from espruino.com.
 *   It is the tool's own board format, not our profile: we write a minimal one (firmware version;
 *   built-in module names, so require("Flash") is not fetched).
 * - `--config MODULE_URL=` leaves the tool no URL to fetch modules from, should anything slip by.
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
