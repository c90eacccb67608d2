/**
 * What the interpreter tests share: the binary (env ESPRUINO), the board profile of that build, and
 * the words that say how to get one.
 *
 * The tests that run the firmware on Espruino's Linux build are skipped without ESPRUINO, and the
 * global setup (test/global-setup.ts) then says so in one line with the way to get an interpreter.
 * CI builds the ESP32-like interpreter of ../shared/espruino and sets ESPRUINO (.ci/run), so there
 * they always run. Which profile a test builds for depends on the build: BOARD LINUX_ESP32 (the kit,
 * the ESP32's own flash offsets) takes boards/linux-esp32.json, the stock LINUX build
 * boards/linux.json (scripts/lib/espruinoLinux.js, interpreterProfile).
 */
import { readFileSync } from "node:fs";
import { interpreterProfile } from "../scripts/lib/espruinoLinux.js";
import type { BoardProfile } from "../src/boards/boardProfile";

export const ESPRUINO = process.env.ESPRUINO;

/** The one line that says how to run the interpreter tests. */
export const HOW_TO_GET_ESPRUINO =
  "set ESPRUINO to an Espruino Linux build to run them: ESPRUINO=$(../shared/espruino/build.sh | tail -1) npm test " +
  '(or build Espruino yourself: docs/firmware.md, "Espruino for Linux")';

/** The suffix of every interpreter test's describe(), which a skipped run lists. */
export const NEEDS_ESPRUINO = "(needs ESPRUINO)";

export interface InterpreterBoard {
  /** The profile file's absolute path (BOARD for scripts/flash.js, --board for pet-save). */
  path: string;
  profile: BoardProfile;
  /** Where the build maps its flash file: address X of the profile is byte X - FLASH_START of espruino.flash. */
  flashStart: number;
}

/** Both Linux builds map their flash file at this address. */
export const LINUX_FLASH_START = 0x10000000;

/** The board profile for the interpreter in ESPRUINO. */
export async function interpreterBoard(): Promise<InterpreterBoard> {
  const path = await interpreterProfile(ESPRUINO!);
  return { path, profile: JSON.parse(readFileSync(path, "utf8")) as BoardProfile, flashStart: LINUX_FLASH_START };
}
