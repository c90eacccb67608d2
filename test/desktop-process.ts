/**
 * Test helpers for the desktop end-to-end tests: build the desktop bundle once, start
 * scripts/start.js on it as a child process (stdout a pipe, so it prints lines), and wait for lines.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join, resolve } from "node:path";
import { buildFirmware } from "../scripts/lib/build.js";

export const ROOT = resolve(__dirname, "..");
export const START = join(ROOT, "scripts", "start.js");
export const DESKTOP_BOARD = join(ROOT, "boards", "desktop.json");

/** Builds the firmware for boards/desktop.json into `outFile`, as npm start does. */
export async function buildDesktopBundle(outFile: string): Promise<string> {
  await buildFirmware({ board: DESKTOP_BOARD, outFile });
  return outFile;
}

export interface Desktop {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  /** Resolves with the match of the first line (from `from` on) matching `re`. */
  waitFor(re: RegExp, timeoutMs?: number, from?: number): Promise<RegExpMatchArray>;
  send(keys: string): void;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startDesktop(bundle: string, image: string, extra: string[] = []): Desktop {
  const child = spawn(process.execPath, [START, "--bundle", bundle, "--image", image, ...extra], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let partial = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d: string) => {
    partial += d;
    const parts = partial.split("\n");
    partial = parts.pop() as string;
    lines.push(...parts);
    for (const w of waiters.slice()) w();
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on("exit", (code, signal) => {
      for (const w of waiters.slice()) w();
      r({ code, signal });
    }),
  );
  return {
    child,
    lines,
    exited,
    send: (keys) => child.stdin.write(keys),
    stderr: () => stderr,
    waitFor(re, timeoutMs = 15000, from = 0) {
      return new Promise((resolvePromise, reject) => {
        const check = (): boolean => {
          for (let i = from; i < lines.length; i++) {
            const m = re.exec(lines[i] as string);
            if (m) {
              resolvePromise(m);
              return true;
            }
          }
          if (child.exitCode !== null || child.signalCode !== null) {
            reject(new Error("desktop exited before " + re + "\nstdout:\n" + lines.join("\n") + "\nstderr:\n" + stderr));
            return true;
          }
          return false;
        };
        if (check()) return;
        const waiter = (): void => {
          if (check()) {
            clearTimeout(timer);
            waiters.splice(waiters.indexOf(waiter), 1);
          }
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error("timed out waiting for " + re + "\nstdout:\n" + lines.join("\n") + "\nstderr:\n" + stderr));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
  };
}
