/**
 * What every command-line entry of the project (pet-save, npm start, build, web, bench) does at the
 * edges of the process, the way a person who lives in a terminal expects:
 *
 * - `--version` prints "<program> <version>" (the package's version);
 * - a reader that goes away (`npm start | head`, `pet-save inspect x | head`: EPIPE on stdout) ends
 *   the program quietly, as if it had been told to stop; a program that must tidy up first (npm
 *   start saves the pet) passes `onClosed`;
 * - any other failure to write stdout (a full disk, `> /dev/full`; an I/O error) is one line on
 *   stderr naming the cause and what to do, and status 1, never an "Unhandled 'error' event" dump;
 * - an error nobody caught is one line too (PET_DEBUG=1 adds the stack, for a bug report).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_JSON = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "package.json");

/** "<program> <version>", e.g. "pet-save 0.1.0". */
export function versionLine(program) {
  let version = "unknown";
  try {
    version = String(JSON.parse(readFileSync(PACKAGE_JSON, "utf8")).version);
  } catch {
    // a package without its package.json: say so rather than fail
  }
  return program + " " + version;
}

/** True when `args` ask for the version (`--version` anywhere before a `--`). */
export function wantsVersion(args) {
  for (const a of args) {
    if (a === "--") return false;
    if (a === "--version") return true;
  }
  return false;
}

/** A system error as a short cause and, where there is one, what to do about it. */
export function systemErrorText(e) {
  const code = e && typeof e === "object" && typeof e.code === "string" ? e.code : "";
  switch (code) {
    case "ENOSPC":
      return "no space left on the device (ENOSPC); free some space or write somewhere else";
    case "EDQUOT":
      return "disk quota exceeded (EDQUOT); free some space or write somewhere else";
    case "EIO":
      return "input/output error (EIO); check the disk or the terminal";
    case "EACCES":
    case "EPERM":
      return "permission denied (" + code + ")";
    case "EROFS":
      return "read-only file system (EROFS); write somewhere else";
    case "EFBIG":
      return "file too large (EFBIG)";
    default:
      return (e instanceof Error ? e.message : String(e)) || code || "unknown error";
  }
}

/** Ends the process with one line on stderr and status 1 (stderr itself may be gone: then only the status). */
export function failWith(program, text) {
  try {
    process.stderr.write(program + ": " + text + "\n");
  } catch {
    // nowhere to say it
  }
  process.exit(1);
}

/** True for the errors of a reader that has gone away. */
function readerGone(e) {
  return e && (e.code === "EPIPE" || e.code === "ECONNRESET" || e.code === "ERR_STREAM_DESTROYED");
}

/**
 * Handles errors on stdout and stderr (see the file's comment). `onClosed` runs instead of a quiet
 * exit(0) when the reader of stdout goes away; it must end the process itself.
 */
export function guardOutput(program, { onClosed } = {}) {
  let closed = false;
  process.stdout.on("error", (e) => {
    if (readerGone(e)) {
      if (closed) return;
      closed = true;
      if (onClosed) onClosed();
      else process.exit(0);
      return;
    }
    failWith(program, "cannot write to standard output: " + systemErrorText(e));
  });
  // Nothing useful can be said when stderr fails; the status still tells.
  process.stderr.on("error", () => undefined);
}

/** The last resort for an error nobody caught: one line and status 1 (PET_DEBUG=1: the stack too). */
export function failUnexpected(program, e) {
  if (process.env.PET_DEBUG && e instanceof Error && e.stack) {
    try {
      process.stderr.write(e.stack + "\n");
    } catch {
      // nowhere to say it
    }
  }
  const hint = process.env.PET_DEBUG ? "" : " (PET_DEBUG=1 shows where)";
  failWith(program, (readerGone(e) ? "output closed" : systemErrorText(e)) + hint);
}
