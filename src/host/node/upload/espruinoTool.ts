/**
 * The `espruino` npm package's command-line tool (EspruinoTools 0.1.67), run offline: the terminal
 * of `npm run upload -- --monitor`, and nothing else. Every program of ours talks to a board through
 * the console protocol over ../serial/boardConsole.ts instead (the upload's own reasons are in
 * upload.ts: the tool overruns a UART console without flow control).
 *
 * What the tool does with our options (read from node_modules/espruino, bin/espruino-cli.js):
 * - `--board FILE.json` with a path (anything containing ".") is read locally and stops the tool
 *   from asking the board for process.env and then downloading that board's JSON from espruino.com.
 *   It is the tool's own board format, not our profile: we write a minimal one (firmware version;
 *   built-in module names, so require("Flash") is not fetched).
 * - `--config MODULE_URL=` leaves the tool no URL to fetch modules from, should anything slip by.
 */
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BAUD } from "../../../boards/consoleProtocol";
import { packageRoot } from "../packageRoot";

// Found as Node finds the package, so also where npm put it beside an installed espruino-pet.
export const ESPRUINO_CLI = join(dirname(createRequire(import.meta.url).resolve("espruino/package.json")), "bin", "espruino-cli.js");

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
export function monitorArgs({ boardJson, port, baud = BAUD }: { boardJson: string; port: string; baud?: number }): string[] {
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
 * The tool's process preloads this (a named port its own list does not show; see the file). A
 * CommonJS file of its own beside this module, found from the package's root at run time, because
 * this module runs compiled into dist/host/ as well as from its source.
 */
export function uploaderShim(): string {
  return join(packageRoot(), "src", "host", "node", "upload", "uploaderShim.cjs");
}

/**
 * How to start the tool: { command, args, env }. `port` is the port in `args` (a serial path is
 * handed to the shim so the tool opens it even when its list does not show it).
 */
export function cliSpawn(args: string[], { port }: { port?: string } = {}): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  const env = { ...process.env, PET_NAMED_PORT: port && !port.startsWith("tcp://") ? port : "" };
  return { command: process.execPath, args: ["--require", uploaderShim(), ESPRUINO_CLI].concat(args), env };
}
