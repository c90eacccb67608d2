/**
 * The page's side of the simulated board's channel: starts the board in its sandbox
 * (boardSandbox.ts, the worker's script built into the page as text), sends it the button, console
 * lines and calls, takes from it only what boardMessages.ts lets through, and watches it.
 *
 * An answer is matched to the question it answers and checked for that question's kind: a console
 * answer is text or nothing, a pet method's answer text, a copy of the flash exactly the region's
 * size. An answer of another shape fails that question (BadAnswer); it is never shown as if it were
 * right.
 *
 * The watchdog: the board sends a frame every FRAME_MS. If the page hears nothing it takes for
 * WATCHDOG_MS (a console line such as `while(1){}`, or firmware that never yields), the page ends the
 * board where it stands, as a board's watchdog resets the chip; the tab then powers a new one on,
 * which boots from what IndexedDB holds, exactly as after a power cut. The page's own thread never
 * runs board code, so it stays responsive throughout. A check that itself comes late (the page was
 * busy, or in a background tab whose timers the browser slows) does not count against the board:
 * only silence the page was awake to hear does.
 */
import workerScript from "virtual:sim-worker";
import { boardBytes, boardText, readBoardMessage } from "./boardMessages";
import { startBoardSandbox, type BoardSandbox } from "./boardSandbox";
import type { FromBoard, PetMethod, ToBoard } from "./simProtocol";

export const WATCHDOG_MS = 3000;
/** Before its first word a board is still starting its sandbox and running the bundle: more patience. */
const BOOT_WATCHDOG_MS = 20_000;
const CHECK_MS = 250;

export interface BoardEvents {
  message(m: Exclude<FromBoard, { t: "reply" }>): void;
  /** The board sent something the page does not take (said once per power-on). */
  refused(): void;
  /** The watchdog ended a board that stopped answering. */
  hung(silentMs: number): void;
}

/** A request to the board that could not be answered because the board was switched off or reset. */
export class BoardOff extends Error {
  constructor() {
    super("the simulated board was switched off or reset before it answered");
    this.name = "BoardOff";
  }
}

/** The board answered, but not in the shape the question takes. */
export class BadAnswer extends Error {
  constructor(what: string) {
    super("the simulated board's answer to " + what + " was not one the page takes, so it is not shown");
    this.name = "BadAnswer";
  }
}

export interface BoardClient {
  /**
   * Starts a board's sandbox ahead of time, while the page is still reading its flash from
   * IndexedDB: the next powerOn takes it, already loaded, instead of starting one. `false` ends a
   * sandbox started so and not taken (a tab that is going to wait).
   */
  prepare(on: boolean): void;
  /** Powers a board on over `image` (null: an erased chip). */
  powerOn(speed: number, image: Uint8Array | null): void;
  /** Ends the board wherever it is: a power cut. */
  powerCut(): void;
  isOn(): boolean;
  /** The button pressed or let go at `at` (simProtocol.ts: the clock page and worker share). */
  button(down: boolean, at: number): void;
  /** Runs a console line; its answer as the console shows it (null for undefined), or rejects with "Uncaught ...". */
  evaluate(code: string): Promise<string | null>;
  /** pet.<method>(...args): its answer, always text. */
  call(method: PetMethod, args?: string[]): Promise<string>;
  /** The whole region as the board holds it when the request arrives (before any later message acts). */
  image(): Promise<Uint8Array>;
  /** Resolves once the board has handed over every flash change so far. */
  settled(): Promise<void>;
}

interface Pending {
  what: string;
  /** The answer as the page takes it, or undefined when it is not of this question's shape. */
  check(value: unknown): unknown;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

export function createBoardClient(regionSize: number, events: BoardEvents): BoardClient {
  let sandbox: BoardSandbox | null = null;
  let spare: BoardSandbox | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let lastHeard = 0;
  let lastCheck = 0;
  let heardOnce = false;
  let refusedOnce = false;

  function failAll(): void {
    for (const p of pending.values()) p.reject(new BoardOff());
    pending.clear();
  }
  function powerCut(): void {
    if (sandbox === null) return;
    sandbox.end();
    sandbox = null;
    failAll();
  }
  function send(m: ToBoard): void {
    if (sandbox !== null) sandbox.port.postMessage(m);
  }
  function ask(what: string, check: (v: unknown) => unknown, make: (id: number) => ToBoard): Promise<unknown> {
    if (sandbox === null) return Promise.reject(new BoardOff());
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { what, check, resolve, reject });
      send(make(id));
    });
  }
  function refuse(): void {
    if (refusedOnce) return;
    refusedOnce = true;
    events.refused();
  }

  function receive(data: unknown): void {
    const m = readBoardMessage(data, regionSize);
    if (m === null) return refuse();
    lastHeard = performance.now();
    if (m.t === "failed" && heardOnce) return refuse(); // a board says it could not start only before it has
    if (m.t === "frame") heardOnce = true;
    if (m.t !== "reply") return events.message(m);
    const p = pending.get(m.id);
    if (!p) return refuse();
    pending.delete(m.id);
    if (!m.ok) return p.reject(new Error(m.error));
    const value = p.check(m.value);
    if (value === undefined) p.reject(new BadAnswer(p.what));
    else p.resolve(value);
  }

  setInterval(() => {
    const now = performance.now();
    const late = now - lastCheck > CHECK_MS * 4;
    lastCheck = now;
    if (sandbox === null) return;
    if (late) {
      lastHeard = now; // the page was not listening: start counting again
      return;
    }
    if (now - lastHeard > (heardOnce ? WATCHDOG_MS : BOOT_WATCHDOG_MS)) {
      const silent = Math.round(now - lastHeard);
      powerCut();
      events.hung(silent);
    }
  }, CHECK_MS);

  function newSandbox(): BoardSandbox {
    const s = startBoardSandbox(workerScript, (uncaught) => {
      const said = boardText(uncaught);
      if (sandbox === s && said !== null) events.message({ t: "line", text: said });
    });
    return s;
  }

  const text = (v: unknown): string | undefined => boardText(v) ?? undefined;
  return {
    prepare(on) {
      if (on && spare === null && sandbox === null) spare = newSandbox();
      if (!on && spare !== null) {
        spare.end();
        spare = null;
      }
    },
    powerOn(speed, image) {
      powerCut();
      const s = spare !== null ? spare : newSandbox();
      spare = null;
      sandbox = s;
      lastHeard = performance.now();
      heardOnce = false;
      refusedOnce = false;
      s.port.onmessage = (e: MessageEvent) => {
        if (sandbox === s) receive(e.data);
      };
      send({ t: "boot", speed, image });
    },
    powerCut,
    isOn: () => sandbox !== null,
    button: (down, at) => send({ t: "button", down, at }),
    evaluate: (code) =>
      ask("the console line", (v) => (v === null ? null : text(v)), (id) => ({ t: "eval", id, code })).then((v) => (v === null ? null : String(v))),
    call: (method, args = []) => ask("pet." + method + "()", text, (id) => ({ t: "call", id, method, args })) as Promise<string>,
    image: () => ask("the copy of its flash", (v) => boardBytes(v, regionSize) ?? undefined, (id) => ({ t: "image", id })) as Promise<Uint8Array>,
    settled: () => ask("settle", () => true, (id) => ({ t: "settle", id })).then(() => undefined),
  };
}
