/**
 * Desktop saves replace a file atomically (docs/adr/0005-desktop-atomic-file-replace.md): the bytes
 * go to a temporary sibling, which is flushed to disk, renamed over the target, and then the
 * directory is flushed so the rename itself survives a crash. A crash or error at any step leaves
 * either the old file or the new one under the target name, never a torn or missing file.
 *
 * Temporary files are named `.<name>.tmp-<pid>-<n>` beside the target. One left behind by a crash
 * is removed by the next successful save of the same target.
 *
 * The file-system calls are injectable so tests can fail each step in turn.
 */
import * as nodeFsModule from "node:fs";
import { basename, dirname, join } from "node:path";

/** The synchronous fs calls used here (a subset of node:fs). */
export interface AtomicFs {
  openSync(path: string, flags: string, mode?: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  unlinkSync(path: string): void;
  readdirSync(path: string): string[];
}

export const nodeFs: AtomicFs = {
  openSync: (p, f, m) => nodeFsModule.openSync(p, f, m),
  writeSync: (fd, b, o, l, p) => nodeFsModule.writeSync(fd, b, o, l, p),
  fsyncSync: (fd) => nodeFsModule.fsyncSync(fd),
  closeSync: (fd) => nodeFsModule.closeSync(fd),
  renameSync: (a, b) => nodeFsModule.renameSync(a, b),
  unlinkSync: (p) => nodeFsModule.unlinkSync(p),
  readdirSync: (p) => nodeFsModule.readdirSync(p),
};

export type AtomicWriteStatus =
  | "ok"
  | "no-such-directory"
  | "permission-denied"
  | "read-only"
  | "disk-full"
  | "is-a-directory"
  | "io-error";

export type AtomicStep = "open-temp" | "write-temp" | "fsync-temp" | "close-temp" | "rename" | "fsync-dir";

export interface AtomicWriteResult {
  status: AtomicWriteStatus;
  /** One sentence naming the file and what went wrong (or "saved <path>"). */
  message: string;
  /** The system error code (ENOSPC, ...) when there was one. */
  code: string | null;
  /** The step that failed, null on success. */
  step: AtomicStep | null;
  /** Stale temporary files of ours that were removed. */
  removedTemps: number;
}

let counter = 0;

/** True for names this module gives temporary siblings of `name`. */
export function isOurTempName(name: string, target: string): boolean {
  const prefix = "." + target + ".tmp-";
  if (name.length <= prefix.length || name.slice(0, prefix.length) !== prefix) return false;
  return /^[0-9]+-[0-9]+$/.test(name.slice(prefix.length));
}

function errorCode(e: unknown): string | null {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === "string" ? c : null;
}

function describe(step: AtomicStep): string {
  switch (step) {
    case "open-temp":
      return "could not create a temporary file beside it";
    case "write-temp":
      return "could not write the temporary file";
    case "fsync-temp":
      return "could not flush the temporary file to disk";
    case "close-temp":
      return "could not close the temporary file";
    case "rename":
      return "could not move the new file into place";
    case "fsync-dir":
      return "the new file is in place but the directory could not be flushed, so it may not survive a crash";
  }
}

function failure(path: string, step: AtomicStep, e: unknown, removedTemps: number): AtomicWriteResult {
  const code = errorCode(e);
  const dir = dirname(path);
  let status: AtomicWriteStatus = "io-error";
  let why: string;
  if (code === "ENOENT") {
    status = "no-such-directory";
    why = "the directory " + dir + " does not exist";
  } else if (code === "EACCES" || code === "EPERM") {
    status = "permission-denied";
    why = "no permission to write in " + dir;
  } else if (code === "EROFS") {
    status = "read-only";
    why = dir + " is on a read-only file system";
  } else if (code === "ENOSPC" || code === "EDQUOT") {
    status = "disk-full";
    why = "the disk is full";
  } else if (code === "EISDIR") {
    status = "is-a-directory";
    why = path + " is a directory";
  } else {
    why = describe(step) + (code !== null ? " (" + code + ")" : e instanceof Error ? " (" + e.message + ")" : "");
  }
  const kept = step === "fsync-dir" ? "" : "; the previous file, if any, is unchanged";
  return {
    status,
    message: "cannot save " + path + ": " + why + kept,
    code,
    step,
    removedTemps,
  };
}

/** Removes temporary siblings of `path` left by earlier crashes; returns how many. Never throws. */
export function removeStaleTemps(path: string, fs: AtomicFs = nodeFs): number {
  const dir = dirname(path);
  const name = basename(path);
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const n of names) {
    if (!isOurTempName(n, name)) continue;
    try {
      fs.unlinkSync(join(dir, n));
      removed++;
    } catch {
      // somebody else removed it, or we may not: the next save tries again
    }
  }
  return removed;
}

/** Replaces `path` with `bytes` so that a crash at any moment leaves the old or the new file. */
export function writeFileAtomic(path: string, bytes: Uint8Array, fs: AtomicFs = nodeFs): AtomicWriteResult {
  const dir = dirname(path);
  counter++;
  const temp = join(dir, "." + basename(path) + ".tmp-" + process.pid + "-" + counter);
  let fd = -1;
  let step: AtomicStep = "open-temp";
  try {
    fd = fs.openSync(temp, "wx", 0o666);
    step = "write-temp";
    let done = 0;
    while (done < bytes.length) {
      const n = fs.writeSync(fd, bytes, done, bytes.length - done, done);
      if (!(n > 0)) throw Object.assign(new Error("write made no progress"), { code: "EIO" });
      done += n;
    }
    step = "fsync-temp";
    fs.fsyncSync(fd);
    step = "close-temp";
    const closing = fd;
    fd = -1;
    fs.closeSync(closing);
    step = "rename";
    fs.renameSync(temp, path);
  } catch (e) {
    if (fd >= 0) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failing; the temp is removed below or by the next save
      }
    }
    try {
      fs.unlinkSync(temp);
    } catch {
      // left for the next successful save to remove
    }
    return failure(path, step, e, 0);
  }
  // The rename is done: the target now holds the new bytes. Flush the directory entry.
  try {
    const dfd = fs.openSync(dir, "r");
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch (e) {
    const code = errorCode(e);
    // Some platforms cannot open or flush a directory; there is nothing more to do there.
    if (code !== "EISDIR" && code !== "EINVAL" && code !== "ENOTSUP" && code !== "EPERM" && code !== "EBADF") {
      return failure(path, "fsync-dir", e, removeStaleTemps(path, fs));
    }
  }
  const removedTemps = removeStaleTemps(path, fs);
  return { status: "ok", message: "saved " + path, code: null, step: null, removedTemps };
}
