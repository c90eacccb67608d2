/**
 * Helpers for the serial tests: a board on the far side of a pty (test/fixtures/fake-board-pty.py),
 * scripts/upload.js run as a person runs it, a stubbed port list (env PET_SERIAL_LIST, the list's
 * boundary in src/host/node/serial/serialPorts.ts), and a replay of what a board received.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";

export const ROOT = join(__dirname, "..");
export const TINY_ENTRY = join(ROOT, "test", "fixtures", "upload-tiny-entry.ts");

export interface FakeBoard {
  path: string;
  /** Everything a tool sent to the board so far. */
  received(): string;
  stop(): Promise<void>;
}

/**
 * Starts a fake board ("repl", "silent", or "bridge" to host:port) and waits for its pty path. A
 * bridge port given as "@FILE" is read from FILE, and the bridge reconnects when the console drops. A
 * "repl" board answers the question what it is as an ESP32 with Espruino 2v29, or with `identity`'s
 * BOARD and VERSION.
 */
export function startFakeBoard(
  mode: "repl" | "silent" | "bridge",
  transcript: string,
  bridgeTo?: [string, number | string],
  identity?: { BOARD?: string; VERSION?: string },
  extraEnv: Record<string, string> = {},
): Promise<FakeBoard> {
  const args = [join(ROOT, "test", "fixtures", "fake-board-pty.py"), mode, transcript].concat(bridgeTo ? [bridgeTo[0], String(bridgeTo[1])] : []);
  writeFileSync(transcript, "");
  const env = { ...process.env, ...extraEnv, ...(identity ? { FAKE_BOARD_ENV: JSON.stringify(identity) } : {}) };
  const child: ChildProcess = spawn("python3", args, { stdio: ["pipe", "pipe", "inherit"], env });
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error("fake-board-pty.py exited (" + code + ") before printing its pty")));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl < 0) return;
      child.removeAllListeners("exit");
      resolve({
        path: out.slice(0, nl).trim(),
        received: () => readFileSync(transcript, "latin1"),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.stdin!.end(); // its stdin closing is its signal to stop
          }),
      });
    });
  });
}

export interface Run {
  code: number;
  out: string;
}

/**
 * Runs a node script (flash.js, bin/pet-save.js) with extra environment; never rejects. Its stdin
 * is closed at once, which is how a `--monitor` terminal is told to leave.
 */
export function runNode(script: string, args: string[], env: Record<string, string> = {}, timeout = 90_000): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [join(ROOT, script)].concat(args), { cwd: ROOT, env: { ...process.env, ...env }, timeout }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, out: stdout + stderr }),
    );
    child.stdin?.end();
  });
}

/** Writes a stubbed port list for PET_SERIAL_LIST; returns its path. */
export function portList(file: string, ports: object[]): string {
  writeFileSync(file, JSON.stringify(ports));
  return file;
}

/** What a board received after flash asked it what it is: the upload alone. */
export function afterIdentify(text: string): string {
  const asked = text.lastIndexOf("#pet-id ");
  return asked < 0 ? text : text.slice(text.indexOf("\n", asked) + 1);
}

/**
 * Replays what a board received (console control bytes removed: DLE echo-off, Ctrl-C, ESC LF
 * continuation; the question what it is, which flash asks first, left out) against a recording
 * Storage; returns the files written and the files loaded.
 */
export function replayUpload(text: string): { files: Record<string, string>; loads: unknown[] } {
  const files: Record<string, string> = {};
  const loads: unknown[] = [];
  // Lines the protocol resends (pet.status() while the board restarts) and prompts' Enter run twice: harmless here.
  const code = afterIdentify(text).replace(/\x1b\n/g, "\n").replace(/[\x10\x03]/g, "");
  runInNewContext(code, {
    reset() {},
    // The board's free JsVars, which the quiet line reports: an ESP32 without PSRAM, the pet running.
    process: { memory: () => ({ free: 600 }) },
    print() {},
    clearInterval() {},
    clearTimeout() {},
    clearWatch() {},
    E: { CRC32: () => 0 },
    atob: (b64: string) => Buffer.from(b64, "base64").toString("latin1"),
    load: (name: unknown) => loads.push(name),
    require: (name: string) => {
      if (name !== "Storage") throw new Error("unexpected require " + name);
      return {
        read: (name: string) => files[name],
        erase: (name: string) => delete files[name],
        write(name: string, data: string, offset?: number, size?: number) {
          if (size !== undefined) files[name] = "\u00ff".repeat(size);
          const cur = files[name] ?? "";
          const at = offset ?? 0;
          files[name] = cur.slice(0, at) + data + cur.slice(at + data.length);
          return true;
        },
      };
    },
  });
  return { files, loads };
}
