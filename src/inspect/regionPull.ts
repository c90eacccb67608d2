/**
 * Reading a board's pet region over its Espruino console, as `pet-save pull`, board-check, the soak
 * and the web page's Device tab do: the program the board runs, the check of what it printed, and
 * the pull itself over any transport of the console protocol (src/boards/consoleProtocol.ts's
 * Exchange). Host-neutral.
 *
 * The board runs a short loop that reads the region with require("Flash").read in 1 KiB chunks
 * and prints one line per chunk: offset, the bytes in base64 (btoa is native, so this is quick even
 * on the interpreter) and E.CRC32 of the chunk. The image counts only when every chunk arrived
 * exactly once with a matching CRC.
 */
import { command, evaluation, evaluationId, parseEvaluation, type Evaluated, type Exchange } from "../boards/consoleProtocol";
import { crc32Bitwise } from "../save/crc32";

/** The transfer was incomplete or garbled; the message says how. */
export class PullError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PullError";
  }
}

/** Bytes of standard base64 (atob exists in browsers and in Node 16+). */
function base64Bytes(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Bytes per chunk: 1 KiB, a line of about 1.4 KB. Each `Flash.read` has a fixed cost besides its
 * bytes: on the emulated ESP32 a 64 KiB pull took about 40 s in 256-byte reads and about 30 s in
 * 1 KiB ones; the chunk, its base64 and its string copy (about 3.4 KB of JsVars) are freed at once.
 */
export const PULL_CHUNK = 1024;

/** The code the board runs: one "PETPULL offset base64 crc" line per chunk between BEGIN and END. */
export function pullProgram(address: number, size: number): string {
  return (
    "(function(){var F=require(\"Flash\"),a=" + address + ",n=" + size + ",c=" + PULL_CHUNK + ",o,d;" +
    "print(\"PETPULL BEGIN \"+n);" +
    "for(o=0;o<n;o+=c){d=F.read(Math.min(c,n-o),a+o);print(\"PETPULL \"+o+\" \"+btoa(E.toString(d))+\" \"+E.CRC32(d));}" +
    "print(\"PETPULL END \"+n);})();"
  );
}

/**
 * Bytes logPullProgram reads to judge a sector's 12-byte header: 24, because `Flash.read` of 2 to 22
 * bytes reads nothing (under emulation) or panics (on a board) on Espruino's ESP32 builds with JsVars
 * in PSRAM (docs/board.md).
 */
export const HEADER_READ = 24;

/**
 * The code that reads only what the slot log reads (the soak's check after every cut, where reading
 * all of a board's region took 70 s on the emulated ESP32, whose flash reads are slow): every
 * sector's header (HEADER_READ bytes), and the sector whole only when its 12 header bytes are not
 * all erased. A sector whose header is erased is one the log never reads (src/storage,
 * docs/storage.md): what the next boot restores is decided by the sectors read whole. The lines are
 * pullProgram's, with one "PETPULL SKIP offset length" line for each sector left out; parsePullLines
 * then fills it with 0xFF (erased, as far as the log is concerned).
 */
export function logPullProgram(address: number, size: number, sectorSize: number): string {
  return (
    "(function(){var F=require(\"Flash\"),a=" + address + ",n=" + size + ",s=" + sectorSize + ",c=" + PULL_CHUNK + ",o,e,d;" +
    "print(\"PETPULL BEGIN \"+n);" +
    "for(o=0;o<n;o+=s){if(E.sum(new Uint8Array(F.read(" + HEADER_READ + ",a+o).buffer,0,12))==3060){print(\"PETPULL SKIP \"+o+\" \"+s);continue;}" +
    "for(e=o;e<o+s;e+=c){d=F.read(c,a+e);print(\"PETPULL \"+e+\" \"+btoa(E.toString(d))+\" \"+E.CRC32(d));}}" +
    "print(\"PETPULL END \"+n);})();"
  );
}

/**
 * The region from a pull's console output, or a PullError naming what is missing or wrong.
 * Lines that are not PETPULL lines (the uploader's messages, the firmware's own prints) are ignored.
 */
export function parsePullLines(text: string, size: number): Uint8Array {
  const image = new Uint8Array(size);
  const seen = new Set<number>();
  let begun = false;
  let ended = false;
  const bad = (why: string): PullError => new PullError("the transfer from the board is incomplete or garbled: " + why + "; nothing written");
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const begin = /PETPULL BEGIN (\d+)$/.exec(line);
    if (begin) {
      if (Number(begin[1]) !== size) throw bad("the board reports a region of " + begin[1] + " bytes, the profile says " + size);
      begun = true;
      continue;
    }
    if (/PETPULL END (\d+)$/.test(line)) {
      ended = true;
      continue;
    }
    const skip = /PETPULL SKIP (\d+) (\d+)$/.exec(line);
    if (skip) {
      // A sector logPullProgram left out (its header erased): erased, as the log sees it.
      const from = Number(skip[1]);
      const length = Number(skip[2]);
      if (from % PULL_CHUNK !== 0 || length % PULL_CHUNK !== 0 || from + length > size) throw bad("a skipped part at offset " + from + " lies outside the region");
      image.fill(0xff, from, from + length);
      for (let o = from; o < from + length; o += PULL_CHUNK) {
        if (seen.has(o)) throw bad("the chunk at offset " + o + " arrived twice");
        seen.add(o);
      }
      continue;
    }
    const m = /PETPULL (\d+) ([A-Za-z0-9+/=]*) (-?\d+)$/.exec(line);
    if (!m) continue;
    const offset = Number(m[1]);
    if (offset % PULL_CHUNK !== 0 || offset >= size) throw bad("a chunk at offset " + offset + " lies outside the region");
    if (seen.has(offset)) throw bad("the chunk at offset " + offset + " arrived twice");
    const bytes = base64Bytes(m[2] as string);
    const expected = Math.min(PULL_CHUNK, size - offset);
    if (bytes.length !== expected) throw bad("the chunk at offset " + offset + " has " + bytes.length + " bytes, not " + expected);
    if (crc32Bitwise(bytes) !== Number(m[3]) >>> 0) throw bad("the chunk at offset " + offset + " fails its CRC-32");
    image.set(bytes, offset);
    seen.add(offset);
  }
  if (!begun) throw bad("the board never started the dump (is the port right, and is it running Espruino?)");
  const missing = Math.ceil(size / PULL_CHUNK) - seen.size;
  if (missing > 0) throw bad(missing + " of " + Math.ceil(size / PULL_CHUNK) + " chunks are missing");
  if (!ended) throw bad("the dump did not finish");
  return image;
}


/**
 * How long a pull of `size` bytes may take: a minute, and a millisecond a byte beyond it (64 KiB at
 * 115200 baud is some 10 s of base64 lines; the emulated ESP32, whose flash reads are slow, took 70 s).
 */
export function pullMs(size: number): number {
  return 60_000 + size;
}

/** Collects a pull's lines as they come: `take` answers true once the END line has come. */
function pullLines(size: number, progress: (bytes: number) => void): { take(line: string): boolean; text(): string } {
  let text = "";
  let chunks = 0;
  let ended = false;
  return {
    take(line) {
      if (line.indexOf("PETPULL") >= 0) {
        text += line + "\n";
        if (/PETPULL \d+ /.test(line)) progress(Math.min(size, ++chunks * PULL_CHUNK));
        if (/PETPULL END/.test(line)) ended = true;
      }
      return ended;
    },
    text: () => text,
  };
}

/**
 * Runs `program` (pullProgram or logPullProgram, for a region of `size` bytes) on the board over
 * `exchange` and answers the region, checked by parsePullLines (a PullError when anything is missing
 * or wrong). `progress` gets the bytes received so far after every chunk.
 */
export async function pullOver(exchange: Exchange, program: string, size: number, progress: (bytes: number) => void = () => {}): Promise<Uint8Array> {
  const lines = pullLines(size, progress);
  await exchange(command(program), (line) => (lines.take(line) ? true : null), pullMs(size), "reading the pet region");
  return parsePullLines(lines.text(), size);
}

/**
 * pullOver, with the expression `expr` typed behind the program, evaluated by the board once the
 * pull has printed its last line: one wait for the console instead of two (on the emulated ESP32,
 * whose console passes a line on 0.6 s late, most of what a question costs). Answers the region and
 * what `expr` evaluated to (or the Error it threw on the board).
 */
export async function pullThenEvaluate(exchange: Exchange, program: string, size: number, expr: string, evaluateMs: number): Promise<{ image: Uint8Array; value: unknown }> {
  const lines = pullLines(size, () => {});
  const id = evaluationId();
  let answer: Evaluated | null = null;
  let ended = false;
  await exchange(
    command(program) + command(evaluation(expr, id)),
    (line) => {
      ended = lines.take(line) || ended;
      answer ??= parseEvaluation(line, id);
      return ended && answer !== null ? true : null;
    },
    pullMs(size) + evaluateMs,
    "reading the pet region and " + expr,
  );
  const got = answer as Evaluated | null;
  if (got === null || "error" in got) throw new Error(expr + " failed on the board after the region's read: " + (got === null ? "no answer" : got.error));
  return { image: parsePullLines(lines.text(), size), value: got.value };
}
