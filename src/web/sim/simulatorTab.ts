/**
 * The Simulator tab: the firmware bundle for boards/web.json running in the page (simBoard.ts), its
 * OLED on a canvas, the big button (pointer, touch and the space key), the LED, the console lines, a
 * console box for `pet.*` calls, the speed, and the backup buttons.
 *
 * A "saved" line is printed only once the save is in IndexedDB (read back from the flash after the
 * snapshot committed), so what it says survives closing the tab.
 */
import type { HostBoard } from "../../host/emulator/espruinoGlobals";
import { readCurrentSave, type CurrentSave } from "../../host/emulator/currentSave";
import { OLED_HEIGHT, OLED_WIDTH } from "../../host/emulator/ssd1306";
import { describeError } from "../../host/emulator/timers";
import { appendLine, byId } from "../dom";
import { paintPixels } from "../oledCanvas";
import { openStore } from "./idbStore";
import { openPersistentFlash, type PersistentFlash } from "./persistentFlash";
import { powerOn, type SimBoard } from "./simBoard";
import { wireSimBackup } from "./simBackup";
import { wireButton } from "./buttonInput";

const DB_NAME = "espruino-pet";
const STORE_NAME = "flash";
const REGION_KEY = "web-region";
const REDRAW_MS = 100;

export interface SimulatorTab {
  board(): SimBoard;
  flash: PersistentFlash;
  /** Power-cycles the board (after a restore of the whole region). */
  restart(): void;
  line(text: string): void;
}

/** "Pip · playing, happy" from pet.status(): what a screen reader announces when it changes. */
function statusText(s: Record<string, unknown> | null): string {
  if (s === null) return "(no pet)";
  return String(s.name) + " · " + String(s.activityName) + ", " + String(s.expressionName);
}

/** "updates 12 · world clock 00:03:20": changes every second, so it is not announced. */
function clockText(s: Record<string, unknown> | null): string {
  if (s === null) return "";
  const secs = Math.floor(Number(s.elapsedMs) / 1000) || 0;
  const hh = Math.floor(secs / 3600);
  const clock = String(hh).padStart(2, "0") + ":" + String(Math.floor(secs / 60) % 60).padStart(2, "0") + ":" + String(secs % 60).padStart(2, "0");
  return "updates " + String(s.updateCount) + " · world clock " + clock;
}

/**
 * One simulated board per browser profile: two tabs would be two boards sharing one flash chip, each
 * overwriting the other's saves. The first tab takes a Web Lock and keeps it while it is open; a
 * second tab is told so and does not start. (Browsers without Web Locks run unguarded.)
 */
async function holdBoardLock(): Promise<void> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (!locks) return;
  const got = await new Promise<boolean>((resolve) => {
    void locks.request("espruino-pet-simulator", { ifAvailable: true }, (lock) => {
      resolve(lock !== null);
      // Held until the tab closes: the callback's promise never settles.
      return lock === null ? undefined : new Promise<void>(() => undefined);
    });
  });
  if (!got) throw new Error("the pet is already running in another tab of this browser. Two tabs would be two boards sharing one flash chip: use that tab, or close it and reload this one.");
}

export async function startSimulatorTab(code: string, boardProfile: HostBoard): Promise<SimulatorTab> {
  const canvas = byId("sim-oled", HTMLCanvasElement);
  const status = byId("sim-status", HTMLParagraphElement);
  const clock = byId("sim-clock", HTMLParagraphElement);
  const led = byId("sim-led", HTMLSpanElement);
  const speed = byId("sim-speed", HTMLSelectElement);
  const saved = byId("sim-saved", HTMLParagraphElement);
  const consoleList = byId("sim-console", HTMLOListElement);
  const evalForm = byId("sim-eval", HTMLFormElement);
  const evalInput = byId("sim-eval-input", HTMLInputElement);
  const line = (text: string): void => appendLine(consoleList, text);

  let lastSave: CurrentSave | null = null;
  function noteSave(): void {
    const now = readCurrentSave(flash.flash, boardProfile.petRegion);
    if (now === null) return;
    if (lastSave !== null && now.sector === lastSave.sector && now.slot === lastSave.slot && now.seq === lastSave.seq) return;
    lastSave = now;
    saved.textContent = "last save kept in this browser: " + now.name + ", updates " + now.updateCount;
    saved.dataset.updates = now.updateCount;
    saved.dataset.name = now.name;
    line("saved: updates " + now.updateCount + " (" + now.name + ", sector " + now.sector + " slot " + now.slot + ")");
  }

  await holdBoardLock();
  const store = await openStore(DB_NAME, STORE_NAME);
  const flash = await openPersistentFlash(store, REGION_KEY, boardProfile.petRegion, noteSave, (m) => line("page: " + m));
  lastSave = readCurrentSave(flash.flash, boardProfile.petRegion);
  if (lastSave !== null) {
    saved.textContent = "last save kept in this browser: " + lastSave.name + ", updates " + lastSave.updateCount;
    saved.dataset.updates = lastSave.updateCount;
    saved.dataset.name = lastSave.name;
  }
  line("page: flash region " + (flash.origin === "restored" ? "restored from this browser's storage" : "new (erased)") + ", " + boardProfile.petRegion.size + " bytes");

  const parent = document.body;
  let board = powerOn({ code, board: boardProfile, flash, speed: Number(speed.value), parent, output: line });

  function restart(): void {
    board.off();
    line("page: board restarted at speed x" + speed.value);
    board = powerOn({ code, board: boardProfile, flash, speed: Number(speed.value), parent, output: line });
  }

  wireButton(byId("sim-button", HTMLButtonElement), byId("panel-sim", HTMLElement), (down) => board.host.setButton(down));

  speed.addEventListener("change", () => {
    const pet = board.pet();
    if (pet !== undefined) line("pet.save(): " + pet.save());
    flash.settled().then(restart);
  });

  evalForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = evalInput.value.trim();
    if (text === "") return;
    line("> " + text);
    try {
      const result = board.host.evaluate(text);
      if (result !== undefined) line("= " + (typeof result === "string" ? JSON.stringify(result) : JSON.stringify(result)));
    } catch (err) {
      line("Uncaught " + describeError(err));
    }
    evalInput.value = "";
  });

  function redraw(): void {
    const panel = board.host.panel;
    paintPixels(canvas, OLED_WIDTH, OLED_HEIGHT, (x, y) => panel.visiblePixel(x, y) === 1);
    const on = board.led();
    led.classList.toggle("on", on);
    led.setAttribute("aria-label", on ? "LED on" : "LED off");
    let s: Record<string, unknown> | null = null;
    const pet = board.pet();
    try {
      s = pet === undefined ? null : (pet.status() as unknown as Record<string, unknown> | null);
    } catch {
      s = null;
    }
    const text = statusText(s);
    if (status.textContent !== text) status.textContent = text;
    clock.textContent = clockText(s);
    if (s !== null) clock.dataset.elapsedMs = String(s.elapsedMs);
    if (s !== null) {
      status.dataset.name = String(s.name);
      status.dataset.updates = String(s.updateCount);
    }
  }
  setInterval(redraw, REDRAW_MS);
  redraw();

  const tab: SimulatorTab = { board: () => board, flash, restart, line };
  wireSimBackup(tab, boardProfile);
  return tab;
}
