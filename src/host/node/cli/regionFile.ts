/**
 * Region images for the `pet-save` region commands (inspect, extract, pull, push): which board's
 * geometry a file has (from the profiles in boards/), and what the slot log in it holds (read by
 * src/inspect/regionReport.ts, shared with the web page).
 *
 * Offset 0 of an image is the first byte of the board's pet region, whatever its flash address.
 */
import { readRegion as readRegionContents, ProfileRegionError, type LoadedProfile, type RegionContents } from "../../../inspect/regionReport";
import { PAYLOAD_LENGTH } from "../../../save/layout";
import { classifyFile } from "../../../inspect/fileKind";
import { knownBoards, loadProfile } from "../boardProfiles";
import { BoardProfileError } from "../profileFile";
import { CliError, EXIT_REJECTED, usageError } from "./io";

export type { LoadedProfile } from "../../../inspect/regionReport";

/** Reads and checks a board profile (../boardProfiles.ts, the one loader); a bad one is a usage error naming every problem. */
export function readProfile(file: string): LoadedProfile {
  try {
    return loadProfile(file);
  } catch (e) {
    if (e instanceof BoardProfileError) throw usageError(e.message);
    throw e;
  }
}

/**
 * Which board's region a file of a given size is an image of: the board named by --board when its
 * region has that size, else (no --board) the first profile in boards/ whose region has it; null
 * when none does. Profiles are read when first asked, and once.
 */
export function regionBoardFinder(boardOption: string | undefined): (size: number) => LoadedProfile | null {
  let boards: LoadedProfile[] | null = null;
  return (size) => {
    if (boards === null) boards = boardOption !== undefined ? [readProfile(boardOption)] : knownBoards();
    return boards.find((b) => b.profile.petRegion.size === size) ?? null;
  };
}

/** Why a file of `size` bytes is no region image: of the board named by --board, or of any known board (exit 1). */
export function notARegion(size: number, boardOption: string | undefined, path: string): CliError {
  if (boardOption !== undefined) {
    const b = readProfile(boardOption);
    return new CliError(
      EXIT_REJECTED,
      path + " is " + size + " bytes but the region of " + b.profile.name + " is " + b.profile.petRegion.size + " bytes: not an image of that region",
    );
  }
  return new CliError(
    EXIT_REJECTED,
    path + " is " + size + " bytes: neither an " + PAYLOAD_LENGTH + "-byte payload nor a region image of a known board" +
      " (a region image is exactly the board's petRegion.size bytes, a chip's dump a power of two of at least 1 MiB holding the region; pass --board FILE for another board)",
  );
}

/**
 * Which board's region a whole chip's flash of `size` bytes (a dump, offset = flash address) holds:
 * the board named by --board when its region lies inside, else the first profile in boards/ whose
 * region does. Profiles are read when first asked, and once.
 */
export function chipBoardFinder(boardOption: string | undefined): (size: number) => LoadedProfile | null {
  let boards: LoadedProfile[] | null = null;
  return (size) => {
    if (boards === null) boards = boardOption !== undefined ? [readProfile(boardOption)] : knownBoards();
    return boards.find((b) => b.profile.host !== "desktop" && b.profile.petRegion.address + b.profile.petRegion.size <= size) ?? null;
  };
}

/**
 * The region image inside `bytes`: the file itself when it is one, or the region's bytes when it is
 * a whole chip's dump (src/inspect/fileKind.ts); with the board, and where the region was found.
 * Anything else is a CliError saying what the file is not.
 */
export function regionOfFile(bytes: Uint8Array, boardOption: string | undefined, path: string, name: string): { bytes: Uint8Array; board: LoadedProfile; where: string } {
  const k = classifyFile(bytes, name, regionBoardFinder(boardOption), chipBoardFinder(boardOption));
  if (k.kind === "region") return { bytes, board: k.board, where: "" };
  if (k.kind === "chip") {
    const r = k.board.profile.petRegion;
    return { bytes: bytes.subarray(k.offset, k.offset + r.size), board: k.board, where: " (the pet region at 0x" + k.offset.toString(16) + " of a " + bytes.length / 1048576 + " MiB flash dump)" };
  }
  throw notARegion(bytes.length, boardOption, path);
}

/** readRegion with a bad board as a usage error (exit 2). */
export function readRegion(bytes: Uint8Array, board: LoadedProfile): RegionContents {
  try {
    return readRegionContents(bytes, board);
  } catch (e) {
    if (e instanceof ProfileRegionError) throw usageError(e.message);
    throw e;
  }
}

/** The current save's 84 bytes, or a CliError (exit 1) saying why the image has none. */
export function currentPayload(c: RegionContents, path: string): Uint8Array {
  if (c.current.status === "ok" && c.current.payload !== null) return c.current.payload;
  throw new CliError(EXIT_REJECTED, path + ": no current save (" + c.current.status + ": " + c.current.message + ")");
}
