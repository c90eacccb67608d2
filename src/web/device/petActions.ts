/**
 * The Device tab's buttons on the live pet: interact, save, rename and hatch call the `pet` methods of
 * the same names (hatch asks first); the backups go through the codec before anything is offered or
 * sent: a downloaded save must decode, and a file is sent to pet.importHex only when the codec
 * accepts it (a rejection shows its status and explanation and sends nothing).
 */
import { hexToBytes } from "../../core/hex";
import { download } from "../dom";
import { judgePayload, rejectionText } from "../files/judgePayload";
import type { petCallCommand } from "./protocol";

/** Calls pet.<method>(args) on the board; its string answer, or null when the call failed (already said). */
export type PetCall = (method: Parameters<typeof petCallCommand>[0], args?: string[]) => Promise<string | null>;

export function wirePetActions(petButtons: HTMLButtonElement[], restore: HTMLInputElement, call: PetCall, say: (text: string, bad?: boolean) => void): void {
  const [interactBtn, saveBtn, renameBtn, hatchBtn, downloadBtn, downloadBinBtn] = petButtons as [HTMLButtonElement, HTMLButtonElement, HTMLButtonElement, HTMLButtonElement, HTMLButtonElement, HTMLButtonElement];
  interactBtn.addEventListener("click", () => void call("interact"));
  saveBtn.addEventListener("click", () => void call("save"));
  renameBtn.addEventListener("click", () => {
    const name = prompt("New name for the pet (up to 31 bytes):");
    if (name) void call("rename", [name]);
  });
  hatchBtn.addEventListener("click", () => {
    if (!confirm("Hatch a new pet? The current one is replaced (download a backup first if you want to keep it).")) return;
    const name = prompt("Name of the new pet (empty: the default name):");
    void call("hatch", name ? [name] : []);
  });
  async function downloadSave(kind: "hex" | "bin"): Promise<void> {
    const hex = await call("exportHex");
    const bytes = hex === null ? null : hexToBytes(hex);
    if (bytes === null) return say("pet.exportHex() gave no payload: " + String(hex), true);
    const v = judgePayload(bytes, "the board's export");
    if (!v.ok) return say(rejectionText(v), true);
    const stem = v.json.name.replace(/[^A-Za-z0-9_-]+/g, "_") || "pet";
    if (kind === "hex") download(stem + "-save.hex", v.hex + "\n", "text/plain");
    else download(stem + "-save.bin", v.bytes, "application/octet-stream");
    say("Downloaded the board's save (" + v.json.name + ").");
  }
  downloadBtn.addEventListener("click", () => void downloadSave("hex"));
  downloadBinBtn.addEventListener("click", () => void downloadSave("bin"));
  restore.addEventListener("change", async () => {
    const f = restore.files && restore.files[0];
    restore.value = "";
    if (!f) return;
    const v = judgePayload(new Uint8Array(await f.arrayBuffer()), f.name, Date.now());
    if (!v.ok) return say(f.name + ": " + rejectionText(v) + "\nNothing was sent to the board.", true);
    const r = await call("importHex", [v.hex]);
    if (r !== null) say(f.name + ": pet.importHex() answered " + JSON.stringify(r), r !== "ok");
  });
}
