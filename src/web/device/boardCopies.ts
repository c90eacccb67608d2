/**
 * The pet between the board and the simulator, and from a backup onto the board: "Copy the board's
 * pet into the simulator" reads the board's region and loads it there; "Copy the simulator's pet
 * onto the board" restores the simulator's current save onto the board; the Backups tab's "Onto the
 * board" restores a region image's current save. Each asks first and keeps a backup of what it
 * replaces (simBackup.ts putImage, petActions.ts importOntoBoard).
 */
import { hexToBytes } from "../../core/hex";
import type { LoadedProfile } from "../../inspect/regionReport";
import { regionSummary } from "../backups/regionSummary";
import { byId } from "../dom";
import { judgePayload, rejectionText } from "../checkFile/judgePayload";
import { importOntoBoard, type PetActionHooks } from "./petActions";

export interface CopyHooks {
  region: LoadedProfile;
  say(text: string, bad?: boolean): void;
  readRegion(): Promise<Uint8Array>;
  petHooks: PetActionHooks;
  simulator: { putImage(bytes: Uint8Array, name: string): Promise<string>; exportHex(): Promise<string> };
}

export function wireBoardCopies(h: CopyHooks): { toBoard(bytes: Uint8Array, name: string): Promise<string> } {
  const { say } = h;
  byId("dev-to-sim", HTMLButtonElement).addEventListener("click", async () => {
    try {
      say("Reading the pet's region from the board…");
      const bytes = await h.readRegion();
      say(await h.simulator.putImage(bytes, "the board's region"));
    } catch (e) {
      say("Could not copy the board's pet: " + (e instanceof Error ? e.message : String(e)), true);
    }
  });
  byId("dev-from-sim", HTMLButtonElement).addEventListener("click", async () => {
    try {
      const hex = await h.simulator.exportHex();
      const bytes = hexToBytes(hex);
      const v = bytes === null ? null : judgePayload(bytes, "the simulator's save");
      if (v === null || !v.ok) return say("The simulator gave no save to copy: " + (v === null ? hex : rejectionText(v)), true);
      const text = await importOntoBoard(h.petHooks, v.hex, v.json.name, "the simulator");
      say(text, !/answered "ok"/.test(text));
    } catch (e) {
      say("Could not copy the simulator's pet: " + (e instanceof Error ? e.message : String(e)), true);
    }
  });

  return {
    async toBoard(bytes, name) {
      const s = regionSummary(bytes, h.region);
      if (s.currentHex === null) return name + " holds " + s.text + ": nothing to put on the board.";
      return importOntoBoard(h.petHooks, s.currentHex, s.text.split(",")[0] as string, name);
    },
  };
}
