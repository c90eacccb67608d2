/**
 * The simulator's backups: its current save as a payload file (binary or hex, from pet.exportHex()
 * and checked by the codec before it is offered), the whole region image (what `pet-save pull` gives
 * for a board), a restore of a payload file through pet.importHex after the codec accepted it, and a
 * whole region image loaded in place of the simulator's (one from `pet-save pull` or the Device tab:
 * the simulator then runs that board's pet). Both restores ask first and keep a backup of what they
 * replace; a rejected file shows its status and explanation and changes nothing.
 */
import { hexToBytes } from "../../core/hex";
import { byId, download, onFilesPicked } from "../dom";
import { downloadName } from "../fileNames";
import { judgePayload, rejectionText } from "../checkFile/judgePayload";
import { regionSummary } from "../backups/regionSummary";
import type { SimulatorTab } from "./simulatorTab";

function show(out: HTMLElement, text: string, bad: boolean): void {
  out.textContent = text;
  out.classList.toggle("rejected", bad);
  out.dataset.state = bad ? "rejected" : "ok";
}

/** The simulator's current save, checked by the codec, or why there is none. */
async function currentPayload(tab: SimulatorTab): Promise<{ bytes: Uint8Array; hex: string; name: string } | string> {
  const hex = String(await tab.call("exportHex"));
  const bytes = hexToBytes(hex);
  if (bytes === null) return "pet.exportHex() answered " + JSON.stringify(hex);
  const v = judgePayload(bytes, "the export");
  if (!v.ok) return rejectionText(v);
  return { bytes, hex, name: v.json.name };
}

/** The pet on show now, for the questions asked before a restore. */
function currentName(): string {
  return document.getElementById("sim-status")?.dataset.name || "the current pet";
}

export function wireSimBackup(tab: SimulatorTab, backUp: (reason: string) => Promise<string>): void {
  const out = byId("sim-backup-result", HTMLPreElement);
  const restore = byId("sim-restore", HTMLInputElement);
  const loadImage = byId("sim-load-image", HTMLInputElement);
  const fail = (e: unknown): void => show(out, e instanceof Error ? e.message : String(e), true);

  async function payloadDownload(kind: "bin" | "hex"): Promise<void> {
    const p = await currentPayload(tab);
    if (typeof p === "string") return show(out, "no save to download: " + p, true);
    const file = downloadName(p.name, new Date(), kind === "bin" ? "save.bin" : "save.hex");
    if (kind === "bin") download(file, p.bytes, "application/octet-stream");
    else download(file, p.hex + "\n", "text/plain");
    show(out, "downloaded " + file + " (" + p.name + ")", false);
  }
  byId("sim-download-bin", HTMLButtonElement).addEventListener("click", () => payloadDownload("bin").catch(fail));
  byId("sim-download-hex", HTMLButtonElement).addEventListener("click", () => payloadDownload("hex").catch(fail));
  byId("sim-download-image", HTMLButtonElement).addEventListener("click", async () => {
    try {
      const image = await tab.image();
      const file = downloadName(regionSummary(image, tab.region).name, new Date(), "region.bin");
      download(file, image, "application/octet-stream");
      show(out, "downloaded " + file + " (the whole region, as pet-save pull writes it; pet-save push puts its pet on a board)", false);
    } catch (e) {
      fail(e);
    }
  });

  onFilesPicked(restore, async ([f]) => {
    if (!f) return;
    try {
      const v = judgePayload(new Uint8Array(await f.arrayBuffer()), f.name, Date.now());
      if (!v.ok) return show(out, f.name + ": " + rejectionText(v) + "\nNothing was changed.", true);
      if (!confirm("Replace " + currentName() + " in the simulator with " + v.json.name + " from " + f.name + "? A backup of the simulator's region is kept first (Backups).")) {
        return show(out, f.name + ": not restored; nothing was changed.", false);
      }
      const kept = await backUp("before restoring " + f.name);
      const answer = await tab.call("importHex", [v.hex]);
      show(out, kept + "\n" + f.name + ": pet.importHex() answered " + JSON.stringify(answer) + (answer === "ok" ? " (" + v.json.name + " restored)" : ""), answer !== "ok");
    } catch (e) {
      fail(e);
    }
  });

  onFilesPicked(loadImage, async ([f]) => {
    if (!f) return;
    try {
      await putImage(tab, new Uint8Array(await f.arrayBuffer()), f.name, backUp, (text, bad) => show(out, text, bad));
    } catch (e) {
      fail(e);
    }
  });
}

/**
 * Loads a whole region image into the simulator (from a file, the board or a backup): refused unless
 * it holds a save the board can restore; asks first; keeps a backup of the simulator's region.
 */
export async function putImage(
  tab: SimulatorTab,
  bytes: Uint8Array,
  name: string,
  backUp: (reason: string) => Promise<string>,
  show: (text: string, bad: boolean) => void,
): Promise<boolean> {
  const size = tab.region.profile.petRegion.size;
  if (bytes.length !== size) {
    show(name + " is " + bytes.length + " bytes; a region image of the simulator (and of the ESP32) is " + size + " bytes. Nothing was changed.", true);
    return false;
  }
  const s = regionSummary(bytes, tab.region);
  if (s.currentHex === null) {
    show(name + " holds " + s.text + ": the simulator would only hatch a new pet from it. Nothing was changed.", true);
    return false;
  }
  if (!tab.running()) {
    show("The simulator is not running in this tab, so it cannot take the image. Nothing was changed.", true);
    return false;
  }
  if (!confirm("Replace the simulator's whole region (" + currentName() + ") with " + name + " (" + s.text + ")? A backup of the simulator's region is kept first (Backups).")) {
    show(name + ": not loaded; nothing was changed.", false);
    return false;
  }
  const kept = await backUp("before loading " + name);
  await tab.loadImage(bytes);
  show(kept + "\nThe simulator now runs the pet of " + name + " (" + s.text + ").", false);
  return true;
}
