/**
 * Board profile files (boards/*.json, or a file of the user's own), read one way by everything that
 * reads one: the firmware build (scripts/lib/build.js, which keys its cache by the file's text and
 * loads the checker only when it builds), `npm start` (scripts/start.js), and every Node command
 * (boardProfiles.ts: the upload, board-check, the soak, pet-save). Plain JavaScript, so the build
 * and the launchers read a profile without a TypeScript loader.
 *
 * One rule says which file: the one named (an option such as --board), else the one env BOARD
 * names, else boards/esp32.json; a relative path is taken from the package's root (where boards/
 * is, and where npm runs every script), wherever the command was started. One error says what is
 * wrong with it: "bad board profile FILE:" and one "  - ..." line a problem, whether the file cannot
 * be read, is not JSON, or fails the profile check (src/boards/boardProfile.ts, checkBoardProfile).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** The profile every command takes when none is named: the ESP32 the pet is made for. */
export const DEFAULT_PROFILE = "boards/esp32.json";

/** A board profile file that cannot be used; the message names the file and every problem. */
export class BoardProfileError extends Error {
  constructor(file, problems) {
    super("bad board profile " + file + ":\n  - " + problems.join("\n  - "));
    this.name = "BoardProfileError";
    this.file = file;
    this.problems = problems;
  }
}

/** The profile file to use: `option` when given, else env BOARD, else DEFAULT_PROFILE; absolute, a relative one taken from `root`. */
export function chosenProfileFile(option, env, root) {
  return resolve(root, option || env.BOARD || DEFAULT_PROFILE);
}

/** A profile file's absolute path, text and parsed JSON, unchecked; BoardProfileError when it cannot be read or is not JSON. */
export function readProfileFile(file, root) {
  const path = resolve(root, file);
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new BoardProfileError(path, ["cannot read the file: " + (e instanceof Error ? e.message : String(e))]);
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new BoardProfileError(path, ["cannot read it as JSON: " + (e instanceof Error ? e.message : String(e))]);
  }
  return { path, text, json };
}

/** The profile in `file`, checked by `check` (checkBoardProfile): { file: its absolute path, profile }, or BoardProfileError with every problem. */
export function loadProfileFile(file, root, check) {
  const { path, json } = readProfileFile(file, root);
  const problems = check(json);
  if (problems.length > 0) throw new BoardProfileError(path, problems);
  return { file: path, profile: json };
}
