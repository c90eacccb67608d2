/**
 * The board's whole pet region over its console, read as `pet-save pull` reads it (pullRegion.ts),
 * with the progress bar under step 2: what "Copy the board's pet into the simulator" loads and what
 * "Download region image" saves; the backups before an upload, a hatch or a restore keep what the
 * slot log reads of it (pullRegion's logOnly).
 */
import type { LoadedProfile } from "../../inspect/regionReport";
import { backUpFirst } from "../backups/backupFirst";
import { regionSummary } from "../backups/regionSummary";
import { byId, download } from "../dom";
import { downloadName } from "../fileNames";
import type { BoardConnection } from "./boardConnection";
import { pullRegion } from "./pullRegion";

export interface BoardRegion {
  read(): Promise<Uint8Array>;
  /** Reads the region and keeps it under Backups; the sentence saying so. Throws when it cannot be read. */
  backUp(reason: string): Promise<string>;
  /** "Download region image" is offered whenever a board is connected, pet or not. */
  enable(on: boolean): void;
}

export function wireBoardRegion(conn: BoardConnection, region: LoadedProfile, say: (text: string, bad?: boolean) => void): BoardRegion {
  const progress = byId("dev-progress", HTMLProgressElement);
  const button = byId("dev-download-image", HTMLButtonElement);
  const size = region.profile.petRegion.size;

  function read(logOnly = false): Promise<Uint8Array> {
    return conn.exclusive(async () => {
      progress.value = 0;
      const image = await pullRegion(conn.exchange, region.profile.petRegion, (done) => (progress.value = Math.round((100 * done) / size)), { logOnly });
      return image.bytes;
    });
  }

  button.addEventListener("click", async () => {
    if (!conn.isOpen()) return;
    button.disabled = true;
    try {
      say("Reading the pet's region from the board…");
      const bytes = await read();
      const summary = regionSummary(bytes, region);
      const file = downloadName(summary.name, new Date(), "region.bin");
      download(file, bytes, "application/octet-stream");
      say("Downloaded the board's pet region as " + file + " (" + size + " bytes, as pet-save pull writes it): " + summary.text + ".");
    } catch (e) {
      say("Could not read the region: " + (e instanceof Error ? e.message : String(e)), true);
    } finally {
      button.disabled = !conn.isOpen();
    }
  });

  return {
    read: () => read(),
    // What the slot log reads (pullRegion's logOnly): the pet the board would boot with, quickly.
    backUp: async (reason) => backUpFirst({ source: "board", board: region, reason, image: await read(true) }),
    enable(on) {
      button.disabled = !on;
    },
  };
}
