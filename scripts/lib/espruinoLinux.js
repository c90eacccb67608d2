/**
 * Driving Espruino's Linux build from Node: start it in a directory (its flash lives there, in
 * espruino.flash), talk to its telnet console (fixed port 2323), kill it like a power cut.
 *
 * Facts this relies on (docs/firmware.md, "Espruino for Linux"):
 * - `espruino --telnet` serves the console on 127.0.0.1:2323 while a client is connected; otherwise the
 *   console is its standard output. With no script argument it runs Storage ".bootcde" at start.
 * - Its standard input must be an open pipe with nothing in it: at end-of-file the input thread
 *   floods the console and the (assert-enabled) build stops. We keep the pipe open and never write.
 * - If port 2323 is taken, the telnet server fails silently, so we refuse to start when it answers.
 * - SIGKILL is a faithful power cut for the flash file (writes go straight to the file).
 *
 * Because the port is fixed, every user of this module on the machine (test files running in
 * parallel, the bench, other engineers' tests) takes a lock file before starting an interpreter and
 * gives it back when that interpreter is killed (or at process exit). A lock whose owner process is
 * gone is stale and taken over. A kill-and-restart may therefore wait for another user in between;
 * each user has its own directory, so nothing is mixed up.
 */
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { openSync, closeSync, writeSync, readFileSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

export const TELNET_PORT = 2323;
export const TELNET_HOST = "127.0.0.1";

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Resolves true if something accepts connections on the port. */
export function portAnswers(port = TELNET_PORT, host = TELNET_HOST) {
  return new Promise((resolve) => {
    const s = connect(port, host);
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

export const LOCK_FILE = join(tmpdir(), "espruino-telnet-" + TELNET_PORT + ".lock");
let heldToken = null;
let exitHookInstalled = false;

function ownerAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

function tryLock(token) {
  try {
    const fd = openSync(LOCK_FILE, "wx");
    writeSync(fd, JSON.stringify({ pid: process.pid, token }));
    closeSync(fd);
    return true;
  } catch (e) {
    if (e.code !== "EEXIST") throw e;
  }
  let owner = null;
  try {
    owner = JSON.parse(readFileSync(LOCK_FILE, "utf8"));
  } catch {
    return false; // being written right now, or just removed: try again later
  }
  if (owner && typeof owner.pid === "number" && !ownerAlive(owner.pid)) {
    try {
      unlinkSync(LOCK_FILE);
    } catch {
      // someone else removed it first
    }
  }
  return false;
}

/** Takes the machine-wide lock on port 2323 for this module instance (waits for other users). */
export async function acquireTelnetPort(timeoutMs = 180000) {
  if (heldToken) return;
  const token = process.pid + "-" + randomBytes(6).toString("hex");
  const end = Date.now() + timeoutMs;
  while (!tryLock(token)) {
    if (Date.now() > end) throw new Error("port " + TELNET_PORT + " is locked by another user (" + LOCK_FILE + ") for more than " + timeoutMs + " ms");
    await sleep(200);
  }
  heldToken = token;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", releaseTelnetPort);
  }
}

/** Gives the port back (kill() does this; exported for scripts that stop an interpreter otherwise). */
export function releaseTelnetPort() {
  if (!heldToken) return;
  try {
    const owner = JSON.parse(readFileSync(LOCK_FILE, "utf8"));
    if (owner.token === heldToken) unlinkSync(LOCK_FILE);
  } catch {
    // already gone
  }
  heldToken = null;
}

/**
 * Starts the interpreter in `dir`. Returns { child, output(), waitFor(re, ms), kill() }.
 * Takes the port lock first, then waits while anything still answers on port 2323 (another
 * interpreter would receive our commands); gives up after `portWaitMs`.
 */
export async function startEspruino(binary, dir, { readyTimeoutMs = 10000, portWaitMs = 180000 } = {}) {
  await acquireTelnetPort(portWaitMs);
  // Someone outside this module (a manual run) may still hold the port: wait for it, then give up.
  const portEnd = Date.now() + portWaitMs;
  while (await portAnswers()) {
    if (Date.now() > portEnd) {
      releaseTelnetPort();
      throw new Error("port " + TELNET_PORT + " is already in use (another espruino --telnet running?); stop it first");
    }
    await sleep(250);
  }
  const child = spawn(binary, ["--telnet"], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let exited = null;
  child.stdout.on("data", (d) => (out += d.toString("latin1")));
  child.stderr.on("data", (d) => (out += d.toString("latin1")));
  child.on("exit", (code, signal) => (exited = { code, signal }));
  child.on("error", (e) => (exited = { code: null, signal: null, error: e.message }));

  const handle = {
    child,
    output: () => out,
    exited: () => exited,
    /** Waits until the process output matches `re`; returns the match. */
    async waitFor(re, ms = 10000) {
      const end = Date.now() + ms;
      for (;;) {
        const m = out.match(re);
        if (m) return m;
        if (exited) throw new Error("espruino exited (" + JSON.stringify(exited) + ") before printing " + re + ":\n" + out);
        if (Date.now() > end) throw new Error("espruino did not print " + re + " within " + ms + " ms:\n" + out);
        await sleep(50);
      }
    },
    /** SIGKILL and wait for the exit (a power cut), then give the port back. */
    async kill() {
      if (!exited) {
        const done = new Promise((r) => child.once("exit", r));
        child.kill("SIGKILL");
        await done;
      }
      child.stdin.destroy();
      releaseTelnetPort();
    },
  };
  const end = Date.now() + readyTimeoutMs;
  while (!(await portAnswers())) {
    if (exited) {
      releaseTelnetPort();
      throw new Error("espruino exited at start (" + JSON.stringify(exited) + "):\n" + out);
    }
    if (Date.now() > end) {
      await handle.kill();
      throw new Error("espruino's telnet port did not open within " + readyTimeoutMs + " ms:\n" + out);
    }
    await sleep(50);
  }
  return handle;
}

/**
 * A telnet console session. `evaluate(expr)` runs one expression and returns its JSON-decoded value
 * (or throws with the interpreter's error text). Lines start with DLE (0x10), which tells Espruino
 * not to echo them, and results come between markers so prompts and status lines do not matter.
 */
export async function openConsole({ timeoutMs = 10000 } = {}) {
  const socket = connect(TELNET_PORT, TELNET_HOST);
  await new Promise((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let buffer = "";
  socket.on("data", (d) => (buffer += d.toString("latin1")));
  let counter = 0;

  async function evaluate(expr, ms = timeoutMs) {
    const id = ++counter;
    const ok = "<<OK" + id + ">>";
    const bad = "<<ERR" + id + ">>";
    const end = "<<END" + id + ">>";
    const line =
      "\x10try{print(" + JSON.stringify(ok) + "+JSON.stringify(" + expr + ")+" + JSON.stringify(end) + ")}" +
      "catch(e){print(" + JSON.stringify(bad) + "+e+" + JSON.stringify(end) + ")}\n";
    socket.write(line);
    const deadline = Date.now() + ms;
    for (;;) {
      const iOk = buffer.indexOf(ok);
      const iBad = buffer.indexOf(bad);
      const iEnd = buffer.indexOf(end);
      if (iEnd >= 0 && (iOk >= 0 || iBad >= 0)) {
        const isOk = iOk >= 0;
        const text = buffer.slice((isOk ? iOk + ok.length : iBad + bad.length), iEnd);
        buffer = buffer.slice(iEnd + end.length);
        if (!isOk) throw new Error("espruino: " + expr + " threw " + text);
        return text === "" || text === "undefined" ? undefined : JSON.parse(text);
      }
      if (Date.now() > deadline) throw new Error("no answer from espruino to " + expr + " within " + ms + " ms; got:\n" + buffer);
      await sleep(20);
    }
  }
  return {
    evaluate,
    /** Everything printed that evaluate() has not consumed (status lines, errors). */
    pending: () => buffer,
    close: () =>
      new Promise((resolve) => {
        socket.end(() => resolve());
        setTimeout(resolve, 500);
      }),
  };
}
