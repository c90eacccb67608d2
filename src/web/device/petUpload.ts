/**
 * Step 2, the upload of the pet firmware over the console, as one flow: keep a backup of the pet's
 * region first (asking whether to go on if it cannot be read: the upload itself never writes it),
 * write the bundle's Storage files (`.bootcde` last) in acknowledged pieces with their CRCs checked (upload.ts),
 * `load` it, and wait up to BOOT_MS for the pet to answer. A cut or refused upload says at which byte
 * it stopped and never restarts the board.
 */
import * as P from "./protocol";
import type { Exchange } from "./protocol";
import { LinkError } from "./serialLink";
import { UploadStopped, writeBootFile } from "./upload";
import { sentBytes, type StorageFile } from "../../boards/bundleForm";

const ACK_MS = 20000;
const BOOT_MS = 30000;

export interface UploadContext {
  /** The bundle's Storage files, in the form the board runs (bundleForm.ts). */
  files: StorageFile[];
  /** Files of the other form to erase once they are written (SentBundle.stale). */
  stale?: string[];
  exchange: Exchange;
  /** Runs `f` as the console's only conversation. */
  exclusive<T>(f: () => Promise<T>): Promise<T>;
  send(text: string): Promise<void>;
  connected(): boolean;
  backUp(reason: string): Promise<string>;
  say(text: string, bad?: boolean): void;
  progress(percent: number): void;
  /** No pet answers while the upload runs. */
  petGone(): void;
  /** Asks for pet.status(); true when a pet answered. */
  refreshStatus(): Promise<boolean>;
  /** The connection was lost: let go of it, saying `message`. */
  lost(message: string): Promise<void>;
  outcome(o: "done" | "silent" | "failed"): void;
}

export async function uploadPet(c: UploadContext): Promise<void> {
  const { files, say } = c;
  const bytes = sentBytes(files);
  let kept: string;
  try {
    say("Reading the pet's region to keep a backup before the upload…");
    kept = await c.backUp("before uploading the pet firmware");
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    if (!confirm("The pet's region could not be read for a backup (" + why + "). Upload anyway? The upload itself never writes the pet's region.")) {
      return say("Not uploaded: the region could not be backed up (" + why + ").", true);
    }
    kept = "No backup (the region could not be read: " + why + ").";
  }
  try {
    await c.exclusive(async () => {
      c.petGone();
      c.progress(0);
      const left = await writeBootFile(files, c.exchange, ACK_MS, (done) => c.progress(Math.round((100 * done) / bytes)), c.stale);
      const leftNote = left.map((n) => "\n" + P.staleFileNote(n) + ".").join("");
      say(kept + "\nUploaded " + bytes + " bytes; starting the pet…" + leftNote);
      await c.send(P.loadCommand());
    });
  } catch (e) {
    const stopped = e instanceof UploadStopped ? e : new UploadStopped(e, 0);
    const cut =
      "Upload stopped at byte " + stopped.done + " of " + bytes + ": " + stopped.message + ". The pet was saved and paused before the upload began; its save is untouched (it lives in its own flash region, which an upload " +
      "never writes). Connect again and upload before resetting the board: the firmware in its Storage is incomplete.";
    c.outcome("failed");
    if (stopped.cause instanceof LinkError && stopped.cause.kind === "lost") await c.lost(cut);
    else say(cut, true);
    return;
  }
  const deadline = Date.now() + BOOT_MS;
  let running = false;
  while (!running && Date.now() < deadline && c.connected()) {
    running = await c.refreshStatus();
    if (!running) await new Promise((r) => setTimeout(r, 300));
  }
  if (running) {
    say("Uploaded and running: the pet is live on the board (step 3).");
    c.outcome("done");
  } else {
    say("Uploaded and restarted, but no pet answered within " + BOOT_MS / 1000 + " s: see the board's lines below.", true);
    c.outcome("silent");
  }
}
