/**
 * Talking to Espruino on the emulated ESP32 (qemuChip.ts) line by line, for the programs that
 * measure it (the bench's chip section): a line's value read back behind a tag, a Storage file
 * written in acknowledged pieces and checked by its CRC, and the kit's instruction counter read
 * around a window that the chip's own code opens and closes.
 *
 * The window: the kit's plugin (run.sh --count-insns) counts what a core executes between two
 * marker PCs, the ROM's gpio_input_get and gpio_input_get_high, which this firmware never calls
 * (the kit's README, "Counting instructions"). JavaScript opens and closes it with
 * `E.nativeCall(PC, "void()")()`, so code on the chip decides exactly what falls inside: a console
 * line, a single operation inside a harness, or the firmware's boot from `.bootcde`. What the core
 * runs meanwhile for an interrupt falls inside too, which is why flash operations (core 0 waits for
 * core 1 in the flash guard) vary from run to run and pure interpreter work does not.
 */
import { ConsoleError, type BoardConsole } from "../serial/boardConsole";
import { crc32Bitwise } from "../../../save/crc32";
import { storageBytes } from "../../../boards/consoleProtocol";
import { readInsns } from "./qemuChip";

/** The ROM's gpio_input_get: executing it opens the counting window (run.sh's start=). */
export const MARK_START_PC = 0x40009b88;
/** The ROM's gpio_input_get_high: executing it closes the window (run.sh's stop=). */
export const MARK_STOP_PC = 0x40009b9c;

/** JavaScript that calls the native function at `pc`: one marker. */
export function markerCall(pc: number): string {
  return "E.nativeCall(" + pc + ',"void()")()';
}

let tags = 0;

/** A line is typed in parts of this many bytes, with a pause after each. */
const TYPED_PART = 128;
const TYPED_PAUSE_MS = 10;

/**
 * Evaluates one line of JavaScript on the chip and answers its value, as JSON parsed back; a line
 * that throws rejects with Espruino's words for it. The line is typed a part at a time: the emulated
 * UART hands bytes to the chip at the console's speed in the host's time, and a chip the host starves
 * cannot take them out of Espruino's input queue as fast, which then drops what does not fit.
 */
export async function evaluateOnChip<T = unknown>(con: BoardConsole, js: string, ms = 60_000): Promise<T> {
  const tag = "#chipq-" + ++tags + " ";
  const what = js.length > 200 ? js.slice(0, 200) + "..." : js;
  const line = "try{print(" + JSON.stringify(tag) + "+JSON.stringify(" + js + "))}catch(e){print(" + JSON.stringify(tag) + '+"!"+e)}';
  // A newline first ends any half-typed line; Ctrl-P turns the echo off for this one.
  await con.send("\n\x10");
  for (let at = 0; at < line.length; at += TYPED_PART) {
    await con.send(line.slice(at, at + TYPED_PART));
    if (line.length > TYPED_PART) await new Promise((r) => setTimeout(r, TYPED_PAUSE_MS));
  }
  const text = await con.exchange(
    "\n",
    (l) => {
      const at = l.indexOf(tag);
      // An echo holds the tag inside quotes, followed by the quote and the +: never an answer.
      return at >= 0 && l.slice(at + tag.length, at + tag.length + 2) !== '"+' ? l.slice(at + tag.length) : null;
    },
    ms,
    what,
  );
  if (text.startsWith("!")) throw new Error(what + " threw on the chip: " + text.slice(1));
  return (text === "undefined" ? undefined : JSON.parse(text)) as T;
}

/** Bytes of a file in one Storage.write: a short line loses fewer bytes to a starved UART. */
const PIECE = 512;
/** How long one piece may take before it is typed again. */
const PIECE_MS = 20_000;
/** Tries of one piece, and of the whole file when its CRC differs. */
const PIECE_TRIES = 2;
const FILE_TRIES = 2;

/**
 * Writes `text` (one byte a character) into the chip's Storage as file `name`, a piece at a time,
 * each acknowledged before the next is sent (the ESP32's console has no flow control), then compares
 * the file's CRC-32 on the chip with the text's. The emulated UART drops bytes when the host starves
 * the chip, which leaves a line unfinished (a string never closed): such a piece is cleared with
 * Ctrl-C and typed again, and a file whose CRC still differs is written again from the start.
 */
export async function writeStorageFileOnChip(con: BoardConsole, name: string, text: string): Promise<void> {
  if (text.length === 0) throw new Error("empty Storage file " + name);
  const want = textCrc(text);
  const n = JSON.stringify(name);
  let got = -1;
  for (let round = 1; round <= FILE_TRIES && got !== want; round++) {
    for (let at = 0; at < text.length; at += PIECE) {
      const piece = storageBytes(text.slice(at, at + PIECE));
      await retried(con, 'require("Storage").write(' + n + "," + piece + "," + at + (at === 0 ? "," + text.length : "") + ")", name + " at " + at);
    }
    got = await storageFileCrc(con, name);
  }
  if (got !== want) throw new Error("Storage file " + name + " on the chip does not match what was sent (CRC " + got + ", expected " + want + ")");
}

/** The CRC-32 of text read one byte a character, as E.CRC32 gives it for the same bytes on the chip. */
export function textCrc(text: string): number {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return crc32Bitwise(bytes);
}

/** The CRC-32 of Storage file `name` on the chip (of no bytes when there is no such file). */
export async function storageFileCrc(con: BoardConsole, name: string): Promise<number> {
  return (await evaluateOnChip<number>(con, 'E.CRC32(require("Storage").read(' + JSON.stringify(name) + ')||"")')) >>> 0;
}

/** One Storage.write line, typed again (after Ctrl-C) while no answer comes; it must answer true. */
async function retried(con: BoardConsole, js: string, what: string): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      const ok = await evaluateOnChip(con, js, PIECE_MS);
      if (ok !== true) throw new Error("Storage.write of " + what + " answered " + JSON.stringify(ok));
      return;
    } catch (e) {
      if (!(e instanceof ConsoleError) || e.kind !== "silent" || tries >= PIECE_TRIES) throw e;
      await con.send("\x03\n");
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * The Xtensa instructions core 0 executed inside the counting window that `act` makes the chip open
 * and close exactly once (MARKED before and after, from the kit's counter socket `insns`). A window
 * not closed (the code threw between the markers) is closed on `con` and is an error, and so is a
 * second window: the count would be of something else.
 */
export async function countWindow(insns: string, con: BoardConsole, act: () => Promise<unknown>): Promise<number> {
  const before = await readInsns(insns);
  let failed: unknown = null;
  try {
    await act();
  } catch (e) {
    failed = e;
  }
  const after = await readInsns(insns);
  const windows = (after[4] ?? NaN) - (before[4] ?? NaN);
  if (windows === 0) await evaluateOnChip(con, markerCall(MARK_STOP_PC));
  if (failed !== null) throw failed;
  if (windows !== 1) throw new Error("expected one counting window, saw " + windows + " (did the code throw between the markers?)");
  return (after[3] ?? NaN) - (before[3] ?? NaN);
}
