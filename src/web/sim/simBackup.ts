/**
 * The simulator's backups: its current save as a payload file (binary or hex, from pet.exportHex()
 * and checked by the codec before it is offered), the whole region image (what `pet-save pull` gives
 * for a board), and a restore of a payload file through pet.importHex, after the codec has accepted
 * it: a rejected file shows its status and explanation and changes nothing.
 */
import type { HostBoard } from "../../host/emulator/espruinoGlobals";
import { hexToBytes } from "../../core/hex";
import { byId, download } from "../dom";
import { judgePayload, rejectionText } from "../files/judgePayload";
import type { SimulatorTab } from "./simulatorTab";

function show(out: HTMLElement, text: string, bad: boolean): void {
  out.textContent = text;
  out.classList.toggle("rejected", bad);
}

/** The simulator's current save, checked by the codec, or why there is none. */
function currentPayload(tab: SimulatorTab): { bytes: Uint8Array; hex: string; name: string } | string {
  const pet = tab.board().pet();
  if (pet === undefined) return "the firmware published no pet object";
  const hex = pet.exportHex();
  const bytes = hexToBytes(hex);
  if (bytes === null) return "pet.exportHex() answered " + JSON.stringify(hex);
  const v = judgePayload(bytes, "the export");
  if (!v.ok) return rejectionText(v);
  return { bytes, hex, name: v.json.name };
}

function fileStem(name: string): string {
  return (name.replace(/[^A-Za-z0-9_-]+/g, "_") || "pet").slice(0, 32);
}

export function wireSimBackup(tab: SimulatorTab, board: HostBoard): void {
  const out = byId("sim-backup-result", HTMLPreElement);
  const restore = byId("sim-restore", HTMLInputElement);

  function payloadDownload(kind: "bin" | "hex"): void {
    const p = currentPayload(tab);
    if (typeof p === "string") return show(out, "no save to download: " + p, true);
    const file = fileStem(p.name) + "-save." + kind;
    if (kind === "bin") download(file, p.bytes, "application/octet-stream");
    else download(file, p.hex + "\n", "text/plain");
    show(out, "downloaded " + file + " (" + p.name + ")", false);
  }
  byId("sim-download-bin", HTMLButtonElement).addEventListener("click", () => payloadDownload("bin"));
  byId("sim-download-hex", HTMLButtonElement).addEventListener("click", () => payloadDownload("hex"));
  byId("sim-download-image", HTMLButtonElement).addEventListener("click", async () => {
    await tab.flash.settled();
    const file = "pet-region-" + board.petRegion.size + ".bin";
    download(file, tab.flash.flash.image(), "application/octet-stream");
    show(out, "downloaded " + file + " (the whole region, as pet-save pull writes it)", false);
  });

  restore.addEventListener("change", async () => {
    const f = restore.files && restore.files[0];
    restore.value = "";
    if (!f) return;
    const bytes = new Uint8Array(await f.arrayBuffer());
    const v = judgePayload(bytes, f.name, Date.now());
    if (!v.ok) return show(out, f.name + ": " + rejectionText(v) + "\nNothing was changed.", true);
    const pet = tab.board().pet();
    if (pet === undefined) return show(out, "the firmware published no pet object; nothing was changed", true);
    const answer = pet.importHex(v.hex);
    show(out, f.name + ": pet.importHex() answered " + JSON.stringify(answer) + (answer === "ok" ? " (" + v.json.name + " restored)" : ""), answer !== "ok");
  });
}
