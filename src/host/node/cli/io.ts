/**
 * What a `pet-save` command may touch: its arguments, stdin/stdout/stderr through CliIo (so tests run
 * commands in-process against memory streams), and files. User mistakes are thrown as CliError with
 * an exit code and a one-line message; the dispatcher prints them without a stack trace.
 */
import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "../atomicFile";

export interface CliIo {
  /** All of standard input. */
  readStdin(): Promise<Uint8Array>;
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
  return e instanceof Error ? e.message : String(e);
}

/** The bytes of FILE, or of stdin when FILE is "-". */
export async function readInput(path: string, io: CliIo): Promise<Uint8Array> {
  if (path === "-") return io.readStdin();
  try {
    return new Uint8Array(await readFile(path));
  } catch (e) {
    throw new CliError(EXIT_REJECTED, "cannot read " + path + ": " + reasonOf(e));
  }
}

/**
 * Writes bytes to OUT, or to stdout when OUT is "-". A file is replaced through the desktop's shared
 * writeFileAtomic (temp sibling, fsync, rename, directory fsync; stale temps of earlier crashes
 * removed), so a crash leaves the old file or the new one; its failure message becomes ours.
 */
export async function writeOutput(path: string, bytes: Uint8Array, io: CliIo): Promise<void> {
  if (path === "-") {
    io.writeStdout(bytes);
    return;
  }
  const written = writeFileAtomic(path, bytes);
  if (written.status !== "ok") throw new CliError(EXIT_REJECTED, written.message);
}
