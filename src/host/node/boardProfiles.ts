/**
 * Board profiles as the Node commands load them: the upload, board-check, the soak, `pet-save` (its
 * region commands, pull and push) and the interpreter board, all through the one reader
 * (profileFile.js, which the build and `npm start` share) with the one rule for which file: the one
 * named (--board), else env BOARD, else boards/esp32.json, relative paths from the package's root.
 * A command that talks to a board takes a device profile (deviceProfile) and asks the board first
 * whether the profile fits it (serial/identifyBoard.ts).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { checkBoardProfile, type BoardProfile, type DeviceBoardProfile } from "../../boards/boardProfile";
import type { LoadedProfile } from "../../inspect/regionReport";
import { packageRoot, shortPath } from "./packageRoot";
import { chosenProfileFile, loadProfileFile } from "./profileFile";

/** The profiles shipped with the package. */
export const BOARDS_DIR = join(packageRoot(), "boards");

/** The profile file a command uses: `option` (its --board) when given, else env BOARD, else boards/esp32.json. */
export function profileFileFor(option?: string, env: Record<string, string | undefined> = process.env): string {
  return chosenProfileFile(option, env, packageRoot());
}

/** Reads and checks the profile in `file`; BoardProfileError (profileFile.js) naming the file and every problem. */
export function loadProfile(file: string): LoadedProfile {
  return loadProfileFile<BoardProfile>(file, packageRoot(), checkBoardProfile);
}

/** A loaded profile that runs on a board (not a simulator's). */
export type LoadedDeviceProfile = LoadedProfile & { profile: DeviceBoardProfile };

/**
 * `loaded` when it is a device profile; a simulator's (host desktop) is an Error saying there is no
 * board to `doing` ("upload it to", "check") with it.
 */
export function deviceProfile(loaded: LoadedProfile, doing: string): LoadedDeviceProfile {
  if (loaded.profile.host === "desktop" || loaded.profile.espruino === undefined) {
    throw new Error(shortPath(loaded.file) + " is a simulator's profile (host desktop): there is no board to " + doing + "; use BOARD=boards/esp32.json or --board boards/esp32.json");
  }
  return loaded as LoadedDeviceProfile;
}

/** Profiles tried, in this order, when a file's size must say which board's region it is. */
const PREFERRED_BOARDS = ["desktop.json", "esp32.json", "linux.json"];

function rank(name: string): number {
  const i = PREFERRED_BOARDS.indexOf(name);
  return i < 0 ? PREFERRED_BOARDS.length : i;
}

/** The profiles in boards/ that read and check clean, in the order a file's size is matched against them. */
export function knownBoards(): LoadedProfile[] {
  let names: string[] = [];
  try {
    names = readdirSync(BOARDS_DIR).filter((n) => n.endsWith(".json") && n !== "schema.json");
  } catch {
    names = [];
  }
  names.sort((a, b) => rank(a) - rank(b));
  const out: LoadedProfile[] = [];
  for (const n of names) {
    try {
      out.push(loadProfile(join(BOARDS_DIR, n)));
    } catch {
      // a broken profile matches no file
    }
  }
  return out;
}
