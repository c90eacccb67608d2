/**
 * The other side of the image lock (imageLock.ts): a process that found the lock taken connects to
 * the holder's socket, reads the line in which the holder says who it is, and may ask it for a copy
 * of the image ("snapshot", answered with a JSON line giving the size, then the bytes).
 */
import { connect, type Socket } from "node:net";
import type { LockHolder } from "./imageLock";

/** How long a holder may take to say who it is. */
export const ANSWER_MS = 2000;

function errorCode(e: unknown): string {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === "string" ? c : e instanceof Error ? e.message : String(e);
}

/** Reads one line from a socket: the line and what came after it, "closed", or "timeout". */
function readLine(socket: Socket, ms: number): Promise<{ line: string; rest: Buffer } | "closed" | "timeout"> {
  return new Promise((done) => {
    let buf = Buffer.alloc(0);
    const finish = (v: { line: string; rest: Buffer } | "closed" | "timeout"): void => {
      clearTimeout(timer);
      socket.removeListener("data", onData);
      socket.removeListener("close", onClose);
      socket.removeListener("error", onClose);
      done(v);
    };
    const onData = (d: Buffer): void => {
      buf = Buffer.concat([buf, d]);
      const nl = buf.indexOf(10);
      if (nl >= 0) finish({ line: buf.subarray(0, nl).toString("utf8"), rest: buf.subarray(nl + 1) });
    };
    const onClose = (): void => finish("closed");
    const timer = setTimeout(() => finish("timeout"), ms);
    socket.on("data", onData);
    socket.once("close", onClose);
    socket.once("error", onClose);
  });
}

function parseHolder(line: string): LockHolder | null {
  try {
    const o = JSON.parse(line) as Partial<LockHolder>;
    if (typeof o.pid !== "number" || typeof o.command !== "string" || (o.role !== "write" && o.role !== "read")) return null;
    return { pid: o.pid, command: o.command, role: o.role, since: String(o.since), snapshot: o.snapshot === true };
  } catch {
    return null;
  }
}

export type Asked =
  | { kind: "holder"; holder: LockHolder; socket: Socket; rest: Buffer }
  /** Nobody listens (a socket file left by a dead process, or the holder just left). */
  | { kind: "gone" }
  /** Something listens but said nothing we understand in time. */
  | { kind: "silent" };

/** Connects to the holder of `address` and reads who it is; the socket stays open for a snapshot request. */
export function askHolder(address: string): Promise<Asked> {
  return new Promise((done) => {
    const socket = connect(address);
    const fail = (e: unknown): void => {
      socket.destroy();
      const c = errorCode(e);
      done(c === "ECONNREFUSED" || c === "ENOENT" ? { kind: "gone" } : { kind: "silent" });
    };
    socket.once("error", fail);
    socket.once("connect", () => {
      socket.removeListener("error", fail);
      socket.on("error", () => undefined);
      void readLine(socket, ANSWER_MS).then((r) => {
        // Closed before a word: the holder was on its way out (its process exiting). Try again.
        if (r === "closed") {
          socket.destroy();
          done({ kind: "gone" });
          return;
        }
        const holder = r === "timeout" ? null : parseHolder(r.line);
        if (r === "timeout" || holder === null) {
          socket.destroy();
          done({ kind: "silent" });
        } else done({ kind: "holder", holder, socket, rest: r.rest });
      });
    });
  });
}

/** Asks the holder of `address` for its snapshot; null if it has none or does not deliver. */
export async function snapshotFrom(address: string, maxBytes: number): Promise<Uint8Array | null> {
  const asked = await askHolder(address);
  if (asked.kind !== "holder") return null;
  const { socket } = asked;
  if (!asked.holder.snapshot) {
    socket.destroy();
    return null;
  }
  socket.write("snapshot\n");
  return new Promise((done) => {
    let buf: Buffer = Buffer.from(asked.rest);
    let size = -1;
    const timer = setTimeout(() => finish(null), ANSWER_MS * 5);
    function finish(v: Uint8Array | null): void {
      clearTimeout(timer);
      socket.destroy();
      done(v);
    }
    const take = (): void => {
      if (size < 0) {
        const nl = buf.indexOf(10);
        if (nl < 0) return;
        let head: { bytes?: unknown };
        try {
          head = JSON.parse(buf.subarray(0, nl).toString("utf8")) as { bytes?: unknown };
        } catch {
          finish(null);
          return;
        }
        if (typeof head.bytes !== "number" || head.bytes > maxBytes) {
          finish(null);
          return;
        }
        size = head.bytes;
        buf = buf.subarray(nl + 1);
      }
      if (buf.length >= size) finish(new Uint8Array(buf.subarray(0, size)));
    };
    socket.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      take();
    });
    // Everything that arrived was taken above; a close before the whole copy means there is none.
    socket.once("close", () => finish(null));
    take();
  });
}
