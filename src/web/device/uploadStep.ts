/**
 * Step 2's button, "Upload the pet firmware": runs the upload flow (petUpload.ts) over the open
 * connection, one at a time, with the step's progress bar, and goes back to watching the pet once
 * it is over. Also what the page calls after installing Espruino (step 1) to go straight on.
 */
import { byId } from "../dom";
import type { BoardConnection } from "./boardConnection";
import type { LivePet } from "./livePet";
import { uploadPet } from "./petUpload";
import { bundleForVersion } from "../../boards/bundleForm";

export interface UploadStepHooks {
  code: string;
  conn: BoardConnection;
  live: LivePet;
  backUp(reason: string): Promise<string>;
  say(text: string, bad?: boolean): void;
  /** No pet answers while the upload runs. */
  petGone(): void;
}

export function wireUploadStep(h: UploadStepHooks): { upload(): Promise<void>; enable(on: boolean): void } {
  const button = byId("dev-upload", HTMLButtonElement);
  const progress = byId("dev-progress", HTMLProgressElement);
  const info = byId("dev-info", HTMLParagraphElement);
  const { conn } = h;
  let uploading = false;

  async function upload(): Promise<void> {
    if (!conn.isOpen() || uploading) return;
    uploading = true;
    button.disabled = true;
    try {
      // The form this board's Espruino runs: one before 2v14 gets the function form (src/boards/bundleForm.ts).
      const sent = bundleForVersion(h.code, conn.version());
      await uploadPet({
        files: sent.files,
        stale: sent.stale,
        exchange: conn.exchange,
        exclusive: conn.exclusive,
        send: conn.send,
        connected: conn.isOpen,
        backUp: h.backUp,
        say: h.say,
        progress: (percent) => (progress.value = percent),
        petGone: h.petGone,
        refreshStatus: h.live.refresh,
        lost: conn.drop,
        outcome: (o) => (info.dataset.upload = o),
      });
    } finally {
      uploading = false;
      button.disabled = !conn.isOpen();
    }
    if (conn.isOpen()) h.live.watch();
  }
  button.addEventListener("click", () => void upload());
  return {
    upload,
    enable(on) {
      button.disabled = !on || uploading;
    },
  };
}
