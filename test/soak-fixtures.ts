/**
 * Running `npm run soak` in the soak tests: as a process of its own (scripts/soak.js, as a person
 * runs it) or in the test's process (soakMain, what scripts/soak.js calls, which spares a Node and
 * its TypeScript loader per run), and the shape of its --json report.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./serial-fake-board";
import { soakMain } from "../src/host/node/soak/soakMain";

export interface SoakJson {
  rounds: number;
  confirmedSaves: number;
  lostSaves: number;
  problems: string[];
  cut: string;
  cutsFlashPower: boolean;
  note: string | null;
  boardInfo: { board: string };
  roundResults: { held: boolean; confirmedSaves: number; readBack: { updateCount: string } | null; lastConfirmed: { updateCount: string } | null }[];
}

export interface SoakRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `npm run soak` (scripts/soak.js, a process of its own, as a person runs it) with `args`. */
export function soakProcess(args: string[], env: Record<string, string> = {}, onLine?: (line: string) => void): Promise<SoakRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "soak.js"), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let partial = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      partial += d.toString();
      const lines = partial.split("\n");
      partial = lines.pop() as string;
      if (onLine) for (const l of lines) onLine(l);
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, out, err });
    });
  });
}

/** The same command in this process; `onLine` sees each line of its standard output as it comes. */
export async function soak(args: string[], onLine?: (line: string) => void): Promise<SoakRun> {
  let out = "";
  let err = "";
  let partial = "";
  const code = await soakMain(args, {
    out: (t) => {
      out += t;
      partial += t;
      const lines = partial.split("\n");
      partial = lines.pop() as string;
      if (onLine) for (const l of lines) onLine(l);
    },
    err: (t) => (err += t),
  });
  return { code, out, err };
}

/** A few quick rounds: the cut within 300 ms of the first confirmed save, a save every 10 ms. */
export const FAST = ["--window", "300", "--interval", "10"];
