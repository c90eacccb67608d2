/**
 * What the interpreter tests share: the binary (env ESPRUINO), the board profile of that build, and
 * the words that say how to get one.
 *
 * The tests that run the firmware on Espruino's Linux build are skipped without ESPRUINO, and the
 * global setup (test/espruino-global-setup.ts) then says so in one line with the way to get an interpreter.
 * CI builds the ESP32-like interpreter of ../shared/espruino and sets ESPRUINO (.ci/run), so there
 * they always run. Which profile a test builds for depends on the build: BOARD LINUX_ESP32 (the kit,
 * the ESP32's own flash offsets) takes boards/linux-esp32.json, the stock LINUX build
 * boards/linux.json (src/host/node/interpreter/espruinoLinux.ts, interpreterProfile).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildFirmware } from "../scripts/lib/build.js";
import { checkBundle, formatFindings } from "../scripts/lib/bundleCheck.js";
import { interpreterProfile } from "../src/host/node/interpreter/espruinoLinux";
import { FLASH_START, type InterpreterBoard } from "../src/host/node/interpreter/interpreterBoard";
import type { BoardProfile } from "../src/boards/boardProfile";
import { storageBytes } from "../src/boards/consoleProtocol";

export const ESPRUINO = process.env.ESPRUINO;

/** The one line that says how to run the interpreter tests. */
export const HOW_TO_GET_ESPRUINO =
  "set ESPRUINO to an Espruino Linux build to run them: ESPRUINO=$(../shared/espruino/build.sh | tail -1) npm test " +
  '(or build Espruino yourself: docs/firmware.md, "Espruino for Linux")';

/** The suffix of every interpreter test's describe(), which a skipped run lists. */
export const NEEDS_ESPRUINO = "(needs ESPRUINO)";

/** The board profile of the interpreter in ESPRUINO, and where that build maps its flash file. */
export interface InterpreterProfile {
  /** The profile file's absolute path (BOARD for scripts/upload.js, --board for pet-save). */
  path: string;
  profile: BoardProfile;
  /** Where the build maps its flash file: address X of the profile is byte X - flashStart of espruino.flash. */
  flashStart: number;
}

/** The board profile for the interpreter in ESPRUINO. */
export async function loadInterpreterProfile(): Promise<InterpreterProfile> {
  const path = await interpreterProfile(ESPRUINO!);
  return { path, profile: JSON.parse(readFileSync(path, "utf8")) as BoardProfile, flashStart: FLASH_START };
}

/**
 * The firmware for the profile file `profile`, built into the board's folder and checked as the
 * upload checks it, then uploaded to `board` the way `npm run upload` does (the board asked what it is
 * first); { code, out } as board.upload answers.
 */
export async function uploadFirmware(board: InterpreterBoard, profile: string): Promise<{ code: number; out: string }> {
  const built = await buildFirmware({ board: profile, outFile: join(board.dir, "firmware.js") });
  const findings = checkBundle(built.code);
  if (findings.length > 0) return { code: 1, out: formatFindings(built.code, findings) };
  return board.upload(built.outFile as string, profile);
}

/**
 * Runs `code` with `espruino -e` in `dir` (its flash file kept there) and resolves with everything it
 * printed, stdout then stderr. stdin stays an open pipe (at end of file the interpreter's
 * input thread spins) and quit() comes from a timeout, not from the code itself
 * (../shared/espruino/README.md); a run that has not ended in 60 s is killed.
 */
export function runEspruinoCode(code: string, dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(ESPRUINO!, ["-e", code + "\n;setTimeout(quit,1);"], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
    // Each stream whole, stdout first: the interpreter's start-up lines go to stderr and, mixed in as
    // they came, could land in the middle of a line the code prints.
    let out = "";
    let err = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stdout.on("data", (d: Buffer) => (out += d.toString("latin1")));
    child.stderr.on("data", (d: Buffer) => (err += d.toString("latin1")));
    child.on("error", reject);
    child.on("exit", () => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve(out + err);
    });
  });
}

/** Writes `files` to the interpreter's Storage in `dir`, one after the other; each prints "#wrote true" or "#wrote false". */
export function writeStorageFiles(files: { name: string; code: string }[], dir: string): Promise<string> {
  return runEspruinoCode(files.map((f) => 'print("#wrote "+require("Storage").write(' + JSON.stringify(f.name) + "," + storageBytes(f.code) + "));").join(""), dir);
}
