/**
 * The Simulator tab: the firmware bundle for boards/web.json running on a simulated board in its
 * sandbox (simulatedBoard.ts and below), its OLED on a canvas, the big button (pointer, touch, Space
 * or Enter on the board), the LED, the console lines, a console box with history, the speed, and the
 * backups (simBackup.ts).
 *
 * The console list holds the board's lines and the page's, told apart: the page's own words are
 * marked as the page's (class "from-page", a visible label), and whatever the board prints is shown
 * as the board's, whatever it says. A "saved" line is printed only once the save is in IndexedDB (the
 * page reads it from the bytes it wrote), so what it says survives closing the tab. One tab runs the
 * board at a time (boardLease.ts); a second one says so and starts by itself when the first is gone.
 */
import type { LoadedProfile } from "../../inspect/regionReport";
import type { CurrentSave } from "../../host/emulator/currentSave";
import { OLED_HEIGHT, OLED_WIDTH } from "../../host/emulator/ssd1306";
import type { Announcer } from "../announcer";
import { appendLine, byId } from "../dom";
import { paintPixels } from "../oledCanvas";
import { BadAnswer, BoardOff } from "./boardClient";
import { wireButton } from "./buttonInput";
import { wireHistory } from "./consoleHistory";
import { wireNameField } from "../nameField";
import type { FrameStatus, PetMethod } from "./simProtocol";
import { startSimulatedBoard } from "./simulatedBoard";

export interface SimulatorTab {
  region: LoadedProfile;
  /** A line of the page's own in the console list. */
  line(text: string): void;
  /** True while the board runs in this tab. */
  running(): boolean;
  /** The whole region as the board holds it now. */
  image(): Promise<Uint8Array>;
  /** pet.<method>(...args) on the simulated board; its answer. */
  call(method: PetMethod, args?: string[]): Promise<string>;
  /** Replaces the whole region with `bytes`: a power cut, the image written, a new boot. */
  loadImage(bytes: Uint8Array): Promise<void>;
  /** Hears whether the board runs in this tab, now and whenever that changes. */
  onRunning(listener: (running: boolean) => void): void;
}

/** What a waiting tab says, on its status line and to a screen reader. */
const WAITING = "The pet is already running in another tab of this browser: this tab takes over by itself once that tab is closed.";
/** How often a waiting tab reads again which save the browser keeps (the other tab goes on saving). */
const WAITING_SAVE_MS = 5000;

/** "Pip · playing, happy" from pet.status(): what a screen reader is told when it changes. */
function statusText(s: FrameStatus | null): string {
  if (s === null) return "(no pet)";
  return s.name + " · " + s.activityName + ", " + s.expressionName;
}

/** "updates 12 · world clock 00:03:20": changes every second, so it is never announced. */
function clockText(s: FrameStatus | null): string {
  if (s === null) return "";
  const secs = Math.floor(Number(s.elapsedMs) / 1000) || 0;
  const two = (n: number): string => String(n).padStart(2, "0");
  return "updates " + s.updateCount + " · world clock " + two(Math.floor(secs / 3600)) + ":" + two(Math.floor(secs / 60) % 60) + ":" + two(secs % 60);
}

export function startSimulatorTab(region: LoadedProfile, say: Announcer, backUp: (reason: string) => Promise<string>): SimulatorTab {
  const canvas = byId("sim-oled", HTMLCanvasElement);
  const status = byId("sim-status", HTMLParagraphElement);
  const clock = byId("sim-clock", HTMLParagraphElement);
  const led = byId("sim-led", HTMLSpanElement);
  const speed = byId("sim-speed", HTMLSelectElement);
  const saved = byId("sim-saved", HTMLParagraphElement);
  const consoleList = byId("sim-console", HTMLOListElement);
  const evalForm = byId("sim-eval", HTMLFormElement);
  const evalInput = byId("sim-eval-input", HTMLInputElement);
  const button = byId("sim-button", HTMLButtonElement);
  const panel = byId("panel-sim", HTMLElement);
  const notice = byId("sim-elsewhere", HTMLDivElement);
  const line = (text: string): void => appendLine(consoleList, text, "page");
  const boardLine = (text: string): void => appendLine(consoleList, text, "board");

  let lastStatus = "";
  let ledWasOn = false;
  let running = false;
  let naming: { enable(on: boolean): void } | null = null;
  let waitingTimer: ReturnType<typeof setInterval> | null = null;
  const runningListeners: ((on: boolean) => void)[] = [];

  /** Everything in the tab works the board: none of it while the board is not running here. */
  function setRunning(on: boolean): void {
    for (const el of panel.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLSelectElement>("button, input, select")) {
      if (!el.closest(".name-field")) el.disabled = !on; // the name box keeps its own (a refused name cannot be sent)
    }
    naming?.enable(on);
    if (on === running) return;
    running = on;
    for (const f of runningListeners) f(on);
  }

  /** While another tab has the board, the save line still says what the browser keeps (read from IndexedDB). */
  function watchKeptSave(on: boolean): void {
    if (waitingTimer !== null) clearInterval(waitingTimer);
    waitingTimer = null;
    if (!on) return;
    const read = (): void =>
      void board.keptSave().then((s) => {
        if (s !== null && waitingTimer !== null) showSave(s, false);
      }, () => undefined);
    waitingTimer = setInterval(read, WAITING_SAVE_MS);
    read();
  }

  function showSave(s: CurrentSave, announce: boolean): void {
    saved.textContent = "last save kept in this browser: " + s.name + ", updates " + s.updateCount;
    saved.dataset.updates = s.updateCount;
    saved.dataset.name = s.name;
    if (announce) line("saved: updates " + s.updateCount + " (" + s.name + ", sector " + s.sector + " slot " + s.slot + ")");
  }

  function showFrame(pixels: Uint8Array, ledOn: boolean, s: FrameStatus | null): void {
    paintPixels(canvas, OLED_WIDTH, OLED_HEIGHT, (x, y) => {
      const i = y * OLED_WIDTH + x;
      return (((pixels[i >> 3] as number) >> (i & 7)) & 1) === 1;
    });
    // The LED lighting under a held button means letting go will hatch: keep a backup now. The
    // board copies its region when the request arrives, before any later release reaches it.
    if (ledOn && !ledWasOn && buttonState.held()) void backUp("before hatching (button held 5 s)").then(line, (e: unknown) => line("no backup: " + String(e)));
    ledWasOn = ledOn;
    led.classList.toggle("on", ledOn);
    led.setAttribute("aria-label", ledOn ? "LED on" : "LED off");
    const text = statusText(s);
    if (status.textContent !== text) status.textContent = text;
    if (text !== lastStatus && s !== null) say.update(text);
    lastStatus = text;
    clock.textContent = clockText(s);
    if (s !== null) {
      clock.dataset.elapsedMs = s.elapsedMs;
      status.dataset.name = s.name;
      status.dataset.updates = s.updateCount;
    }
  }

  const board = startSimulatedBoard(region, () => Number(speed.value), {
    state(s, why) {
      document.body.setAttribute("data-sim", s);
      setRunning(s === "running");
      notice.hidden = s !== "waiting";
      watchKeptSave(s === "waiting");
      if (s === "waiting") {
        status.textContent = WAITING;
        clock.textContent = "";
        say.now(WAITING);
      } else if (s === "failed") {
        status.textContent = "The simulator did not start: " + (why || "");
      }
    },
    pageLine: line,
    boardLine,
    frame: showFrame,
    saved: showSave,
    hung(silentMs) {
      line(
        "the board gave no sign of life for " + (silentMs / 1000).toFixed(1) + " s (a loop that never yields?), so its watchdog reset it. " +
          "It starts again from the last save kept in this browser, as after a power cut.",
      );
      say.now("The simulated board stopped answering and was reset by its watchdog.");
    },
  });

  const buttonState = wireButton(button, byId("sim-board", HTMLDivElement), (down, at) => board.button(down, at));
  canvas.addEventListener("pointerdown", () => button.focus());
  speed.addEventListener("change", () => void board.restart());

  const nameResult = byId("sim-name-result", HTMLParagraphElement);
  const sayName = (text: string, bad = false): void => {
    nameResult.textContent = text;
    nameResult.classList.toggle("rejected", bad);
    nameResult.dataset.state = bad ? "rejected" : "ok";
    say.now(text);
  };
  naming = wireNameField("sim", region.profile.defaultPetName || "Pip", {
    call: async (method, args) => {
      try {
        return await board.call(method, args);
      } catch (e) {
        sayName("pet." + method + "() failed: " + (e instanceof Error ? e.message : String(e)), true);
        return null;
      }
    },
    backUp,
    petName: () => status.dataset.name || "the pet",
    where: "the simulator",
    say: sayName,
  });
  naming.enable(running);

  const history = wireHistory(evalInput);
  evalForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = evalInput.value.trim();
    if (text === "") return;
    history.add(text);
    evalInput.value = "";
    boardLine("> " + text);
    if (/\bpet\s*\.\s*(hatch|importHex)\s*\(/.test(text)) {
      await backUp("before the console's " + (/hatch/.test(text) ? "pet.hatch()" : "pet.importHex()")).then(line, (err: unknown) => line("no backup: " + String(err)));
    }
    try {
      const result = await board.evaluate(text);
      if (result !== null) {
        boardLine("= " + result);
        say.now(result);
      }
    } catch (err) {
      const why =
        err instanceof BoardOff ? "(no answer: the board was reset before it finished)" : err instanceof BadAnswer ? err.message : err instanceof Error ? err.message : String(err);
      if (err instanceof BoardOff || err instanceof BadAnswer) line(why);
      else boardLine(why);
      say.now(why);
    }
  });

  return {
    region,
    line,
    // The tab's state, not the board's power: a restart (the speed, an image loaded) is still "here".
    running: () => running,
    image: () => board.image(),
    call: (method, args) => board.call(method, args),
    loadImage: (bytes) => board.loadImage(bytes),
    onRunning(listener) {
      runningListeners.push(listener);
      listener(running);
    },
  };
}
