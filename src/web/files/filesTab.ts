/** Wires the "Check a file" tab: the picker, and a drop anywhere on the page (which opens the tab). */
import type { RegionBoard } from "../../host/files/regionReport";
import { byId } from "../dom";
import { describeFile } from "./fileView";

export function startFilesTab(boards: RegionBoard[], showTab: () => void): void {
  const out = byId("files-result", HTMLPreElement);
  const pick = byId("files-pick", HTMLInputElement);
  const hint = byId("drop-hint", HTMLDivElement);

  async function check(f: File): Promise<void> {
    const bytes = new Uint8Array(await f.arrayBuffer());
    let r: { text: string; rejected: boolean };
    try {
      r = describeFile(bytes, f.name, boards);
    } catch (e) {
      r = { text: f.name + ": could not be read (" + String(e) + ")", rejected: true };
    }
    out.textContent = r.text;
    out.classList.toggle("rejected", r.rejected);
    out.dataset.verdict = r.rejected ? "rejected" : "ok";
  }

  pick.addEventListener("change", () => {
    const f = pick.files && pick.files[0];
    pick.value = "";
    if (f) void check(f);
  });
  document.addEventListener("dragover", (e) => {
    e.preventDefault(); // without this the browser would open the file instead of dropping it here
    hint.hidden = false;
  });
  document.addEventListener("dragleave", (e) => {
    if (e.relatedTarget === null) hint.hidden = true;
  });
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    hint.hidden = true;
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (!f) return;
    showTab();
    void check(f);
  });
}
