/**
 * x86 instruction counts of Espruino's Linux build under valgrind's callgrind: deterministic where
 * timers are not. Each run gets its own copy of a flash file (espruino.flash) in a fresh directory,
 * an open standard-input pipe (at end-of-file the interpreter floods its console and stops), no
 * telnet (so port 2323 is not involved), and `-e CODE`, which runs after Storage's .bootcde.
 * CODE must end the process itself with setTimeout(quit, 1) (a direct quit() is undone).
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const NO_VALGRIND = "install valgrind (apt-get install valgrind) for instruction counts";

/** The valgrind version line, or null when valgrind cannot be run. */
export function valgrindVersion(): string | null {
  try {
    const r = spawnSync("valgrind", ["--version"], { encoding: "utf8", timeout: 10_000 });
    return r.status === 0 ? r.stdout.trim() : null;
  } catch {
    return null;
  }
}

export interface Counted {
  instructions: number;
  /** What the interpreter printed on its console (stdout). */
  output: string;
}

/** Runs `binary -e code` under callgrind in a copy of `flashFile`; answers the `Collected` count. */
export function countInstructions(binary: string, flashFile: string, code: string, timeoutMs = 300_000): Promise<Counted> {
  const dir = mkdtempSync(join(tmpdir(), "pet-bench-cg-"));
  copyFileSync(flashFile, join(dir, "espruino.flash"));
  return new Promise((resolve, reject) => {
    const child = spawn("valgrind", ["--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "-e", code], {
      cwd: dir,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("latin1")));
    child.stderr.on("data", (d: Buffer) => (err += d.toString("latin1")));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    let finished = false;
    const done = (e: Error | null): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      child.stdin.destroy();
      rmSync(dir, { recursive: true, force: true });
      if (e) return reject(e);
      const m = /Collected\s*:\s*(\d+)/.exec(err);
      if (!m) return reject(new Error("callgrind printed no count for -e " + code + ":\n" + (err + out).slice(-2000)));
      resolve({ instructions: Number(m[1]), output: out });
    };
    child.on("error", (e) => done(e));
    child.on("close", () => done(null));
  });
}

/** Runs the jobs at most `width` at a time, in order of completion; answers results in input order. */
export async function inParallel<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await (jobs[i] as () => Promise<T>)();
    }
  }
  const workers: Promise<void>[] = [];
  for (let w = 0; w < Math.max(1, width); w++) workers.push(worker());
  await Promise.all(workers);
  return results;
}
