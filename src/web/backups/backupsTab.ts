/**
 * The Backups tab: every region image the page kept (backupStore.ts), newest first, with what it
 * holds, and for each: download it (a file `pet-save inspect` reads and `pet-save push` puts on a
 * board), look inside it (Check a file), put it into the simulator, put its pet back onto the
 * connected board, or delete it. Putting back asks first and keeps a backup of what it replaces
 * (the callers do that: simBackup.ts putImage, the Device tab's import).
 */
import { byId, download } from "../dom";
import { downloadName } from "../fileNames";
import { deleteBackup, listBackups, onBackupsChanged, type Backup } from "./backupStore";

export interface BackupTargets {
  show(b: Backup): void;
  /** The name of the pet current in a backup, or null (its download is named after it). */
  petName(b: Backup): string | null;
  /** Null while the simulator does not run in this tab (another tab has it). */
  toSimulator: ((b: Backup) => Promise<string>) | null;
  /** Null while no pet runs on a connected board. */
  toBoard: ((b: Backup) => Promise<string>) | null;
}

export function startBackupsTab(targets: () => BackupTargets): { refresh(): void } {
  const list = byId("backups-list", HTMLTableSectionElement);
  const table = byId("backups-table", HTMLTableElement);
  const empty = byId("backups-empty", HTMLParagraphElement);
  const out = byId("backups-result", HTMLPreElement);
  const say = (text: string, bad = false): void => {
    out.textContent = text;
    out.classList.toggle("rejected", bad);
    out.dataset.state = bad ? "rejected" : "ok";
  };

  function action(label: string, what: string, run: () => Promise<unknown> | void, disabled = false): HTMLButtonElement {
    const b = document.createElement("button");
    b.textContent = label;
    b.setAttribute("aria-label", label + ": " + what);
    b.disabled = disabled;
    b.addEventListener("click", async () => {
      try {
        await run();
      } catch (e) {
        say(e instanceof Error ? e.message : String(e), true);
      }
    });
    return b;
  }

  async function refresh(): Promise<void> {
    const all = await listBackups();
    const t = targets();
    empty.hidden = all.length > 0;
    table.hidden = all.length === 0;
    list.replaceChildren(
      ...all.map((b) => {
        const tr = document.createElement("tr");
        tr.dataset.id = String(b.id);
        tr.dataset.source = b.source;
        const when = new Date(b.at).toLocaleString();
        const what = "the backup of " + when + " (" + b.summary + ")";
        for (const text of [when, b.source === "simulator" ? "the simulator" : "the ESP32 board", b.reason, b.summary]) {
          const td = document.createElement("td");
          td.textContent = text;
          tr.appendChild(td);
        }
        const td = document.createElement("td");
        td.className = "actions";
        const toBoard = t.toBoard;
        const toSimulator = t.toSimulator;
        td.append(
          action("Download", what, () => {
            const file = downloadName(t.petName(b), new Date(b.at), "region.bin");
            download(file, b.bytes, "application/octet-stream");
            say("Downloaded " + file + ".");
          }),
          action("Show", what, () => t.show(b)),
          action("Into the simulator", what, async () => (toSimulator ? say(await toSimulator(b)) : undefined), toSimulator === null),
          action("Onto the board", what, async () => (toBoard ? say(await toBoard(b)) : undefined), toBoard === null),
          action("Delete", what, async () => {
            if (!confirm("Delete " + what + "? It cannot be undone.")) return;
            await deleteBackup(b.id);
            say("Deleted " + what + ".");
          }),
        );
        tr.appendChild(td);
        return tr;
      }),
    );
    list.dataset.count = String(all.length);
  }
  onBackupsChanged(() => void refresh());
  void refresh();
  return { refresh: () => void refresh() };
}
