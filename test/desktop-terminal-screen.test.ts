/**
 * The terminal screen of `npm start`, driven through a pseudo-terminal: the OLED drawn in braille
 * with the pet's name, world clock and update count under it; one space press (a button press on
 * the firmware's pin) changes the picture; q saves, quits and gives the cursor back. Keys typed
 * before the pet is up (here a q typed at once) are dropped, not replayed once it runs.
 *
 * The terminal is the one Python's pty module gives (test/fixtures/pty-run.py): the project needs no
 * native pseudo-terminal module for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { buildDesktopBundle, ROOT, START } from "./desktop-process";

interface Terminal {
  write(keys: string): void;
  onData(cb: (d: string) => void): void;
  exited: Promise<number>;
}

/** A program in a COLS x ROWS pseudo-terminal made by Python's pty module. */
function openTerminal(args: string[], cols: number, rows: number): Terminal {
  const env = { ...process.env, TERM: "xterm-256color" };
  const child = spawn("python3", [join(ROOT, "test", "fixtures", "pty-run.py"), String(cols), String(rows), process.execPath, ...args], {
    cwd: ROOT,
    env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdout.setEncoding("utf8");
  return {
    write: (k) => child.stdin.write(k),
    onData: (cb) => child.stdout.on("data", cb),
    exited: new Promise((r) => child.on("exit", (code) => r(code ?? -1))),
  };
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
  it("draws the pet, drops keys typed before it is up, reacts to one space press, and q restores the terminal", async () => {
    const term = openTerminal([START, "--bundle", bundle, "--image", join(dir, "screen.bin")], 100, 30);
    let raw = "";
    term.onData((d) => (raw += d));
    let ended = false;
    const exited = term.exited.then((code) => {
      ended = true;
      return code;
    });
    // Typed while the program is still starting: it must not quit the pet once it is up.
    term.write("q");

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

    // Still running after the press and its save: the q typed at the start was dropped, not replayed.
    expect(ended).toBe(false);
    term.write("q");
    expect(await exited).toBe(0);
    await new Promise((r) => setTimeout(r, 100)); // the pty may deliver the last bytes after the exit
    // The cursor is shown again after the last frame.
    expect(raw.lastIndexOf("\x1b[?25h")).toBeGreaterThan(raw.lastIndexOf("\x1b[J"));
  });
});
