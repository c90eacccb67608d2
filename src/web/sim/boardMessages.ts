/**
 * The page's gate for what the simulated board sends. The board runs the firmware and whatever is
 * typed at its console, and a console line can post anything it can get hold of, so every message
 * is read here by shape before the page acts on it: a type the board may send, with fields of the
 * right kinds and sizes (a frame's pixels exactly the panel's bytes, a flash snapshot exactly the
 * region's), copied into a fresh object. Anything else is dropped. Text is the board's own words and
 * is shown as the board's, never as the page's; it is cut at MAX_TEXT characters.
 */
import { FRAME_BYTES, type FrameStatus, type FromBoard } from "./simProtocol";

export const MAX_TEXT = 4000;
/** A status field: a name of up to 31 bytes reads as at most 31 characters; the rest are shorter. */
const MAX_FIELD = 64;

function plain(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** A string from the board, cut to MAX_TEXT characters; null when it is not a string. */
export function boardText(x: unknown): string | null {
  if (typeof x !== "string") return null;
  return x.length <= MAX_TEXT ? x : x.slice(0, MAX_TEXT) + "…";
}

/** Exactly `size` bytes, or null. */
export function boardBytes(x: unknown, size: number): Uint8Array | null {
  return x instanceof Uint8Array && x.length === size ? x : null;
}

function field(s: Record<string, unknown>, key: keyof FrameStatus, pattern?: RegExp): string | null {
  const v = s[key];
  if (typeof v !== "string" || v.length > MAX_FIELD || (pattern !== undefined && !pattern.test(v))) return null;
  return v;
}

function frameStatus(x: unknown): FrameStatus | null | undefined {
  if (x === null) return null;
  if (!plain(x)) return undefined;
  const digits = /^\d{1,20}$/;
  const s: FrameStatus = {
    name: field(x, "name") as string,
    activityName: field(x, "activityName") as string,
    expressionName: field(x, "expressionName") as string,
    updateCount: field(x, "updateCount", digits) as string,
    elapsedMs: field(x, "elapsedMs", digits) as string,
  };
  return Object.values(s).every((v) => v !== null) ? s : undefined;
}

/** The message as the page takes it, or null when it is not one the board may send. */
export function readBoardMessage(data: unknown, regionSize: number): FromBoard | null {
  if (!plain(data)) return null;
  switch (data.t) {
    case "line": {
      const text = boardText(data.text);
      return text === null ? null : { t: "line", text };
    }
    case "frame": {
      const pixels = boardBytes(data.pixels, FRAME_BYTES);
      const status = frameStatus(data.status);
      if (pixels === null || typeof data.led !== "boolean" || status === undefined) return null;
      return { t: "frame", pixels, led: data.led, status };
    }
    case "flash": {
      const bytes = boardBytes(data.bytes, regionSize);
      return bytes === null ? null : { t: "flash", bytes };
    }
    case "failed": {
      const message = boardText(data.message);
      return message === null ? null : { t: "failed", message };
    }
    case "reply": {
      const id = data.id;
      if (typeof id !== "number" || !Number.isInteger(id)) return null;
      if (data.ok === true) return { t: "reply", id, ok: true, value: data.value };
      const error = boardText(data.error);
      return data.ok === false && error !== null ? { t: "reply", id, ok: false, error } : null;
    }
    default:
      return null;
  }
}
