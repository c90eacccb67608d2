/**
 * What a `pet-save` command may touch: its arguments, stdin/stdout/stderr through CliIo (so tests run
 * commands in-process against memory streams), and files. User mistakes are thrown as CliError with
 * an exit code and a one-line message; the dispatcher prints them without a stack trace.
 */
import { statSync, writeFileSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { writeFileAtomic } from "../atomicFile";
import { acquireImageLock, readImageConsistent, type HeldLock } from "../imageLock";
import { payloadFromBytes, PayloadFileError, type PayloadInput } from "../../../inspect/payloadFile";

export { looksLikeHexText } from "../../../inspect/payloadFile";

export interface CliIo {
  /**
   * Standard input, read up to the end or until more than `maxBytes` have arrived (then it stops
   * reading and returns what it has, so a stream that never ends cannot hang the command).
   */
  readStdin(maxBytes: number): Promise<Uint8Array>;
  writeStdout(data: string | Uint8Array): void;
  writeStderr(text: string): void;
}

/** Exit codes: 0 accepted/done, 1 rejected payload or world or unreadable input, 2 bad usage. */
export const EXIT_OK = 0;
export const EXIT_REJECTED = 1;
export const EXIT_USAGE = 2;

/** A user-facing failure: printed as its message, never with a stack. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}

export function usageError(message: string): CliError {
  return new CliError(EXIT_USAGE, message);
}

/** Short reason for a failed file operation, without Node's stack or errno noise. */
function reasonOf(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "is a directory";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOSPC" || code === "EDQUOT") return "no space left on the device; free some space or write somewhere else";
  if (code === "EROFS") return "read-only file system";
  return e instanceof Error ? e.message : String(e);
}

/**
 * The most a command reads, by what it expects. Files are checked before they are read (a regular
 * file by its size, anything else by stopping past the limit), so `/dev/zero` or a huge file is a
 * clear refusal rather than a hang or a memory blow-up.
 */
export const INPUT_LIMITS = {
  /** decode / verify: 84 binary bytes, or their hex (168 digits) with generous room for whitespace. */
  payload: { maxBytes: 4096, what: "a save payload (84 bytes, or its hex text)" },
  /** inspect / extract / push: the biggest plausible pet region image. */
  region: { maxBytes: 16 * 1024 * 1024, what: "any pet region image (16 MiB at most)" },
  /** encode's JSON object. */
  json: { maxBytes: 64 * 1024, what: "a payload's JSON form" },
} as const;

export interface InputLimit {
  maxBytes: number;
  /** What the command expects, for the refusal message ("larger than <what>"). */
  what: string;
}

function tooLarge(path: string, limit: InputLimit, size: number | null): CliError {
  const how = size === null ? "more than " + limit.maxBytes + " bytes" : size + " bytes";
  return new CliError(EXIT_REJECTED, "cannot read " + path + ": " + how + ", larger than " + limit.what + "; nothing read");
}

/** Reads chunks from `stream` until its end or until more than `maxBytes` arrived; never more than that plus one chunk. */
export async function readStreamLimited(stream: AsyncIterable<unknown>, maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk as Uint8Array);
    chunks.push(b);
    total += b.length;
    if (total > maxBytes) break; // leaving the loop ends (destroys) the stream
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** The bytes of a file: a regular file is refused by its size before reading; others stop past the limit. */
async function readFileLimited(path: string, limit: InputLimit): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (e) {
    throw new CliError(EXIT_REJECTED, "cannot read " + path + ": " + reasonOf(e));
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new CliError(EXIT_REJECTED, "cannot read " + path + ": is a directory");
    if (st.isFile() && st.size > limit.maxBytes) throw tooLarge(path, limit, st.size);
    const bytes = await readStreamLimited(chunksOf(handle), limit.maxBytes);
    if (bytes.length > limit.maxBytes) throw tooLarge(path, limit, null);
    return bytes;
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(EXIT_REJECTED, "cannot read " + path + ": " + reasonOf(e));
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The file's contents in 64 KiB reads, from the current position to its end. */
async function* chunksOf(handle: FileHandle): AsyncGenerator<Uint8Array> {
  for (;;) {
    const buffer = new Uint8Array(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}

/** The bytes of FILE, or of stdin when FILE is "-", refused (exit 1) when larger than `limit`. */
export async function readInput(path: string, io: CliIo, limit: InputLimit): Promise<Uint8Array> {
  if (path !== "-") return readFileLimited(path, limit);
  const bytes = await io.readStdin(limit.maxBytes);
  if (bytes.length > limit.maxBytes) throw tooLarge("standard input", limit, null);
  return bytes;
}

/**
 * payloadFromInput with its refusal as a CliError (exit 1). The reading rules themselves live in
 * src/inspect/payloadFile.ts, shared with the web page.
 */
export function payloadFromInput(bytes: Uint8Array, path: string): PayloadInput {
  try {
    return payloadFromBytes(bytes, path);
  } catch (e) {
    if (e instanceof PayloadFileError) throw new CliError(EXIT_REJECTED, e.message);
    throw e;
  }
}

/** readInput, then payloadFromInput: what decode and verify read. */
export async function readPayloadInput(path: string, io: CliIo, limit: InputLimit): Promise<PayloadInput> {
  return payloadFromInput(await readInput(path, io, limit), inputName(path));
}

/** True when `path` exists and is not a regular file or a directory (a device, a FIFO, a socket). */
function isSpecialFile(path: string): boolean {
  try {
    const st = statSync(path);
    return !st.isFile() && !st.isDirectory();
  } catch {
    return false;
  }
}

/**
 * A file that may be a region image (inspect, extract, push), read whole even while another program
 * writes it: under the image's lock, or as the copy the writer hands out between two flash
 * operations (src/host/node/imageLock.ts). A line on stderr says when the copy came from a writer.
 */
export async function readImageInput(path: string, io: CliIo): Promise<Uint8Array> {
  const limit = INPUT_LIMITS.region;
  if (path === "-") return readInput(path, io, limit);
  const r = await readImageConsistent(path, () => readInput(path, io, limit), { maxBytes: limit.maxBytes });
  if (r.note !== null) io.writeStderr(r.note + "\n");
  return r.bytes;
}

/** The input's name in messages: its path, or "standard input" for "-". */
export function inputName(path: string): string {
  return path === "-" ? "standard input" : path;
}

/**
 * Takes the lock on an output file for as long as a command works towards it (`pull` holds it
 * while the board is read, so a second writer is refused at once rather than after the transfer).
 * Another process holding it is a CliError (exit 1) naming that process; nothing is written.
 */
export async function lockOutput(path: string): Promise<HeldLock> {
  const taken = await acquireImageLock(path, { role: "write" });
  if (taken.status === "ok") return taken.lock;
  if (taken.status === "held") {
    throw new CliError(
      EXIT_REJECTED,
      "cannot write " + taken.message + "; nothing was written. Only one program may write a file at a time: quit that one first, or write another file",
    );
  }
  throw new CliError(EXIT_REJECTED, taken.message + "; nothing was written");
}

/**
 * Writes bytes to OUT, or to stdout when OUT is "-". A file is replaced, under its lock (lockOutput),
 * through the desktop's shared writeFileAtomic (temp sibling, fsync, rename, directory fsync; stale temps of earlier crashes
 * removed), so a crash leaves the old file or the new one; its failure message becomes ours. A
 * device or a FIFO (/dev/stdout, a named pipe, /dev/full) is written into, never replaced: renaming
 * a file over /dev/null would be no backup and a broken machine.
 */
export async function writeOutput(path: string, bytes: Uint8Array, io: CliIo): Promise<void> {
  if (path === "-") {
    io.writeStdout(bytes);
    return;
  }
  if (isSpecialFile(path)) {
    try {
      writeFileSync(path, bytes);
    } catch (e) {
      throw new CliError(EXIT_REJECTED, "cannot write " + path + ": " + reasonOf(e));
    }
    return;
  }
  // A file another program writes (npm start on a region image) must not be replaced under it.
  const lock = await lockOutput(path);
  try {
    const written = writeFileAtomic(path, bytes);
    if (written.status !== "ok") throw new CliError(EXIT_REJECTED, written.message);
  } finally {
    lock.release();
  }
}
