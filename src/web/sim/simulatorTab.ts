/**
 * The Simulator tab: the firmware bundle for boards/web.json running on a simulated board in a Worker
 * (boardClient.ts), its OLED on a canvas, the big button (pointer, touch, Space or Enter on the
 * board), the LED, the console lines, a console box with history, the speed, and the backups
 * (simBackup.ts).
 *
 * A "saved" line is printed only once the save is in IndexedDB (the board reads it back after the
 * snapshot committed), so what it says survives closing the tab. One tab runs the board at a time
 * (boardLease.ts); a second one says so and starts by itself when the first is gone.
 */
import type { LoadedProfile } from "../../inspect/regionReport";
import type { CurrentSave } from "../../host/emulator/currentSave";
import { OLED_HEIGHT, OLED_WIDTH } from "../../host/emulator/ssd1306";
import type { Announcer } from "../announcer";
import { appendLine, byId } from "../dom";
import { paintPixels } from "../oledCanvas";
import { petDb } from "../petDb";
import { BoardOff, createBoardClient } from "./boardClient";
import { claimBoard, type BoardClaim } from "./boardLease";
import { wireButton } from "./buttonInput";
import { wireHistory } from "./consoleHistory";
import { LeaseLost, storeRegion } from "./persistentFlash";
import type { FromBoard } from "./simProtocol";

export interface SimulatorTab {
  region: LoadedProfile;
  line(text: string): void;
  /** True while the board runs in this tab. */
  running(): boolean;
  /** The whole region as the board holds it now. */
  image(): Promise<Uint8Array>;
  /** pet.<method>(...args) on the simulated board; its answer. */
  call(method: "exportHex" | "importHex" | "save" | "hatch", args?: string[]): Promise<unknown>;
  /** Replaces the whole region with `bytes`: a power cut, the image written, a new boot. */
  loadImage(bytes: Uint8Array): Promise<void>;
}

const WAITING =
  "The pet is already running in another tab of this browser. Two tabs would be two boards sharing one flash chip, so this one waits " +
  "and starts by itself as soon as that tab is closed (or use that tab).";

/** "Pip · playing, happy" from pet.status(): what a screen reader is told when it changes. */
function statusText(s: Record<string, unknown> | null): string {
  if (s === null) return "(no pet)";
  return String(s.name) + " · " + String(s.activityName) + ", " + String(s.expressionName);
}

/** "updates 12 · world clock 00:03:20": changes every second, so it is never announced. */
function clockText(s: Record<string, unknown> | null): string {
  if (s === null) return "";
  const secs = Math.floor(Number(s.elapsedMs) / 1000) || 0;
  const two = (n: number): string => String(n).padStart(2, "0");
  return "updates " + String(s.updateCount) + " · world clock " + two(Math.floor(secs / 3600)) + ":" + two(Math.floor(secs / 60) % 60) + ":" + two(secs % 60);
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
  const line = (text: string): void => appendLine(consoleList, text);
  const setState = (s: "starting" | "waiting" | "running" | "failed"): void => document.body.setAttribute("data-sim", s);

  let db: IDBDatabase | null = null;
  let claim: BoardClaim | null = null;
  let lastStatus = "";
  let ledWasOn = false;

  function showSave(s: CurrentSave, announce: boolean): void {
    saved.textContent = "last save kept in this browser: " + s.name + ", updates " + s.updateCount;
    saved.dataset.updates = s.updateCount;
    saved.dataset.name = s.name;
    if (announce) line("saved: updates " + s.updateCount + " (" + s.name + ", sector " + s.sector + " slot " + s.slot + ")");
  }

  function onBoard(m: Exclude<FromBoard, { t: "reply" }>): void {
    if (m.t === "line") return line(m.text);
    if (m.t === "ready") {
      line("page: flash region " + (m.origin === "restored" ? "restored from this browser's storage" : "new (erased)") + ", " + region.profile.petRegion.size + " bytes");
      if (m.save !== null) showSave(m.save, false);
      setState("running");
      return;
    }
    if (m.t === "saved") return showSave(m.save, true);
    if (m.t === "frame") {
      paintPixels(canvas, OLED_WIDTH, OLED_HEIGHT, (x, y) => {
        const i = y * OLED_WIDTH + x;
        return (((m.pixels[i >> 3] as number) >> (i & 7)) & 1) === 1;
      });
      // The LED lighting under a held button means letting go will hatch: keep a backup now. The
      // board copies its region when the request arrives, before any later release reaches it.
      if (m.led && !ledWasOn && buttonState.held()) void backUp("before hatching (button held 5 s)").then((t) => line("page: " + t), (e: unknown) => line("page: no backup: " + String(e)));
      ledWasOn = m.led;
      led.classList.toggle("on", m.led);
      led.setAttribute("aria-label", m.led ? "LED on" : "LED off");
      const text = statusText(m.status);
      if (status.textContent !== text) status.textContent = text;
      if (text !== lastStatus && m.status !== null) say.update(text);
      lastStatus = text;
      clock.textContent = clockText(m.status);
      if (m.status !== null) {
        clock.dataset.elapsedMs = String(m.status.elapsedMs);
        status.dataset.name = String(m.status.name);
        status.dataset.updates = String(m.status.updateCount);
      }
      return;
    }
    if (m.t === "lease-lost") {
      client.powerCut();
      line("page: another tab took over the simulated board; this one stopped.");
      void start();
      return;
    }
    if (m.t === "failed") {
      setState("failed");
      status.textContent = "The simulator did not start: " + m.message;
    }
  }

  const client = createBoardClient({
    message: onBoard,
    hung(silentMs) {
      const text =
        "page: the board gave no sign of life for " + (silentMs / 1000).toFixed(1) + " s (a loop that never yields?), so its watchdog reset it. " +
        "It starts again from the last save kept in this browser, as after a power cut.";
      line(text);
      say.now("The simulated board stopped answering and was reset by its watchdog.");
      powerOn();
    },
  });

  function powerOn(): void {
    if (claim !== null) client.powerOn(Number(speed.value), claim);
  }

  /** Claims the board (waiting if another tab has it), then powers it on. */
  async function start(): Promise<void> {
    try {
      if (db === null) db = await petDb();
      claim = null;
      claim = await claimBoard(db, () => {
        setState("waiting");
        status.textContent = WAITING;
        say.now(WAITING);
      });
      powerOn();
    } catch (e) {
      setState("failed");
      status.textContent = "The simulator did not start: " + (e instanceof Error ? e.message : String(e));
    }
  }

  setState("starting");
  void start();

  const buttonState = wireButton(button, byId("sim-board", HTMLDivElement), (down) => client.button(down));
  canvas.addEventListener("pointerdown", () => button.focus());

  speed.addEventListener("change", async () => {
    if (!client.isOn()) return;
    try {
      line("pet.save(): " + String(await client.call("save")));
      await client.settled();
    } catch (e) {
      line("page: " + (e instanceof Error ? e.message : String(e)));
    }
    client.powerCut();
    line("page: board restarted at speed x" + speed.value);
    powerOn();
  });

  const history = wireHistory(evalInput);
  evalForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = evalInput.value.trim();
    if (text === "") return;
    history.add(text);
    evalInput.value = "";
    line("> " + text);
    if (/\bpet\s*\.\s*(hatch|importHex)\s*\(/.test(text)) {
      await backUp("before the console's " + (/hatch/.test(text) ? "pet.hatch()" : "pet.importHex()")).then((t) => line("page: " + t), (err: unknown) => line("page: no backup: " + String(err)));
    }
    try {
      const result = await client.evaluate(text);
      if (result !== null) {
        line("= " + result);
        say.now(result);
      }
    } catch (err) {
      const why = err instanceof BoardOff ? "(no answer: the board was reset before it finished)" : err instanceof Error ? err.message : String(err);
      line(why);
      say.now(why);
    }
  });

  return {
    region,
    line,
    running: () => client.isOn(),
    image: () => client.image(),
    call: (method, args) => client.call(method, args),
    async loadImage(bytes) {
      if (db === null || claim === null) throw new Error("the simulator is not running in this tab");
      client.powerCut();
      try {
        await storeRegion(db, claim, bytes);
      } catch (e) {
        if (e instanceof LeaseLost) void start();
        throw e;
      } finally {
        if (claim !== null) powerOn();
      }
      line("page: the simulator's region was replaced by an image; the board boots from it");
    },
  };
}
