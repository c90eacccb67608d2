/**
 * The messages between the page and the simulated board's Worker (worker/simWorker.ts). The page
 * drives the board (power on, the button, a console line, a call on `pet`, a copy of the flash); the
 * board reports what a person would see of it (the panel's pixels, the LED, pet.status(), console
 * lines, saves once they are in IndexedDB). A frame every FRAME_MS doubles as the board's heartbeat
 * for the page's watchdog.
 */
import type { CurrentSave } from "../../host/emulator/currentSave";
import type { BoardClaim } from "./boardLease";

export const FRAME_MS = 100;

export type PetMethod = "status" | "save" | "interact" | "rename" | "hatch" | "exportHex" | "importHex";

export type ToBoard =
  | { t: "boot"; speed: number; claim: BoardClaim }
  | { t: "button"; down: boolean }
  /** A line typed in the console box, run in the firmware's global scope. */
  | { t: "eval"; id: number; code: string }
  | { t: "call"; id: number; method: PetMethod; args: string[] }
  /** The whole region as it is when this message arrives. */
  | { t: "image"; id: number }
  /** Answered once every flash change so far is in IndexedDB. */
  | { t: "settle"; id: number };

export type Reply = { t: "reply"; id: number; ok: true; value: unknown } | { t: "reply"; id: number; ok: false; error: string };

export type FromBoard =
  | { t: "ready"; origin: "restored" | "new"; save: CurrentSave | null }
  | { t: "line"; text: string }
  /** The panel's RAM as the SSD1306 model shows it: 128x64 pixels, one bit each, row-major. */
  | { t: "frame"; pixels: Uint8Array; led: boolean; status: Record<string, unknown> | null }
  | { t: "saved"; save: CurrentSave }
  | { t: "lease-lost" }
  | { t: "failed"; message: string }
  | Reply;
