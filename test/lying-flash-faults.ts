/**
 * The faults a board's flash can have without saying so ("flash that lies", docs/storage.md), named
 * once for both places they are injected: the simulator (src/storage/norFlashSim.ts, injectFailure)
 * and Espruino's Linux build (src/host/node/interpreter/espruinoShim.c through src/host/node/interpreter/interpreterBoard.ts).
 * Each comes with what a failed save answers, which is what `pet.save()` returns and the console
 * prints after "save failed: ": the slot log's status and message, naming the fault.
 */
import type { FlashFault } from "../src/host/node/interpreter/interpreterBoard";

export interface NamedFault {
  /** "erase silent": the operation and the mode, as both injectors spell them. */
  name: string;
  rule: FlashFault;
  /** What a save that ran into it answers ("verify-failed (...)"), the first time and after. */
  says: RegExp;
}

export const LYING_FLASH: NamedFault[] = [
  {
    // What Espruino's ESP32 port does when built with ESP-IDF 5 (docs/storage.md).
    name: "erase silent",
    rule: { op: "erase", mode: "silent" },
    says: /^verify-failed \(sector \d+ did not erase: [1-9]\d* of its 60 header and mark bytes read back unerased\)$/,
  },
  {
    name: "write silent",
    rule: { op: "write", mode: "silent" },
    // The payload first; once the slots it spoiled fill the sector, the header of the next one.
    says: /^verify-failed \(the (payload|header of sector \d+) did not program \(the write had no effect\)\)$/,
  },
  {
    name: "write half",
    rule: { op: "write", mode: "half" },
    says: /^verify-failed \(the (payload|header of sector \d+) did not program \(the write landed only partly: \d+ of (84|12) bytes as written\)\)$/,
  },
];

/** A save's answer as the firmware's store gives it: "ok", or the status and the message in brackets. */
export function saveAnswer(r: { status: string; message: string }): string {
  return r.status === "ok" ? "ok" : r.status + " (" + r.message + ")";
}
