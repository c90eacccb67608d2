/**
 * An Espruino ESP32 release as downloaded (`espruino_2vXX_esp32.tgz`), unpacked in the page: gzip
 * through the browser's own DecompressionStream, then the tar read here (ustar headers, with the GNU
 * long-name and pax path records tar writes for long paths). Out of it come the three files the
 * release's flashing notes name; when a release names them differently but holds three .bin files,
 * those, and espruinoImages.ts sorts them by content as it does for picked files.
 *
 * A file that is not such a release is refused with what is wrong with it, found from its bytes: not
 * gzip at all (a web page saved by a failed download, a zip), gzip cut short (a download that did
 * not finish: the data ends before the gzip stream does) or damaged (the data itself is wrong), no
 * tar inside, not an Espruino release for the ESP32, or some of the three files missing; each with
 * what to do (ReleaseProblem). A plain .tar of the release is taken as well.
 */
import type { PickedFile } from "./espruinoImages";

const BLOCK = 512;
export const RELEASE_FILES = ["bootloader.bin", "partitions_espruino.bin", "espruino_esp32.bin"];
const WHAT_TO_DO =
  "Download the ESP32 release again from espruino.com (espruino_2vXX_esp32.tgz: the current one, or any from 2v06 on) and pick or drop it as it is, or pick its three files.";

/** A file that is not a usable release: `message` says what is wrong with it and what to do. */
export class ReleaseProblem extends Error {
  constructor(
    readonly kind: "empty" | "not-gzip" | "cut-short" | "damaged" | "not-tar" | "not-esp32-release" | "files-missing",
    what: string,
  ) {
    super(what + " " + WHAT_TO_DO);
    this.name = "ReleaseProblem";
  }
}

/**
 * The bytes a gzip file holds. Fed to DecompressionStream in one write, then closed: data that is
 * wrong fails the write, while data that stops before the gzip stream ends fails only the close
 * (the decompressor still wanted more), which is how a download cut short is told from a damaged one.
 */
export async function gunzip(bytes: Uint8Array): Promise<{ bytes: Uint8Array; failure: null | "cut-short" | "damaged"; why: string }> {
  const ds = new DecompressionStream("gzip");
  const writer = ds.writable.getWriter();
  const chunks: Uint8Array[] = [];
  const reading = (async () => {
    const reader = ds.readable.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        chunks.push(value);
      }
    } catch {
      /* the write or the close says why */
    }
  })();
  let failure: null | "cut-short" | "damaged" = null;
  let why = "";
  try {
    await writer.write(bytes as Uint8Array<ArrayBuffer>);
  } catch (e) {
    failure = "damaged";
    why = e instanceof Error ? e.message : String(e);
  }
  if (failure === null) {
    try {
      await writer.close();
    } catch (e) {
      failure = "cut-short";
      why = e instanceof Error ? e.message : String(e);
    }
  }
  await reading;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return { bytes: out, failure, why };
}

function text(b: Uint8Array, at: number, len: number): string {
  let s = "";
  for (let i = at; i < at + len && b[i] !== 0; i++) s += String.fromCharCode(b[i] as number);
  return s;
}

/** An octal number field (size, checksum); GNU's base-256 form for huge sizes is read too. */
function octal(b: Uint8Array, at: number, len: number): number {
  if (((b[at] as number) & 0x80) !== 0) {
    let n = 0;
    for (let i = at + 1; i < at + len; i++) n = n * 256 + (b[i] as number);
    return n;
  }
  const s = text(b, at, len).trim();
  return s === "" ? 0 : parseInt(s, 8);
}

/** The path of a pax header's "path" record, if it has one. */
function paxPath(b: Uint8Array): string | null {
  const records = new TextDecoder().decode(b);
  const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(records);
  return m ? (m[1] as string) : null;
}

/** Does a 512-byte block hold a tar header (its checksum right)? */
function isTarHeader(header: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] as number);
  return sum === octal(header, 148, 8);
}

/** Does `bytes` start with a tar header (a plain .tar, or what a gzip file held)? */
export function looksLikeTar(bytes: Uint8Array): boolean {
  return bytes.length >= BLOCK && !bytes.subarray(0, BLOCK).every((x) => x === 0) && isTarHeader(bytes.subarray(0, BLOCK));
}

/**
 * Every regular file in a tar archive, with its path; `cutShort` names the entry the archive ends
 * in the middle of, or says "the end" when it stops without its end blocks. Throws on a header that
 * is not tar.
 */
export function untar(tar: Uint8Array): { files: PickedFile[]; cutShort: string | null } {
  const files: PickedFile[] = [];
  let nextName: string | null = null;
  let at = 0;
  for (;;) {
    if (at + BLOCK > tar.length) return { files, cutShort: "the end of the archive" };
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((x) => x === 0)) return { files, cutShort: null }; // the end: zero blocks
    if (!isTarHeader(header)) throw new Error("not a tar archive (bad header checksum at byte " + at + ")");
    const length = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] as number);
    const prefix = text(header, 257, 5) === "ustar" ? text(header, 345, 155) : "";
    const name = nextName !== null ? nextName : (prefix ? prefix + "/" : "") + text(header, 0, 100);
    if (at + BLOCK + length > tar.length) return { files, cutShort: name };
    const data = tar.subarray(at + BLOCK, at + BLOCK + length);
    at += BLOCK + Math.ceil(length / BLOCK) * BLOCK;
    if (type === "L") {
      nextName = text(data, 0, data.length);
      continue;
    }
    if (type === "x") {
      nextName = paxPath(data);
      continue;
    }
    nextName = null;
    if (type !== "0" && type !== "\0") continue; // directories, links, global pax headers
    files.push({ name, bytes: new Uint8Array(data) });
  }
}

const base = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/** What a file that is not gzip is, from its first bytes, in words. */
function notGzip(f: PickedFile): ReleaseProblem {
  const head = new TextDecoder().decode(f.bytes.subarray(0, 64)).trimStart();
  if (head.startsWith("<")) {
    return new ReleaseProblem("not-gzip", f.name + " is a web page (HTML), not the release: the download went wrong, or saved the page the link led to.");
  }
  if (f.bytes[0] === 0x50 && f.bytes[1] === 0x4b) {
    return new ReleaseProblem("not-gzip", f.name + " is a zip archive, not the ESP32 release's .tgz: take espruino_2vXX_esp32.tgz (or the three files of the ESP32 folder) out of it.");
  }
  const first = Array.from(f.bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, "0")).join(" ");
  return new ReleaseProblem("not-gzip", f.name + " is not a gzip file (it starts with the bytes " + first + "), so it is not the release's .tgz.");
}

/** The files to check out of a release archive, and a line saying what was taken; a ReleaseProblem when it is not one. */
export async function releaseFiles(archive: PickedFile): Promise<{ files: PickedFile[]; note: string }> {
  const name = archive.name;
  if (archive.bytes.length === 0) throw new ReleaseProblem("empty", name + " is empty (0 bytes): the download did not work.");
  let tar: Uint8Array;
  if (archive.bytes[0] === 0x1f && archive.bytes[1] === 0x8b) {
    const g = await gunzip(archive.bytes);
    if (g.failure === "cut-short") {
      throw new ReleaseProblem("cut-short", name + " is cut short: its " + archive.bytes.length + " bytes end before its compressed data does, as when a download stops before it is finished.");
    }
    if (g.failure === "damaged") throw new ReleaseProblem("damaged", name + " is damaged: its compressed data is not valid (" + g.why + "), so it cannot be unpacked.");
    tar = g.bytes;
    if (!looksLikeTar(tar)) throw new ReleaseProblem("not-tar", name + " is gzip, but what it holds (" + tar.length + " bytes) is not a tar archive, so it is not an Espruino release.");
  } else if (looksLikeTar(archive.bytes)) {
    tar = archive.bytes;
  } else {
    throw notGzip(archive);
  }
  let entries: PickedFile[];
  let cutShort: string | null;
  try {
    ({ files: entries, cutShort } = untar(tar));
  } catch (e) {
    throw new ReleaseProblem("damaged", name + " is damaged: " + (e instanceof Error ? e.message : String(e)) + ".");
  }
  const named = RELEASE_FILES.map((n) => entries.find((e) => base(e.name) === n));
  if (named.every((e) => e !== undefined)) {
    return { files: named.map((e) => ({ name: base((e as PickedFile).name), bytes: (e as PickedFile).bytes })), note: "from " + name + ": " + RELEASE_FILES.join(", ") };
  }
  if (cutShort !== null) throw new ReleaseProblem("cut-short", name + " is cut short: the archive inside it stops in the middle of " + cutShort + ".");
  const missing = RELEASE_FILES.filter((_, k) => named[k] === undefined);
  if (missing.length < RELEASE_FILES.length) {
    throw new ReleaseProblem("files-missing", name + " has files missing: " + missing.join(" and ") + (missing.length === 1 ? " is" : " are") + " not in it.");
  }
  const bins = entries.filter((e) => /\.bin$/i.test(e.name)).map((e) => ({ name: base(e.name), bytes: e.bytes }));
  if (bins.length === RELEASE_FILES.length) return { files: bins, note: "from " + name + ": " + bins.map((f) => f.name).join(", ") + " (told apart by their content)" };
  const held = entries.length === 0 ? "no files at all" : entries.slice(0, 4).map((e) => base(e.name)).join(", ") + (entries.length > 4 ? " and " + (entries.length - 4) + " more" : "");
  throw new ReleaseProblem("not-esp32-release", name + " is not an Espruino release for the ESP32: it holds " + held + ", not " + RELEASE_FILES.join(", ") + ".");
}
