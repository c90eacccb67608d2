/**
 * What is said on a board's Espruino console, and how its answers are read: the one protocol of
 * every program that talks to a board (the page's Device tab, `npm run upload`, board-check, the
 * soak, `pet-save pull` and `push`, the tests and the bench on Espruino's Linux build). Pure
 * functions, no I/O: each host carries the text over its own transport, an Exchange (a serial port
 * or tcp in Node, src/host/node/serial/boardConsole.ts, which Espruino's Linux build is reached
 * through too; Web Serial in the page, src/web/device/serialLink.ts). The region's pull, the one
 * program longer than a line, is src/inspect/regionPull.ts, over the same Exchange.
 *
 * Every command line starts with Ctrl-P (\x10), which tells Espruino not to echo that line, and
 * prints its answer on a line of its own behind a "#pet-" tag, so the answer can be told apart from
 * the pet's own console lines and from any echo: an echoed command holds the tag inside quotes,
 * followed by a quote or comma, never by the space and value of a real answer. The tags:
 * `#pet-id` (boardFit.ts: what the board is), `#pet-quiet`, `#pet-ack`, `#pet-crc` (the upload),
 * `#pet-st` (pet.status()), `#pet-r` (a pet method's answer), `#pet-v<id>` (any expression's value).
 *
 * The upload (bootFileUpload.ts): the bundle's Storage files (`.bootcde`, and before it the body of
 * the function form, bundleForm.ts) in pieces of 1 to 4 KiB (as the board's free memory allows,
 * pieceBytes) through `require("Storage").write(NAME, piece, offset[, total])`, then
 * `load(".bootcde")`. Each piece
 * is wrapped in a print of Storage.write's result, so the sender knows each piece arrived (and that
 * Storage took it) before it sends the next: a console without flow control (an ESP32's UART, which
 * Espruino does not pace with XON/XOFF) never has its input buffer overrun, whatever the line's speed
 * and however long the board takes over a piece. Before the load each file's CRC-32 on the board is
 * compared with the bundle's. The bundle sent is the form the board's version runs (bundleForm.ts),
 * pretokenised, so its pieces travel as base64 (storageBytes).
 */
import { crc32Bitwise } from "../save/crc32";
import type { BoardProfile, DeviceBoardProfile, FlashRange } from "./boardProfile";
import { boardFit, parseBoardReport, refusalText, reportLine, type BoardReport } from "./boardFit";

/** The Storage file Espruino runs at every boot: where the upload puts the firmware. */
export const BOOT_FILE = ".bootcde";
/**
 * Bytes of the bundle in one Storage.write when the board's memory is not known or is short (the
 * espruino tool's CHUNKSIZE too, plugins/saveOnSend.js); pieceBytes gives more to a board with room.
 */
export const CHUNK_BYTES = 1024;
/** Espruino's console speed on the ESP32 (and the default of every serial board). */
export const BAUD = 115200;
/** Ctrl-C clears any half-typed line; Ctrl-P turns echo off for the next line. */
const CLEAR_LINE = "\x03";
const NO_ECHO = "\x10";

/**
 * A string as an Espruino string literal of bytes: printable ASCII as it is, anything else as \xNN
 * of its UTF-8 bytes. The ESP32 build has no Unicode strings: a name typed at its console arrives as
 * UTF-8 bytes, and this sends exactly those.
 */
export function espruinoString(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '"';
  for (const b of bytes) {
    if (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c) out += String.fromCharCode(b);
    else out += "\\x" + b.toString(16).padStart(2, "0");
  }
  return out + '"';
}

/** `js` as one console line: echo off, the code, Enter. */
export function command(js: string): string {
  return NO_ECHO + js + "\n";
}

/**
 * Sends `text` (command lines of this protocol) and waits up to `ms` for the first line from then on
 * that `pick` maps to something other than null or undefined; rejects naming `what` otherwise. Each
 * line the board prints from then on is offered to `pick` once, in order, so a pick may collect
 * lines (the region's pull does). Every transport offers this one call.
 */
export type Exchange = <T>(text: string, pick: (line: string) => T | null | undefined, ms: number, what: string) => Promise<T>;

/** The tag of an evaluation's answer: "#pet-v" and the evaluation's own id, then a space. */
function valueTag(id: string): string {
  return "#pet-v" + id + " ";
}

/** Evaluations of this program so far: with a per-program prefix, each gets an id no answer of another shares. */
let evaluations = 0;
const SESSION = Math.floor(Math.random() * 0x10000).toString(36);

/** A fresh id for an evaluation: a late answer to an earlier one (a probe that timed out) is never taken for it. */
export function evaluationId(): string {
  return SESSION + "x" + ++evaluations;
}

/**
 * The statement that evaluates `expr` and prints its value as JSON behind "#pet-v<id> ",
 * `{"v":value}`, or the exception it threw, `{"e":"text"}` (without the console's framing: the
 * interpreter's `-e` runs it as it is).
 */
export function evaluation(expr: string, id: string): string {
  const tag = JSON.stringify(valueTag(id));
  return "try{print(" + tag + "+JSON.stringify({v:(" + expr + ")}))}catch(e){print(" + tag + "+JSON.stringify({e:''+e}))}";
}

/** What an evaluation answered: its value, or the text of what it threw. */
export type Evaluated = { value: unknown } | { error: string };

/** The answer to evaluation `id` in a line the board printed (anything before the tag is ignored), or null. */
export function parseEvaluation(line: string, id: string): Evaluated | null {
  const tag = valueTag(id);
  const at = line.indexOf(tag);
  // An echo of the command holds the tag inside quotes, followed by the quote: never the answer's "{".
  if (at < 0 || line.charAt(at + tag.length) !== "{") return null;
  let j: { v?: unknown; e?: unknown };
  try {
    j = JSON.parse(line.slice(at + tag.length)) as typeof j;
  } catch {
    return null;
  }
  if (typeof j !== "object" || j === null) return null;
  return typeof j.e === "string" ? { error: j.e } : { value: j.v };
}

/**
 * Evaluates `expr` on the board over `exchange` and resolves with its value (undefined for an
 * undefined one); an exception on the board is an Error saying `what` failed there, with the
 * board's words; no answer within `ms` is the transport's own error.
 */
export async function evaluate<T>(exchange: Exchange, expr: string, what: string, ms: number): Promise<T> {
  const id = evaluationId();
  const answer = await exchange(command(evaluation(expr, id)), (l) => parseEvaluation(l, id), ms, what);
  if ("error" in answer) throw new Error(what + " failed on the board: " + answer.error);
  return answer.value as T;
}

/**
 * Asks the board what it is (process.env BOARD, VERSION, FLASH, STORAGE, the free flash and the page
 * of the region's last byte): the question of src/boards/boardFit.ts, the one rule the page, the upload,
 * board-check and the firmware share. `region` is the page's profile's petRegion.
 */
export function identifyCommand(region: FlashRange): string {
  return CLEAR_LINE + command(reportLine(region));
}

/** What the board said of itself (boardFit.ts's BoardReport: board, version, flash, storage, free, lastPage). */
export type BoardIdentity = BoardReport;

export function parseIdentity(line: string): BoardIdentity | null {
  return parseBoardReport(line);
}

/**
 * Why this board cannot take the firmware built for `profile` (the page's device profile,
 * boards/esp32.json), or null when it can: boardFit.ts's rule, its first problem and what to do.
 */
export function refusal(id: BoardIdentity, profile: BoardProfile): string | null {
  if (profile.host === "desktop" || profile.espruino === undefined) return "The page's firmware is built for a simulator, not a board. Nothing was sent.";
  const why = refusalText(boardFit(profile as DeviceBoardProfile, id));
  return why === null ? null : why.charAt(0).toUpperCase() + why.slice(1) + " Nothing was sent.";
}

/**
 * Before the upload: the running pet saves, and every timer and watch stops, so nothing runs from
 * the .bootcde being replaced while Storage is written (a Storage.write that has to compact moves
 * the old file's text, and a function still defined there would fail mid-call). The pet's region is
 * not touched beyond that save; `load` afterwards starts everything afresh. Answered by #pet-quiet
 * and the board's free JsVars, which size the pieces that follow (pieceBytes).
 */
export function quietCommand(): string {
  return command("if(typeof pet=='object'&&pet&&typeof pet.save=='function')pet.save();clearInterval();clearTimeout();clearWatch();print('#pet-quiet '+process.memory().free)");
}

/** The quiet command's answer: the board's free JsVars (null when it gave none). */
export function parseQuiet(line: string): { free: number | null } | null {
  if (line.indexOf("#pet-quiet") < 0 || line.indexOf("print(") >= 0) return null;
  const m = /#pet-quiet (\d+)/.exec(line);
  return { free: m ? Number(m[1]) : null };
}

/** The most bytes of the bundle in one Storage.write, on a board with the memory for it. */
export const MAX_PIECE_BYTES = 4096;

/**
 * Bytes of the bundle per piece on a board with `freeVars` free JsVars: as many whole KiB as a
 * quarter of them hold twice over (a piece is in memory twice while its line runs, as the typed line
 * and as its string, at about 12 bytes a JsVar), from CHUNK_BYTES to MAX_PIECE_BYTES. Every piece is
 * a wait for the board (its answer, and a flash write), so fewer pieces are a quicker upload: on the
 * emulated ESP32, whose console passes a line on 0.6 s late, about 1.2 s a piece. An ESP32 with
 * PSRAM (20 000 JsVars) takes 4 KiB pieces; one without (2 500, most of them the pet's) 1 KiB.
 */
export function pieceBytes(freeVars: number | null): number {
  if (freeVars === null || !(freeVars > 0)) return CHUNK_BYTES;
  const fits = Math.floor((freeVars / 4) * 12 / 2 / CHUNK_BYTES) * CHUNK_BYTES;
  return Math.max(CHUNK_BYTES, Math.min(MAX_PIECE_BYTES, fits));
}

/**
 * An Espruino expression for the bytes of `text` (one byte a character, codes below 256): the string
 * as JSON when it is all ASCII, else `atob` of its base64. A pretokenised bundle holds bytes of 128
 * and up, which a console line cannot carry as they are (the page's and Node's serial links send
 * UTF-8); as base64 they cost a third more on the wire, where `\xNN` would cost three times a token.
 */
export function storageBytes(text: string): string {
  return /^[\x00-\x7e]*$/.test(text) ? JSON.stringify(text) : 'atob("' + btoa(text) + '")';
}

/**
 * The upload as command lines of `piece` bytes each, file after file in the order given (a bundle's
 * files, bundleForm.ts: the one that runs last). A piece's `offset` and `end` count bytes of the
 * whole upload, so every acknowledgement (`#pet-ack OFFSET`) is told apart from every other.
 */
export function uploadCommands(files: readonly { name: string; code: string }[], piece = CHUNK_BYTES): { line: string; offset: number; end: number }[] {
  const out: { line: string; offset: number; end: number }[] = [];
  let before = 0;
  for (const f of files) {
    const code = f.code;
    for (let i = 0; i < code.length; i += piece) {
      const text = storageBytes(code.substr(i, piece));
      const write = "require(\"Storage\").write(" + JSON.stringify(f.name) + "," + text + "," + i + (i === 0 ? "," + code.length : "") + ")";
      out.push({ line: command("print('#pet-ack " + (before + i) + " '+" + write + ")"), offset: before + i, end: before + Math.min(code.length, i + piece) });
    }
    before += code.length;
  }
  return out;
}

export function parseAck(line: string): { offset: number; ok: boolean } | null {
  const m = /#pet-ack (\d+) (true|false)/.exec(line);
  return m ? { offset: Number(m[1]), ok: m[2] === "true" } : null;
}

/** Asks for the CRC-32 of Storage file `name` (the upload checks each file it wrote). */
export function crcCommand(name: string = BOOT_FILE): string {
  return command("print('#pet-crc '+E.CRC32(require(\"Storage\").read(" + JSON.stringify(name) + ")))");
}

/** The CRC-32 the board's E.CRC32 gives for the bundle's bytes (one byte a character: ASCII and token bytes). */
export function bundleCrc(code: string): number {
  const bytes = new Uint8Array(code.length);
  for (let i = 0; i < code.length; i++) bytes[i] = code.charCodeAt(i) & 0xff;
  return crc32Bitwise(bytes);
}

export function parseCrc(line: string): number | null {
  const m = /#pet-crc (-?\d+)/.exec(line);
  return m ? Number(m[1]) >>> 0 : null;
}

/**
 * Erases Storage file `name`, which the bundle just written no longer reads (bundleForm.ts,
 * SentBundle.stale: the function form's body, once a board runs the block form); answers with
 * #pet-erased and whether the file is gone. Erasing a file that is not there does nothing.
 */
export function eraseCommand(name: string): string {
  return command("print('#pet-erased '+(function(s,n){s.erase(n);return s.read(n)===undefined})(require(\"Storage\")," + JSON.stringify(name) + "))");
}

/** What the upload says of a stale file the board kept (the firmware runs without it): the console line that removes it. */
export function staleFileNote(name: string): string {
  return "Storage still holds " + name + ", which this firmware no longer reads: require(\"Storage\").erase(" + JSON.stringify(name) + ") at the board's console removes it";
}

/** The erase command's answer: whether the file is gone (null for any other line). */
export function parseErased(line: string): boolean | null {
  const m = /#pet-erased (true|false)/.exec(line);
  return m ? m[1] === "true" : null;
}

export function loadCommand(): string {
  return command('load("' + BOOT_FILE + '")');
}

/** Asks for pet.status() (null when no pet is running). */
export function statusCommand(): string {
  return command("print('#pet-st '+JSON.stringify(typeof pet=='object'&&pet?pet.status():null))");
}

export function parseStatus(line: string): { found: boolean; status: Record<string, unknown> | null } {
  const m = /#pet-st (.*)$/.exec(line);
  if (!m) return { found: false, status: null };
  try {
    const v = JSON.parse(m[1] as string) as unknown;
    return { found: true, status: typeof v === "object" && v !== null ? (v as Record<string, unknown>) : null };
  } catch {
    return { found: false, status: null };
  }
}

/** What a pet call answers when the board runs no pet console (no pet firmware, or not this method): no status of the firmware's. */
export const NO_PET = "no-pet";

/** pet.<method>(<args as Espruino literals>) with its string answer printed; NO_PET where there is no such method to call. */
export function petCallCommand(method: "interact" | "save" | "rename" | "hatch" | "exportHex" | "importHex", args: string[] = []): string {
  return command(
    "print('#pet-r '+JSON.stringify(typeof pet=='object'&&pet&&typeof pet." + method + "=='function'?pet." + method + "(" + args.map(espruinoString).join(",") + "):'" + NO_PET + "'))",
  );
}

export function parseResult(line: string): string | null {
  const m = /#pet-r (".*")/.exec(line);
  if (!m) return null;
  try {
    return String(JSON.parse(m[1] as string));
  } catch {
    return null;
  }
}
