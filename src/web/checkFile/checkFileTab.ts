/**
 * The "Check a file" tab: every file picked or dropped (several at once are each shown, in the order
 * given) is described as `pet-save` would describe it (fileView.ts); a region image is also drawn
 * slot by slot (regionPicture.ts). The page's drop handling (main.ts) sends files here.
 */
import type { LoadedProfile } from "../../inspect/regionReport";
import { byId, onFilesPicked } from "../dom";
import { describeFile, type FileVerdict } from "./fileView";
import { drawRegionPicture } from "./regionPicture";

export interface CheckFileTab {
  /** Shows each file, replacing what was shown. */
  check(files: File[]): Promise<void>;
  /** Shows bytes under a name (a backup, say), replacing what was shown. */
  show(bytes: Uint8Array, name: string): void;
}

export function startCheckFileTab(boards: LoadedProfile[]): CheckFileTab {
  const results = byId("files-results", HTMLDivElement);
  const pick = byId("files-pick", HTMLInputElement);

  function block(bytes: Uint8Array, name: string): HTMLElement {
    let r: FileVerdict;
    try {
      r = describeFile(bytes, name, boards);
    } catch (e) {
      r = { text: name + ": could not be read (" + String(e) + ")", rejected: true };
    }
    const section = document.createElement("section");
    section.className = "file-result";
    section.dataset.verdict = r.rejected ? "rejected" : "ok";
    section.dataset.name = name;
    const h = document.createElement("h3");
    h.textContent = name;
    section.appendChild(h);
    if (r.region !== undefined && r.region.scan.status === "ok") section.appendChild(drawRegionPicture(r.region, name));
    const pre = document.createElement("pre");
    pre.className = "file-text";
    pre.textContent = r.text;
    pre.classList.toggle("rejected", r.rejected);
    section.appendChild(pre);
    return section;
  }

  const api: CheckFileTab = {
    async check(files) {
      const blocks: HTMLElement[] = [];
      for (const f of files) blocks.push(block(new Uint8Array(await f.arrayBuffer()), f.name));
      results.replaceChildren(...blocks);
      results.dataset.count = String(blocks.length);
    },
    show(bytes, name) {
      results.replaceChildren(block(bytes, name));
      results.dataset.count = "1";
    },
  };
  onFilesPicked(pick, (files) => void api.check(files));
  return api;
}
