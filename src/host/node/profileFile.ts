/**
 * A board profile file as the Node commands read it: the upload, board-check and the interpreter
 * board (pet-save's region commands say the same things in their own usage words, cli/regionFile.ts).
 * Every way a file can fail is one error naming the file and each problem, as the firmware build says
 * it (scripts/lib/build.js, loadBoardProfile): "bad board profile FILE:" and one "  - ..." line each.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { checkBoardProfile, type BoardProfile } from "../../boards/boardProfile";
import { packageRoot } from "./packageRoot";

/** A board profile file that cannot be used; the message names the file and every problem. */
export class ProfileFileError extends Error {
  constructor(file: string, problems: string[]) {
    super("bad board profile " + file + ":\n  - " + problems.join("\n  - "));
    this.name = "ProfileFileError";
  }
}

/** The profile file env BOARD names (relative to the package's root, as npm runs scripts there), else boards/esp32.json. */
export function profileFileFromEnv(env: Record<string, string | undefined> = process.env): string {
  return resolve(packageRoot(), env.BOARD ? env.BOARD : "boards/esp32.json");
}

/** Reads and checks the profile in `file` (a relative path is taken from the package's root). */
export function readProfileFile(file: string): BoardProfile {
  const path = resolve(packageRoot(), file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ProfileFileError(path, ["cannot read the file: " + (e instanceof Error ? e.message : String(e))]);
  }
  let profile: unknown;
  try {
    profile = JSON.parse(text);
  } catch (e) {
    throw new ProfileFileError(path, ["cannot read it as JSON: " + (e instanceof Error ? e.message : String(e))]);
  }
  const problems = checkBoardProfile(profile);
  if (problems.length > 0) throw new ProfileFileError(path, problems);
  return profile as BoardProfile;
}
