/**
 * The messages between the page and the simulated board (worker/simWorker.ts), over the one
 * MessagePort the board is given. The page drives the board (power on with the flash it kept, the
 * button, a console line, a call on `pet`, a copy of the flash); the board reports what a person
 * would see of a real one (the panel's pixels, the LED, pet.status(), its console lines) and hands
 * over its flash after every burst of writes, which the page keeps in IndexedDB. A frame every
 * FRAME_MS doubles as the board's heartbeat for the page's watchdog.
 *
 * The board runs whatever is typed at its console, so nothing it sends is trusted: the page takes
 * only the messages below, each checked by shape (boardMessages.ts), and writes its own words itself.
 */
export const FRAME_MS = 100;
/** The panel's RAM: 128x64 pixels, one bit each, row-major. */
export const FRAME_BYTES = (128 * 64) / 8;

/**
 * Milliseconds on the clock the page and the board's worker share: each context's
 * performance.now() from its own origin, the origins on one time line. A button message carries
 * the time of its edge on it, and the worker takes its own reading to see how late it heard of it.
 */
export function sharedClockMs(): number {
  return performance.timeOrigin + performance.now();
}

/** The pet methods the page calls on the simulated board; each answers a string. */
export type PetMethod = "save" | "interact" | "rename" | "hatch" | "exportHex" | "importHex";

export type ToBoard =
  /** Power on: the region as the page kept it (null: none yet, an erased chip). */
  | { t: "boot"; speed: number; image: Uint8Array | null }
  /**
   * The button pressed or let go, at `at`: milliseconds on the clock page and worker share
   * (sharedClockMs), so the board times the press by when it happened
   * and not by when its worker got to the message (the firmware's debounce would take a press whose
   * two edges arrive together for a bounce).
   */
  | { t: "button"; down: boolean; at: number }
  /** A line typed in the console box, run in the firmware's global scope. */
  | { t: "eval"; id: number; code: string }
  | { t: "call"; id: number; method: PetMethod; args: string[] }
  /** The whole region as it is when this message arrives. */
  | { t: "image"; id: number }
  /** Answered once every flash change so far has been handed to the page. */
  | { t: "settle"; id: number };

/** What the page reads of pet.status() in a frame; anything else the board puts there is dropped. */
export interface FrameStatus {
  name: string;
  activityName: string;
  expressionName: string;
  updateCount: string;
  elapsedMs: string;
}

export type FromBoard =
  /** A line the board printed on its console. */
  | { t: "line"; text: string }
  | { t: "frame"; pixels: Uint8Array; led: boolean; status: FrameStatus | null }
  /** The whole region after a burst of flash writes, for the page to keep. */
  | { t: "flash"; bytes: Uint8Array }
  /** The board could not start (before its first frame). */
  | { t: "failed"; message: string }
  | { t: "reply"; id: number; ok: true; value: unknown }
  | { t: "reply"; id: number; ok: false; error: string };
