/**
 * A file offered as a save payload, judged by the codec before anything is done with it: binary (84
 * bytes) or hex text, read by the same rules as `pet-save` (src/inspect/payloadFile.ts), then
 * loadWorld. A rejection carries the codec's status and its one-line explanation.
 */
import { bytesToHex } from "../../core/hex";
import { loadWorld } from "../../save/codec";
import { PAYLOAD_LENGTH } from "../../save/layout";
import { payloadJson, type PayloadJson } from "../../save/payloadJson";
import { describeStatus } from "../../save/status";
import { payloadFromBytes, PayloadFileError } from "../../inspect/payloadFile";

export type PayloadVerdict =
  | { ok: true; bytes: Uint8Array; hex: string; json: PayloadJson }
  | { ok: false; status: string; explanation: string };

/** `now` is the wall clock in ms (0: judge without one, as `pet-save decode` does without --now). */
export function judgePayload(file: Uint8Array, name: string, now = 0): PayloadVerdict {
  let bytes: Uint8Array;
  try {
    bytes = payloadFromBytes(file, name).bytes;
  } catch (e) {
    if (e instanceof PayloadFileError) return { ok: false, status: "bad-hex", explanation: e.message };
    throw e;
  }
  if (bytes.length !== PAYLOAD_LENGTH && bytes.length > 4096) {
    return { ok: false, status: "bad-length", explanation: name + " is " + bytes.length + " bytes: a save payload is " + PAYLOAD_LENGTH + " bytes (or their hex text); a region image is restored with pet-save, not here" };
  }
  const loaded = loadWorld(bytes, now);
  if (loaded.status !== "ok" || loaded.world === null) return { ok: false, status: loaded.status, explanation: describeStatus(loaded.status) };
  return { ok: true, bytes, hex: bytesToHex(bytes), json: payloadJson(loaded.world, loaded.savedAt) };
}

/** The words shown for a rejection: the same two lines `pet-save decode` prints. */
export function rejectionText(v: { status: string; explanation: string }): string {
  return "rejected: " + v.status + "\n" + v.explanation;
}
