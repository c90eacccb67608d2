/**
 * One writer per region image (docs/adr/0008-one-writer-per-image.md): `npm start` and every
 * `pet-save` command that writes a file hold an exclusive lock on that file's path for as long as
 * they write, and a command that reads an image gets a consistent copy of it.
 *
 * The lock is a listening socket whose name is derived from the file's real path: on Linux a name
 * in the abstract namespace ("\0espruino-pet/image/<hash>"), on Windows a named pipe, elsewhere a
 * socket file in the temporary directory. Only one process can listen on a name, the check and the
 * taking are one system call (listen), and the kernel closes the socket when its process dies, so a
 * `kill -9` never leaves a lock behind (a socket file can be left behind, but nobody answers on it;
 * it is recognised as stale and taken over). Whoever finds the name taken connects to it and the
 * holder answers one line of JSON saying who it is: process id, command, whether it writes or
 * reads, since when, and whether it can hand out a copy of the image (the asking side is
 * imageLockClient.ts). A holder that simulates the flash (the desktop) answers "snapshot" with the
 * image as it stands between two flash operations, which is how `pet-save inspect` reads an image
 * while `npm start` runs on it.
 *
 * Readers take the lock too, for the few milliseconds of their read, so that no writer starts in the
 * middle of it; a writer (or reader) that finds a reader holding it waits for it, up to a few
 * seconds. The lock is re-entrant within one process (`pet-save pull` holds it for the whole pull,
 * and its atomic write of the result takes it again).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { ANSWER_MS, askHolder, snapshotFrom } from "./imageLockClient";

/** How the lock's name lives in the system. */
export type LockKind = "abstract" | "pipe" | "file";
export type LockRole = "write" | "read";

/** What a holder says about itself. */
export interface LockHolder {
  pid: number;
  /** The command line, as a person would type it ("npm start --image pet.bin"). */
  command: string;
  role: LockRole;
  /** When the lock was taken (ISO 8601). */
  since: string;
  /** True when the holder answers "snapshot" with a consistent copy of the image. */
  snapshot: boolean;
}

export interface HeldLock {
  /** The real path the lock is keyed on. */
  key: string;
  holder: LockHolder;
  /** Hands out the image as it stands now (the desktop: its simulated flash); turns `snapshot` on. */
  setSnapshot(provider: () => Uint8Array): void;
  /** Gives the lock back (a nested hold only drops its count). Safe to call twice. */
  release(): void;
}

export type AcquireResult =
  | { status: "ok"; lock: HeldLock }
  /** Another process holds it: `holder` is what it said (null when it did not answer). */
  | { status: "held"; holder: LockHolder | null; message: string }
  | { status: "error"; message: string };

export interface AcquireOptions {
  role: LockRole;
  /** The holder's command line; default: this process's, as a person would type it. */
  command?: string;
  /** How long to wait while a reader holds the lock (default 5000 ms). A writer is never waited for. */
  waitForReadersMs?: number;
  /** The lock's kind; default by platform (tests use "file" on Linux too). */
  kind?: LockKind;
  /** Directory of socket files for kind "file" (default <tmpdir>/espruino-pet-locks). */
  lockDir?: string;
}

/** Pause between two tries while a reader holds the lock. */
const RETRY_MS = 25;

export function defaultLockKind(platform = process.platform): LockKind {
  if (platform === "linux") return "abstract";
  if (platform === "win32") return "pipe";
  return "file";
}

/**
 * The path a lock is keyed on: the file's real path (symbolic links resolved), or for a file not
 * there yet its directory's real path and its name. Case is folded where file names ignore it.
 */
export function lockKey(path: string): string {
  const abs = resolve(path);
  let real: string;
  try {
    real = fs.realpathSync.native(abs);
  } catch {
    try {
      real = join(fs.realpathSync.native(dirname(abs)), basename(abs));
    } catch {
      real = abs;
    }
  }
  return process.platform === "win32" ? real.toLowerCase() : real;
}

/**
 * The socket name for a key. 80 bits of the path's hash: a socket file's whole path must fit in
 * 104 bytes on macOS, whose temporary directory alone takes about 50.
 */
export function lockAddress(key: string, kind: LockKind, lockDir = join(tmpdir(), "espruino-pet-locks")): string {
  const hash = createHash("sha256").update(key).digest("hex").slice(0, 20);
  if (kind === "abstract") return "\0espruino-pet/image/" + hash;
  if (kind === "pipe") return "\\\\.\\pipe\\espruino-pet-image-" + hash;
  return join(lockDir, hash + ".sock");
}

function quoteArg(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : "'" + a.replace(/'/g, "'\\''") + "'";
}

/** This process's command line as a person would have typed it ("npm start --image x.bin"). */
export function describeThisProcess(argv: string[] = process.argv): string {
  const script = argv[1] === undefined ? "" : argv[1].replace(/\\/g, "/");
  const args = argv.slice(2).map(quoteArg);
  const withArgs = (head: string, sep: string): string => (args.length > 0 ? head + sep + args.join(" ") : head);
  if (/(^|\/)scripts\/start\.js$/.test(script)) return withArgs("npm start", " -- ");
  if (/(^|\/)bin\/pet-save(\.js)?$/.test(script)) return withArgs("pet-save", " ");
  return withArgs("node " + (script === "" ? "" : quoteArg(relative(process.cwd(), script) || script)), " ");
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function errorCode(e: unknown): string {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === "string" ? c : e instanceof Error ? e.message : String(e);
}

/** Listens on `address`: null when taken, or the error code. */
function listen(address: string): Promise<{ server: Server | null; code: string | null }> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", (e) => done({ server: null, code: errorCode(e) }));
    server.listen(address, () => {
      server.removeAllListeners("error");
      server.on("error", () => undefined);
      done({ server, code: null });
    });
  });
}

/** Locks this process holds, by key: a second acquire of the same path nests. */
const heldHere = new Map<string, { lock: HeldLock; count: number }>();

/** The sentence for a refusal: who holds `path`, and what it is doing. */
export function describeHolder(path: string, holder: LockHolder | null): string {
  if (holder === null) return path + " is in use by another process, which did not say who it is (no answer within " + ANSWER_MS / 1000 + " s)";
  const since = new Date(holder.since);
  const when = Number.isNaN(since.getTime()) ? "" : " since " + since.toTimeString().slice(0, 8);
  return path + " is in use by process " + holder.pid + " (" + holder.command + "), which is " + (holder.role === "write" ? "writing" : "reading") + " it" + when;
}

/**
 * Takes the lock on `path` (the file need not exist). Never throws: "held" names the holder,
 * "error" says why the lock could not be taken at all.
 */
export async function acquireImageLock(path: string, o: AcquireOptions): Promise<AcquireResult> {
  const key = lockKey(path);
  const mine = heldHere.get(key);
  if (mine !== undefined) {
    mine.count++;
    let released = false;
    return {
      status: "ok",
      lock: {
        key,
        holder: mine.lock.holder,
        setSnapshot: (p) => mine.lock.setSnapshot(p),
        release: () => {
          if (released) return;
          released = true;
          mine.lock.release();
        },
      },
    };
  }
  const kind = o.kind ?? defaultLockKind();
  const lockDir = o.lockDir ?? join(tmpdir(), "espruino-pet-locks");
  const address = lockAddress(key, kind, lockDir);
  if (kind === "file") {
    try {
      fs.mkdirSync(lockDir, { recursive: true, mode: 0o777 });
    } catch (e) {
      return { status: "error", message: "cannot make the lock directory " + lockDir + " (" + errorCode(e) + ")" };
    }
  }
  const deadline = Date.now() + (o.waitForReadersMs ?? 5000);
  const holder: LockHolder = { pid: process.pid, command: o.command ?? describeThisProcess(), role: o.role, since: new Date().toISOString(), snapshot: false };
  for (let staleTries = 0; ; ) {
    const l = await listen(address);
    if (l.server !== null) return { status: "ok", lock: holdWith(l.server, key, address, kind, holder) };
    if (l.code !== "EADDRINUSE") return { status: "error", message: "cannot take the lock on " + path + " (" + l.code + " on " + address.replace("\0", "@") + ")" };
    const asked = await askHolder(address);
    if (asked.kind === "holder") asked.socket.destroy();
    if (asked.kind === "gone") {
      // A socket file nobody listens on: its process died. Take it over (a few times at most: another
      // process may be doing the same). In the abstract namespace the holder simply just left.
      if (++staleTries > 20) return { status: "error", message: "cannot take the lock on " + path + ": " + address + " keeps changing hands" };
      if (kind === "file") {
        try {
          fs.unlinkSync(address);
        } catch {
          // someone else removed it first
        }
      }
      continue;
    }
    const who = asked.kind === "holder" ? asked.holder : null;
    if (who !== null && who.role === "read" && Date.now() < deadline) {
      await sleep(RETRY_MS);
      continue;
    }
    return { status: "held", holder: who, message: describeHolder(path, who) };
  }
}

function holdWith(server: Server, key: string, address: string, kind: LockKind, holder: LockHolder): HeldLock {
  let provider: (() => Uint8Array) | null = null;
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    socket.unref();
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    socket.write(JSON.stringify(holder) + "\n");
    let asked = "";
    socket.on("data", (d) => {
      asked += d.toString("utf8");
      if (asked.indexOf("\n") < 0) return;
      if (asked.trim() === "snapshot" && provider !== null) {
        let bytes: Uint8Array;
        try {
          bytes = provider();
        } catch (e) {
          socket.end(JSON.stringify({ error: errorCode(e) }) + "\n");
          return;
        }
        socket.write(JSON.stringify({ bytes: bytes.length }) + "\n");
        socket.end(bytes);
      } else socket.end(JSON.stringify({ error: "no snapshot" }) + "\n");
    });
  });
  // The lock must not keep a process alive that is otherwise done; the kernel frees it at exit.
  server.unref();
  const entry = { lock: null as unknown as HeldLock, count: 1 };
  const lock: HeldLock = {
    key,
    holder,
    setSnapshot(p) {
      provider = p;
      holder.snapshot = true;
    },
    release() {
      if (entry.count <= 0) return;
      if (--entry.count > 0) return;
      heldHere.delete(key);
      for (const s of sockets) s.destroy();
      server.close();
      // A socket file would otherwise stay behind until the next taker finds it stale.
      if (kind === "file") {
        try {
          fs.unlinkSync(address);
        } catch {
          // already gone
        }
      }
    },
  };
  entry.lock = lock;
  heldHere.set(key, entry);
  return lock;
}

export interface ConsistentRead {
  bytes: Uint8Array;
  /** Set when the bytes came from the process running on the image (a line to tell the person). */
  note: string | null;
}

/**
 * Reads an image so that no write is seen half done: under the lock (a reader's hold of a few
 * milliseconds), or, while a writer holds it, as the copy the writer hands out between two flash
 * operations. A writer that hands out no copy replaces the file atomically (pet-save's outputs), so
 * the file itself is whole. `read` is the file read (for the limits of the caller); it throws what
 * the caller's read throws.
 */
export async function readImageConsistent(
  path: string,
  read: () => Promise<Uint8Array>,
  o: { maxBytes: number; kind?: LockKind; lockDir?: string; command?: string },
): Promise<ConsistentRead> {
  const taken = await acquireImageLock(path, { role: "read", kind: o.kind, lockDir: o.lockDir, command: o.command });
  if (taken.status === "ok") {
    try {
      return { bytes: await read(), note: null };
    } finally {
      taken.lock.release();
    }
  }
  if (taken.status === "held" && taken.holder !== null && taken.holder.snapshot) {
    const address = lockAddress(lockKey(path), o.kind ?? defaultLockKind(), o.lockDir);
    const copy = await snapshotFrom(address, o.maxBytes);
    if (copy !== null) {
      return { bytes: copy, note: "read " + path + " from process " + taken.holder.pid + " (" + taken.holder.command + "), which is running on it" };
    }
  }
  return { bytes: await read(), note: taken.status === "held" ? taken.message + "; read the file as it is" : null };
}
