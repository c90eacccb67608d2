/**
 * An Espruino ESP32 release as downloaded (`espruino_2vXX_esp32.tgz`), unpacked in the page: gzip
 * through the browser's own DecompressionStream, then the tar read here (ustar headers, with the GNU
 * long-name and pax path records tar writes for long paths). Out of it come the three files the
 * release's flashing notes name; when a release names them differently, every .bin file in it, and
 * espruinoImages.ts sorts those by content as it does for picked files.
 */
import type { PickedFile } from "./espruinoImages";

const BLOCK = 512;
export const RELEASE_FILES = ["bootloader.bin", "partitions_espruino.bin", "espruino_esp32.bin"];

export async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
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

/** Every regular file in a tar archive, with its path. Throws on a header that is not tar. */
export function untar(tar: Uint8Array): PickedFile[] {
  const out: PickedFile[] = [];
  let nextName: string | null = null;
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((x) => x === 0)) break; // the end: two zero blocks
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] as number);
    if (sum !== octal(header, 148, 8)) throw new Error("not a tar archive (bad header checksum at byte " + at + ")");
    const length = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] as number);
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
    if (type !== "0" && type !== "\0") {
      nextName = null;
      continue; // directories, links, global pax headers
    }
    const prefix = text(header, 257, 5) === "ustar" ? text(header, 345, 155) : "";
    const name = nextName !== null ? nextName : (prefix ? prefix + "/" : "") + text(header, 0, 100);
    nextName = null;
    out.push({ name, bytes: new Uint8Array(data) });
  }
  return out;
}

const base = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/** The files to check out of a release archive, and a line saying what was taken. */
export async function releaseFiles(archive: PickedFile): Promise<{ files: PickedFile[]; note: string }> {
  let entries: PickedFile[];
  try {
    entries = untar(await gunzip(archive.bytes));
  } catch (e) {
    throw new Error(archive.name + " could not be unpacked: " + (e instanceof Error ? e.message : String(e)) + ". Pick the release's .tgz as downloaded, or its three files");
  }
  const named = RELEASE_FILES.map((n) => entries.find((e) => base(e.name) === n));
  if (named.every((e) => e !== undefined)) {
    return { files: named.map((e) => ({ name: base((e as PickedFile).name), bytes: (e as PickedFile).bytes })), note: "from " + archive.name + ": " + RELEASE_FILES.join(", ") };
  }
  const bins = entries.filter((e) => /\.bin$/i.test(e.name)).map((e) => ({ name: base(e.name), bytes: e.bytes }));
  return { files: bins, note: "from " + archive.name + ": " + (bins.length === 0 ? "no .bin file in it" : bins.map((f) => f.name).join(", ")) };
}
