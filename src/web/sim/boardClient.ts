/**
 * The page's side of the simulated board: starts its Worker (worker/simWorker.ts, built into the page
 * as text and started from a Blob URL), sends it the button, console lines and calls, and watches it.
 *
 * The watchdog: the board sends a frame every FRAME_MS. If the page hears nothing for WATCHDOG_MS (a
 * console line such as `while(1){}`, or firmware that never yields), the page ends the Worker where it
 * stands, as a board's watchdog resets the chip; the tab then powers a new one on, which boots from
 * what IndexedDB holds, exactly as after a power cut. The page's own thread never runs board code, so
 * it stays responsive throughout. A check that itself comes late (the page was busy, or in a
 * background tab whose timers the browser slows) does not count against the board: only silence the
 * page was awake to hear does.
 */
import workerScript from "virtual:sim-worker";
import type { BoardClaim } from "./boardLease";
import type { FromBoard, PetMethod, ToBoard } from "./simProtocol";

export const WATCHDOG_MS = 3000;
/** Before its first word a board is still opening IndexedDB and running the bundle: more patience. */
const BOOT_WATCHDOG_MS = 20_000;
const CHECK_MS = 250;

export interface BoardEvents {
  message(m: Exclude<FromBoard, { t: "reply" }>): void;
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

export interface BoardClient {
  powerOn(speed: number, claim: BoardClaim): void;
  /** Ends the board wherever it is: a power cut. */
  powerCut(): void;
  isOn(): boolean;
  button(down: boolean): void;
  /** Runs a console line; its answer as the console shows it (null for undefined), or rejects with "Uncaught ...". */
  evaluate(code: string): Promise<string | null>;
  call(method: PetMethod, args?: string[]): Promise<unknown>;
  /** The whole region as the board holds it when the request arrives (before any later message acts). */
  image(): Promise<Uint8Array>;
  /** Resolves once every flash change so far is in IndexedDB. */
  settled(): Promise<void>;
}

let scriptUrl: string | null = null;

export function createBoardClient(events: BoardEvents): BoardClient {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let lastHeard = 0;
  let lastCheck = 0;
  let heardOnce = false;

  function failAll(): void {
    for (const p of pending.values()) p.reject(new BoardOff());
    pending.clear();
  }
  function powerCut(): void {
    if (worker === null) return;
    worker.terminate();
    worker = null;
    failAll();
  }
  function send(m: ToBoard): void {
    if (worker !== null) worker.postMessage(m);
  }
  function ask(make: (id: number) => ToBoard): Promise<unknown> {
    if (worker === null) return Promise.reject(new BoardOff());
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      send(make(id));
    });
  }

  setInterval(() => {
    const now = performance.now();
    const late = now - lastCheck > CHECK_MS * 4;
    lastCheck = now;
    if (worker === null) return;
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

  return {
    powerOn(speed, claim) {
      powerCut();
      if (scriptUrl === null) scriptUrl = URL.createObjectURL(new Blob([workerScript], { type: "text/javascript" }));
      const w = new Worker(scriptUrl, { name: "simulated board" });
      worker = w;
      lastHeard = performance.now();
      heardOnce = false;
      w.onmessage = (e: MessageEvent<FromBoard>) => {
        if (worker !== w) return;
        lastHeard = performance.now();
        heardOnce = true;
        const m = e.data;
        if (m.t !== "reply") return events.message(m);
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (m.ok) p.resolve(m.value);
        else p.reject(new Error(m.error));
      };
      w.onerror = (e) => {
        e.preventDefault();
        if (worker === w) events.message({ t: "line", text: "page: the board's worker failed: " + e.message });
      };
      send({ t: "boot", speed, claim });
    },
    powerCut,
    isOn: () => worker !== null,
    button: (down) => send({ t: "button", down }),
    evaluate: (code) => ask((id) => ({ t: "eval", id, code })) as Promise<string | null>,
    call: (method, args = []) => ask((id) => ({ t: "call", id, method, args })),
    image: () => ask((id) => ({ t: "image", id })) as Promise<Uint8Array>,
    settled: () => ask((id) => ({ t: "settle", id })).then(() => undefined),
  };
}
