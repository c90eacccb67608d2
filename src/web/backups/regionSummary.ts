/**
 * What a region image holds, in a few words, found by the same reader `pet-save inspect` uses
 * (src/inspect/regionReport.ts): the save the board would restore at boot, or why there is none.
 */
import { loadWorld } from "../../save/codec";
import { payloadJson } from "../../save/payloadJson";
import { bytesToHex } from "../../core/hex";
import { readRegion, type LoadedProfile } from "../../inspect/regionReport";

export interface RegionSummary {
  /** "Pip, updates 12" or "no save: empty". */
  text: string;
  /** The current save's pet name, or null when there is none. */
  name: string | null;
  /** The current save as hex (what pet.importHex takes), or null when there is none. */
  currentHex: string | null;
  empty: boolean;
}

export function regionSummary(bytes: Uint8Array, board: LoadedProfile): RegionSummary {
  const empty = bytes.every((b) => b === 0xff);
  if (bytes.length !== board.profile.petRegion.size) return { text: "not a region image (" + bytes.length + " bytes)", name: null, currentHex: null, empty };
  const c = readRegion(bytes, board);
  if (c.current.status !== "ok" || c.current.payload === null) return { text: "no save: " + (empty ? "empty" : c.current.status), name: null, currentHex: null, empty };
  const loaded = loadWorld(c.current.payload, 0);
  if (loaded.world === null) return { text: "no save: " + loaded.status, name: null, currentHex: null, empty };
  const j = payloadJson(loaded.world, loaded.savedAt);
  return { text: j.name + ", updates " + j.updateCount, name: j.name, currentHex: bytesToHex(c.current.payload), empty };
}
