/**
 * A region image as a picture: one row per sector, one cell per slot (16 x 48 for the ESP32 and the
 * simulator), each cell coloured by what the region reader (src/inspect/regionReport.ts, the code
 * behind `pet-save inspect`) found there: valid, the current save, torn, invalid, erased; a sector
 * that is not part of the log (dirty or foreign) is drawn as such across its row. Clicking a cell, or
 * moving to it with the arrow keys once the picture has focus, decodes that slot as `pet-save decode`
 * would. The text report under the picture says the same in words.
 */
import { loadWorld } from "../../save/codec";
import { describeStatus } from "../../save/status";
import { payloadJson } from "../../save/payloadJson";
import { payloadText } from "../../inspect/payloadReport";
import { regionJson, type RegionContents } from "../../inspect/regionReport";

export const SLOT_COLOURS = {
  valid: "#2f9e44",
  current: "#1c64f2",
  torn: "#f08c00",
  invalid: "#e03131",
  erased: "#ced4da",
  "not in the log": "#845ef7",
} as const;
type CellState = keyof typeof SLOT_COLOURS;

const CELL_W = 12;
const CELL_H = 14;
const GAP = 2;
const LABEL_W = 30;

export function drawRegionPicture(c: RegionContents, name: string): HTMLElement {
  const j = regionJson(c);
  const rows = j.sectorCount;
  const cols = j.slotsPerSector;
  const box = document.createElement("div");
  box.className = "region-picture";
  const canvas = document.createElement("canvas");
  canvas.width = LABEL_W + cols * (CELL_W + GAP);
  canvas.height = rows * (CELL_H + GAP);
  canvas.tabIndex = 0;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", "The slots of " + name + ", sector by sector; arrow keys move between slots and each is described below");
  Object.assign(canvas.dataset, { rows: String(rows), cols: String(cols), cellW: String(CELL_W), cellH: String(CELL_H), gap: String(GAP), left: String(LABEL_W) });
  const detail = document.createElement("pre");
  detail.className = "slot-detail";
  detail.setAttribute("aria-live", "polite");
  detail.textContent = "Click a slot (or focus the picture and use the arrow keys) to decode it.";

  const state = (s: number, k: number): CellState => {
    const sector = j.sectors[s];
    if (sector === undefined || sector.state === "erased") return "erased";
    if (sector.state !== "log") return "not in the log";
    const v = (sector.slots[k] || { verdict: "erased" }).verdict;
    if (v === "valid" && j.current.status === "ok" && j.current.sector === s && j.current.slot === k) return "current";
    return v;
  };
  let selected: [number, number] | null = null;

  function paint(): void {
    const ctx = canvas.getContext("2d");
    if (ctx === null) return;
    const fg = getComputedStyle(canvas).color || "#000";
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.font = "10px ui-monospace, monospace";
    ctx.textBaseline = "middle";
    for (let s = 0; s < rows; s++) {
      const y = s * (CELL_H + GAP);
      ctx.fillStyle = fg;
      ctx.fillText("S" + s, 0, y + CELL_H / 2);
      for (let k = 0; k < cols; k++) {
        ctx.fillStyle = SLOT_COLOURS[state(s, k)];
        ctx.fillRect(LABEL_W + k * (CELL_W + GAP), y, CELL_W, CELL_H);
      }
    }
    if (selected !== null) {
      ctx.strokeStyle = fg;
      ctx.lineWidth = 2;
      ctx.strokeRect(LABEL_W + selected[1] * (CELL_W + GAP) - 1, selected[0] * (CELL_H + GAP) - 1, CELL_W + 2, CELL_H + 2);
    }
  }

  function describe(s: number, k: number): string {
    const where = "sector " + s + " slot " + k + ": ";
    const sector = c.scan.sectors[s];
    const st = state(s, k);
    if (sector === undefined || sector.state !== "log") {
      return where + (sector && sector.state === "erased" ? "erased (the whole sector is)" : "the sector is not part of the log (" + (sector ? sector.state : "missing") + ")");
    }
    const slot = sector.slots[k];
    if (slot === undefined || slot.state === "erased") return where + "erased: never written";
    const loaded = loadWorld(slot.payload, 0);
    const head =
      where + (st === "current" ? "valid, the current save (the one the board restores at boot)" : st === "valid" ? "valid, an older save" : st === "torn" ? "torn: written but never committed (a save cut off)" : "invalid: committed, but the codec rejects it");
    if (loaded.status !== "ok" || loaded.world === null) return head + "\nrejected: " + loaded.status + "\n" + describeStatus(loaded.status);
    return head + "\n" + payloadText(payloadJson(loaded.world, loaded.savedAt), loaded.savedAt, loaded.absenceMs);
  }

  function select(s: number, k: number): void {
    selected = [Math.max(0, Math.min(rows - 1, s)), Math.max(0, Math.min(cols - 1, k))];
    paint();
    detail.textContent = describe(selected[0], selected[1]);
    canvas.dataset.selected = selected[0] + "," + selected[1];
  }

  canvas.addEventListener("click", (e) => {
    const r = canvas.getBoundingClientRect();
    const x = ((e.clientX - r.left) * canvas.width) / r.width - LABEL_W;
    const y = ((e.clientY - r.top) * canvas.height) / r.height;
    if (x < 0) return;
    select(Math.floor(y / (CELL_H + GAP)), Math.floor(x / (CELL_W + GAP)));
  });
  canvas.addEventListener("keydown", (e) => {
    const [s, k] = selected === null ? [0, -1] : selected;
    const step: { [key: string]: [number, number] } = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const d = step[e.key];
    if (d !== undefined) {
      e.preventDefault();
      select(s + d[0], Math.max(0, k + d[1]));
    } else if (e.key === "Home") {
      e.preventDefault();
      select(s, 0);
    } else if (e.key === "End") {
      e.preventDefault();
      select(s, cols - 1);
    }
  });

  const legend = document.createElement("ul");
  legend.className = "legend";
  for (const [label, colour] of Object.entries(SLOT_COLOURS)) {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = colour;
    li.append(sw, " " + label);
    legend.appendChild(li);
  }
  box.append(canvas, legend, detail);
  // Painted once in the document, where the canvas's text colour is known.
  requestAnimationFrame(paint);
  paint();
  return box;
}
