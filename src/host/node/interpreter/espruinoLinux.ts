/**
 * Driving Espruino's Linux build from Node: start it in a directory (its flash lives there, in
 * espruino.flash), talk to its telnet console (in the console protocol, src/boards/consoleProtocol.ts,
 * over the one Node transport, ../serial/boardConsole.ts), kill it like a power cut.
 *
 * Facts this relies on (docs/firmware.md, "Espruino for Linux"):
 * - `espruino --telnet` serves the console on port 2323 while a client is connected; otherwise the
 *   console is its standard output. With no script argument it runs Storage ".bootcde" at start.
 * - Its standard input must be an open pipe with nothing in it: at end-of-file the input thread
 *   floods the console and the (assert-enabled) build stops. We keep the pipe open and never write.
 * - SIGKILL is a faithful power cut for the flash file (writes go straight to the file).
 *
 * Port 2323 is fixed in the interpreter. So that several interpreters can run at once (test files in
 * parallel, the bench beside them), each is started with espruinoShim.c (beside this file) preloaded, which
 * moves its console to a free port on 127.0.0.1 and tells us which (`handle.port`); the shim is
 * compiled with `cc` once and kept in node_modules/.cache. Where there is no C compiler, every
 * interpreter gets port 2323 and the users of this module on the machine take turns through a lock
 * file (taken before the start, given back at the kill or at process exit; a lock whose owner
 * process is gone is taken over).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { openSync, closeSync, writeSync, readFileSync, unlinkSync, existsSync, mkdirSync, renameSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { evaluate, evaluation, evaluationId, parseEvaluation } from "../../../boards/consoleProtocol";
import { packageRoot } from "../packageRoot";
import { openBoardConsole } from "../serial/boardConsole";

export const TELNET_PORT = 2323;
export const TELNET_HOST = "127.0.0.1";

/** A running interpreter. */
export interface EspruinoProcess {
  child: ChildProcess;
  /** The telnet console's port on 127.0.0.1 (its own with the shim; 2323 without). */
  port: number;
  /** Everything it printed so far. */
  output(): string;
  /** How it ended, or null while it runs. */
  exited(): { code: number | null; signal: string | null; error?: string } | null;
  /** Waits until the process output matches `re` (its stdout, its stderr, or the two as they came); returns the match. */
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** SIGKILL and wait for the exit (a power cut), then give the port back. */
  kill(): Promise<void>;
}

/** A telnet console session (openConsole). */
export interface EspruinoConsole {
  /** Runs one expression and answers its JSON-decoded value (or throws with the interpreter's error text). */
  evaluate(expr: string, ms?: number): Promise<unknown>;
  close(): Promise<void>;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Resolves true if something accepts connections on the port. */
export function portAnswers(port = TELNET_PORT, host = TELNET_HOST): Promise<boolean> {
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
let heldToken: string | null = null;
let exitHookInstalled = false;

function ownerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
}

function tryLock(token: string): boolean {
  try {
    const fd = openSync(LOCK_FILE, "wx");
    writeSync(fd, JSON.stringify({ pid: process.pid, token }));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code !== "EEXIST") throw e;
  }
  let owner: { pid?: unknown } | null = null;
  try {
    owner = JSON.parse(readFileSync(LOCK_FILE, "utf8")) as { pid?: unknown };
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
export async function acquireTelnetPort(timeoutMs = 180000): Promise<void> {
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
export function releaseTelnetPort(): void {
  if (!heldToken) return;
  try {
    const owner = JSON.parse(readFileSync(LOCK_FILE, "utf8")) as { token?: unknown };
    if (owner.token === heldToken) unlinkSync(LOCK_FILE);
  } catch {
    // already gone
  }
  heldToken = null;
}

/** The shim's C source, found from the package's root (this module also runs compiled into dist/host/). */
function shimSource(): string {
  return join(packageRoot(), "src", "host", "node", "interpreter", "espruinoShim.c");
}
let shimPromise: Promise<string | null> | null = null;

/**
 * The compiled shim's path, or null when it cannot be built here (no `cc`, or env
 * PET_ESPRUINO_SHIM=0). Built once per source text into node_modules/.cache/espruino-pet/shim,
 * through a temporary name and a rename, so parallel first users never load half a library.
 */
export function espruinoShim(): Promise<string | null> {
  if (!shimPromise) shimPromise = buildShim();
  return shimPromise;
}

async function buildShim(): Promise<string | null> {
  if (process.env.PET_ESPRUINO_SHIM === "0") return null;
  const sourceFile = shimSource();
  let source: Buffer;
  try {
    source = readFileSync(sourceFile);
  } catch {
    return null;
  }
  const dir = join(packageRoot(), "node_modules", ".cache", "espruino-pet", "shim");
  const out = join(dir, createHash("sha256").update(source).digest("hex").slice(0, 16) + ".so");
  if (existsSync(out)) return out;
  const tmp = out + "." + process.pid + "." + randomBytes(4).toString("hex") + ".tmp";
  try {
    mkdirSync(dir, { recursive: true });
    await new Promise<void>((done, fail) =>
      execFile("cc", ["-shared", "-fPIC", "-O2", "-o", tmp, sourceFile, "-ldl"], { timeout: 60_000 }, (e) => (e ? fail(e) : done())),
    );
    renameSync(tmp, out);
    return out;
  } catch {
    rmSync(tmp, { force: true });
    return null;
  }
}

/**
 * Starts the interpreter in `dir`. Returns { child, port, output(), exited(), waitFor(re, ms), kill() }.
 * `env` adds variables to its environment (PET_FLASH_FAULTS for the shim's flash faults).
 * With the shim the console gets a port of its own at once; without it the start takes the port lock
 * and waits while anything still answers on port 2323 (another interpreter would receive our
 * commands), giving up after `portWaitMs`.
 */
export async function startEspruino(
  binary: string,
  dir: string,
  { readyTimeoutMs = 10000, portWaitMs = 180000, env: extraEnv = {} as Record<string, string> } = {},
): Promise<EspruinoProcess> {
  const shim = await espruinoShim();
  let portFile: string | null = null;
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  if (shim) {
    portFile = join(mkdtempSync(join(tmpdir(), "pet-espruino-port-")), "port");
    env.LD_PRELOAD = env.LD_PRELOAD ? shim + " " + env.LD_PRELOAD : shim;
    env.PET_TELNET_PORT_FILE = portFile;
  } else {
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
  }
  const giveBack = (): void => {
    if (portFile) rmSync(dirname(portFile), { recursive: true, force: true });
    else releaseTelnetPort();
  };
  const child = spawn(binary, ["--telnet"], { cwd: dir, stdio: ["pipe", "pipe", "pipe"], env });
  // Both streams in the order they arrived (for messages), and each on its own for waitFor: the
  // interpreter's start-up lines go to stderr and can land in the middle of a line the firmware is
  // printing on stdout ("restored Kiwi, updates" + "espruino: Interactive mode." + " 2, away 0 s"),
  // which a pattern over the mixed text then misses.
  let out = "";
  let stdoutText = "";
  let stderrText = "";
  let exited: ReturnType<EspruinoProcess["exited"]> = null;
  child.stdout.on("data", (d: Buffer) => {
    const t = d.toString("latin1");
    out += t;
    stdoutText += t;
  });
  child.stderr.on("data", (d: Buffer) => {
    const t = d.toString("latin1");
    out += t;
    stderrText += t;
  });
  child.on("exit", (code, signal) => (exited = { code, signal }));
  child.on("error", (e) => (exited = { code: null, signal: null, error: e.message }));

  const handle: EspruinoProcess = {
    child,
    port: shim ? 0 : TELNET_PORT,
    output: () => out,
    exited: () => exited,
    async waitFor(re, ms = 10000) {
      const end = Date.now() + ms;
      for (;;) {
        const m = stdoutText.match(re) || stderrText.match(re) || out.match(re);
        if (m) return m;
        if (exited) throw new Error("espruino exited (" + JSON.stringify(exited) + ") before printing " + re + ":\n" + out);
        if (Date.now() > end) throw new Error("espruino did not print " + re + " within " + ms + " ms:\n" + out);
        await sleep(50);
      }
    },
    async kill() {
      if (!exited) {
        const done = new Promise((r) => child.once("exit", r));
        child.kill("SIGKILL");
        await done;
      }
      child.stdin.destroy();
      giveBack();
    },
  };
  const end = Date.now() + readyTimeoutMs;
  for (;;) {
    if (handle.port === 0 && portFile) {
      try {
        handle.port = Number(readFileSync(portFile, "utf8").trim()) || 0;
      } catch {
        // not written yet
      }
    }
    if (handle.port !== 0 && (await portAnswers(handle.port))) break;
    if (exited) {
      giveBack();
      throw new Error("espruino exited at start (" + JSON.stringify(exited) + "):\n" + out);
    }
    if (Date.now() > end) {
      await handle.kill();
      throw new Error("espruino's telnet port did not open within " + readyTimeoutMs + " ms:\n" + out);
    }
    await sleep(20);
  }
  return handle;
}

/**
 * What an interpreter binary says it is: `{ board, version }` from process.env (BOARD is "LINUX"
 * for the stock Linux build, "LINUX_ESP32" for the ESP32-like build of the kit beside the
 * repository in CI). Run once in a directory of its own, with `-e` and no telnet; cached per binary
 * for the process.
 */
const identities = new Map<string, Promise<{ board: string; version: string }>>();
export function interpreterIdentity(binary: string): Promise<{ board: string; version: string }> {
  if (!identities.has(binary)) {
    identities.set(
      binary,
      new Promise((done, fail) => {
        const dir = mkdtempSync(join(tmpdir(), "pet-espruino-id-"));
        const id = evaluationId();
        const code = evaluation("{board:process.env.BOARD,version:process.env.VERSION}", id) + ";setTimeout(quit,1)";
        const child = spawn(binary, ["-e", code], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
        let out = "";
        const timer = setTimeout(() => child.kill("SIGKILL"), 10000);
        child.stdout.on("data", (d: Buffer) => (out += d.toString("latin1")));
        child.on("error", (e) => {
          clearTimeout(timer);
          rmSync(dir, { recursive: true, force: true });
          fail(new Error("cannot run the interpreter " + binary + ": " + e.message));
        });
        child.on("exit", () => {
          clearTimeout(timer);
          child.stdin.destroy();
          rmSync(dir, { recursive: true, force: true });
          const answer = out.split(/\r?\n/).map((l) => parseEvaluation(l, id)).find((a) => a !== null);
          if (answer && "value" in answer) done(answer.value as { board: string; version: string });
          else fail(new Error(binary + " did not say what it is (is it Espruino's Linux build?):\n" + out.slice(-500)));
        });
      }),
    );
  }
  return identities.get(binary) as Promise<{ board: string; version: string }>;
}

/** The board profile for an interpreter build: boards/linux-esp32.json or boards/linux.json. */
export async function interpreterProfile(binary: string): Promise<string> {
  const { board } = await interpreterIdentity(binary);
  if (board === "LINUX_ESP32") return join(packageRoot(), "boards", "linux-esp32.json");
  if (board === "LINUX") return join(packageRoot(), "boards", "linux.json");
  throw new Error(binary + " is Espruino for " + board + ", not a Linux build this project has a profile for (LINUX_ESP32 or LINUX)");
}

/**
 * A telnet console session: the interpreter's console at 127.0.0.1:`port` over the one Node
 * transport. `evaluate(expr)` runs one expression (the console protocol's evaluation) and returns
 * its JSON-decoded value, or throws with the interpreter's error text; `timeoutMs` is how long an
 * evaluation may take when it does not say.
 */
export async function openConsole({ timeoutMs = 10000, port = TELNET_PORT } = {}): Promise<EspruinoConsole> {
  const con = await openBoardConsole("tcp://" + TELNET_HOST + ":" + port);
  return {
    evaluate: (expr, ms = timeoutMs) => evaluate(con.exchange, expr, "espruino: " + (expr.length > 60 ? expr.slice(0, 57) + "..." : expr), ms),
    close: () => con.close(),
  };
}
