/**
 * "A backup before anything destructive": reads the region (from the simulator, or from the board
 * over its console or esptool-js) and keeps it (backupStore.ts) before the caller goes on. Answers
 * one sentence for the page to show; an empty region (all 0xFF) has nothing to keep and is not kept.
 * If the region cannot be read the caller gets the error and does nothing destructive.
 */
import type { LoadedProfile } from "../../inspect/regionReport";
import { keepBackup, type BackupSource } from "./backupStore";
import { regionSummary } from "./regionSummary";

export async function backUpFirst(o: { source: BackupSource; board: LoadedProfile; reason: string; image: Uint8Array }): Promise<string> {
  const s = regionSummary(o.image, o.board);
  if (s.empty) return "The pet's region was empty: there was nothing to back up.";
  const r = await keepBackup({ at: Date.now(), source: o.source, boardFile: o.board.file, reason: o.reason, summary: s.text, bytes: o.image });
  return r.stored
    ? "Backed up the pet's region first (" + s.text + "): it is kept in this browser, under Backups."
    : "The pet's region is as in the backup of " + new Date(r.backup.at).toLocaleString() + " (" + s.text + "), which is kept under Backups.";
}
