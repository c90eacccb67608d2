/**
 * The terminal screen of `npm start`, driven through a pseudo-terminal: the OLED drawn in braille
 * with the pet's name, world clock and update count under it; one space press (a button press on
 * the firmware's pin) changes the picture; q saves, quits and gives the cursor back.
 *
 * The terminal is node-pty's, or, where node-pty is not installed or cannot be loaded (it is an
 * optional dependency; npm skips it when its native build fails), the one Python's pty module gives
 * through test/fixtures/pty-run.py. PET_PTY=python forces the latter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { buildDesktopBundle, ROOT, START } from "./desktop-process";

interface Terminal {
  kind: string;
  write(keys: string): void;
  onData(cb: (d: string) => void): void;
  exited: Promise<number>;
}

/** A program in a COLS x ROWS pseudo-terminal: node-pty when it loads, else Python's pty module. */
async function openTerminal(args: string[], cols: number, rows: number): Promise<Terminal> {
  const env = { ...process.env, TERM: "xterm-256color" };
  if (process.env.PET_PTY !== "python") {
    try {
      const mod = (await import("node-pty")) as unknown as { spawn?: typeof import("node-pty").spawn; default?: { spawn: typeof import("node-pty").spawn } };
      const spawnPty = mod.spawn ?? mod.default?.spawn;
      if (spawnPty) {
        const term = spawnPty(process.execPath, args, { cols, rows, cwd: ROOT, env });
        return {
          kind: "node-pty",
          write: (k) => term.write(k),
          onData: (cb) => term.onData(cb),
          exited: new Promise((r) => term.onExit((e) => r(e.exitCode))),
        };
      }
    } catch {
      // fall through to Python
    }
  }
  const child = spawn("python3", [join(ROOT, "test", "fixtures", "pty-run.py"), String(cols), String(rows), process.execPath, ...args], {
    cwd: ROOT,
    env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdout.setEncoding("utf8");
  return {
    kind: "python",
    write: (k) => child.stdin.write(k),
    onData: (cb) => child.stdout.on("data", cb),
    exited: new Promise((r) => child.on("exit", (code) => r(code ?? -1))),
  };
}

/** Whether the optional node-pty module is installed and its native part loads here. */
async function nodePtyLoads(): Promise<boolean> {
  try {
    const mod = (await import("node-pty")) as unknown as { spawn?: unknown; default?: { spawn?: unknown } };
    return typeof (mod.spawn ?? mod.default?.spawn) === "function";
  } catch {
    return false;
  }
}

let dir = "";
let bundle = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pet-screen-"));
  bundle = await buildDesktopBundle(join(dir, "firmware.js"));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The text of the last complete frame (frames start with "cursor home"), escape codes removed. */
function lastFrame(raw: string): string[] {
  const frames = raw.split("\x1b[H");
  const candidates = frames.slice(1).filter((f) => f.includes("\x1b[J"));
  const last = candidates[candidates.length - 1] ?? "";
  return last
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
    .split(/\r?\n/)
    .map((l) => l.replace(/\r/g, ""));
}

function waitUntil(cond: () => boolean, timeoutMs: number, what: string, raw: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (cond()) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error("timed out waiting for " + what + "\nlast frame:\n" + lastFrame(raw()).join("\n")));
      }
    }, 25);
  });
}

describe("desktop terminal screen", () => {
  it("draws the pet, reacts to one space press, and q restores the terminal", async () => {
    const term = await openTerminal([START, "--bundle", bundle, "--image", join(dir, "screen.bin")], 100, 30);
    let raw = "";
    term.onData((d) => (raw += d));
    const exited = term.exited;
    // node-pty is an optional dependency (npm ci skips it where it cannot be built): the test uses it
    // whenever it is installed and loads, and Python's pty otherwise.
    expect(term.kind).toBe(process.env.PET_PTY !== "python" && (await nodePtyLoads()) ? "node-pty" : "python");

    await waitUntil(() => lastFrame(raw).some((l) => /updates \d+/.test(l)), 15000, "the first frame", () => raw);
    const before = lastFrame(raw);
    const panel = (f: string[]): string => f.slice(1, 17).join("\n");
    // 16 braille rows of 64 characters inside a frame, then the status lines and the key help.
    expect(before[0]).toBe("┌" + "─".repeat(64) + "┐");
    expect(before.slice(1, 17).every((l) => /^│[\u2800-\u28ff]{64}│$/.test(l))).toBe(true);
    expect(panel(before)).toMatch(/[\u2801-\u28ff]/); // something is lit
    expect(before.join("\n")).toMatch(/Pip · \w+, \w+/);
    expect(before.join("\n")).toMatch(/world clock \d\d:\d\d:\d\d\s+updates \d+\s+last save/);
    expect(before.join("\n")).toMatch(/space interact/);

    term.write(" ");
    await waitUntil(() => panel(lastFrame(raw)) !== panel(before), 5000, "the picture to change after a press", () => raw);
    // The press went through the firmware's button path, which asked for a save at once.
    await waitUntil(() => lastFrame(raw).some((l) => /> saved: updates [1-9]/.test(l)), 5000, "the save of the interaction", () => raw);

    term.write("q");
    expect(await exited).toBe(0);
    await new Promise((r) => setTimeout(r, 100)); // the pty may deliver the last bytes after the exit
    // The cursor is shown again after the last frame.
    expect(raw.lastIndexOf("\x1b[?25h")).toBeGreaterThan(raw.lastIndexOf("\x1b[J"));
  });
});
