/**
 * The Device tab's buttons on the live pet: interact and save call the `pet` methods of the same
 * names, and any answer other than "ok" is shown with what it means (a save the flash refused);
 * rename and hatch are the name box (../nameField.ts), shared with the simulator. The backups go
 * through the codec before anything is offered or sent: a downloaded save must decode, and a
 * restore is sent to pet.importHex only for a file the codec accepts, after asking and keeping a
 * backup.
 */
import { hexToBytes } from "../../core/hex";
import { download, onFilesPicked } from "../dom";
import { judgePayload, rejectionText } from "../checkFile/judgePayload";
import { answerText } from "../nameField";
import { downloadName } from "../fileNames";
import type { petCallCommand } from "./protocol";

/** Calls pet.<method>(args) on the board; its string answer, or null when the call failed (already said). */
export type PetCall = (method: Parameters<typeof petCallCommand>[0], args?: string[]) => Promise<string | null>;

export interface PetActionHooks {
  call: PetCall;
  say(text: string, bad?: boolean): void;
  /** Reads the board's region and keeps it (backupFirst.ts); throws when it cannot be read. */
  backUp(reason: string): Promise<string>;
  /** The pet's name as last reported, for the questions asked. */
  petName(): string;
}

/**
 * Puts a checked save (hex) on the board in place of its pet: asks, keeps a backup of the board's
 * region, then pet.importHex. Used by the restore here, by "Copy the simulator's pet onto the board"
 * and by the Backups tab.
 */
export async function importOntoBoard(h: PetActionHooks, hex: string, petName: string, from: string): Promise<string> {
  if (!confirm("Replace " + h.petName() + " on the board with " + petName + " (" + from + ")? A backup of the board's pet region is kept first (Backups).")) {
    return "Not restored: nothing was sent to the board.";
  }
  let kept: string;
  try {
    kept = await h.backUp("before restoring " + petName + " from " + from);
  } catch (e) {
    return "Could not back up the board's region first (" + (e instanceof Error ? e.message : String(e)) + "); nothing was sent.";
  }
  const r = await h.call("importHex", [hex]);
  if (r === null) return kept + "\npet.importHex() did not answer.";
  return kept + "\n" + answerText("importHex", r) + (r === "ok" ? " (" + petName + " is on the board now)" : "");
}

export function wirePetActions(petButtons: HTMLButtonElement[], restore: HTMLInputElement, h: PetActionHooks): void {
  const [interactBtn, saveBtn, downloadBtn, downloadBinBtn] = petButtons as [HTMLButtonElement, HTMLButtonElement, HTMLButtonElement, HTMLButtonElement];
  const { call, say } = h;
  async function act(method: "interact" | "save"): Promise<void> {
    const r = await call(method);
    if (r !== null) say(answerText(method, r), r !== "ok");
  }
  interactBtn.addEventListener("click", () => void act("interact"));
  saveBtn.addEventListener("click", () => void act("save"));
  async function downloadSave(kind: "hex" | "bin"): Promise<void> {
    const hex = await call("exportHex");
    const bytes = hex === null ? null : hexToBytes(hex);
    if (bytes === null) return say("pet.exportHex() gave no payload: " + String(hex), true);
    const v = judgePayload(bytes, "the board's export");
    if (!v.ok) return say(rejectionText(v), true);
    const file = downloadName(v.json.name, new Date(), kind === "hex" ? "save.hex" : "save.bin");
    if (kind === "hex") download(file, v.hex + "\n", "text/plain");
    else download(file, v.bytes, "application/octet-stream");
    say("Downloaded the board's save (" + v.json.name + ").");
  }
  downloadBtn.addEventListener("click", () => void downloadSave("hex"));
  downloadBinBtn.addEventListener("click", () => void downloadSave("bin"));
  onFilesPicked(restore, async ([f]) => {
    if (!f) return;
    const v = judgePayload(new Uint8Array(await f.arrayBuffer()), f.name, Date.now());
    if (!v.ok) return say(f.name + ": " + rejectionText(v) + "\nNothing was sent to the board.", true);
    const text = await importOntoBoard(h, v.hex, v.json.name, f.name);
    say(f.name + ": " + text, !/answered "ok"/.test(text));
  });
}
