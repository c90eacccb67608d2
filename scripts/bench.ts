/**
 * `npm run bench`: speed, wear and size figures, printed as text or, with `--json`, as one object;
 * `--out FILE` also writes that object to FILE (npm prints its own banner on stdout unless run as
 * `npm run -s bench`, so a file is the dependable way for scripts to get the figures).
 * `--espruino PATH` (or env ESPRUINO) is Espruino's Linux build, for the firmware section; the chip
 * section runs Espruino's own ESP32 firmware in the emulated ESP32 when the kit and its QEMU are
 * there (env ESP32_QEMU); `--only a,b` runs those sections alone.
 * Each section lives in scripts/bench/<section>.ts and returns figures (nested where they group); a section that cannot
 * run here (no interpreter, no bundle yet) returns `{ skipped: "<why>" }` instead of failing.
 * Timings are medians of many runs; nothing here is asserted by the tests.
 */
import { pathToFileURL } from "node:url";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { writeFileAtomic } from "../src/host/node/atomicFile";
import { figuresFile, renderFiguresPage } from "./bench/figuresPage";
import { CommandFailure, runCommand } from "./lib/command.js";

/** Why `path` cannot be the interpreter, or null when it is an executable file. */
function notAnInterpreter(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return "not a file";
    accessSync(path, constants.X_OK);
    return null;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return code === "ENOENT" ? "no such file" : code === "EACCES" ? "not executable" : e instanceof Error ? e.message : String(e);
  }
}

type Figures = Record<string, unknown>;

const SECTIONS = ["codec", "storage", "firmware", "chip"];

interface BenchOptions {
  json?: boolean;
  out?: string;
  espruino?: string;
  "write-figures"?: boolean;
  only?: string;
}

await runCommand<BenchOptions>({
  program: "npm run bench",
  usage: "usage: npm run bench -- [--json] [--out FILE] [--espruino PATH] [--write-figures]",
  about: `
Speed, wear and size figures: the codec and the storage layer in Node, and (with an interpreter)
the firmware on Espruino's Linux build against a floor run beside it, with callgrind instruction
counts when valgrind is installed, and on Espruino's own ESP32 firmware in the emulated ESP32
(../shared/esp32-qemu, with ESP32_QEMU=its QEMU) in the chip's own instructions. Timings are medians
of many runs; scripts/bench/README.md says what each figure is.`,
  options: [
    { name: "json", help: "print only the JSON object (run as `npm run -s bench` so npm adds no banner)" },
    { name: "out", value: "FILE", help: "also write the JSON object to FILE" },
    { name: "espruino", value: "PATH", help: "Espruino's Linux build for the firmware section (default: env ESPRUINO; without\neither that section says it was skipped)" },
    { name: "only", value: "SECTIONS", help: "run only these sections (comma-separated: " + SECTIONS.join(", ") + ")" },
    { name: "write-figures", help: "write the figures to docs/figures.json and docs/figures.md, the page every other\ndoc points at for a number (needs the firmware section, so an interpreter)" },
  ],
  sections: [
    [
      "environment",
      [
        ["ESPRUINO", "Espruino's Linux build, as --espruino"],
        ["ESP32_QEMU", "the kit's QEMU, for the chip section"],
        ["BENCH_CHIP_PARTS", "the chip section counts only these parts (boot, ops, ticks; comma-separated)"],
        ["BENCH_CHIP_OPS", "its ops part counts only these operations (scripts/bench/benchTables.ts, OPS)"],
        ["BENCH_CHIP_OP_RUNS", "runs of each counted operation (default 7)"],
      ],
    ],
  ],
  examples: [
    "npm run bench -- --espruino $(../shared/espruino/build.sh | tail -1)",
    "npm run -s bench -- --json --out bench.json",
    "npm run bench -- --espruino $(../shared/espruino/build.sh | tail -1) --write-figures",
  ],
  exits: [
    [0, "measured (sections that cannot run here say why)"],
    [1, "a section failed"],
    [2, "bad usage (an unknown section with --only), or --espruino / ESPRUINO names no executable\nfile, or --write-figures without the firmware section or with BENCH_CHIP_PARTS or BENCH_CHIP_OPS set,\nor a BENCH_CHIP_OP_RUNS that is no count"],
  ],
  run: bench,
});

async function bench(options: BenchOptions): Promise<void> {
  // The firmware section reads the interpreter's path from ESPRUINO; --espruino wins over it. A
  // named interpreter that is not there is an error, not a skipped section that looks like a result.
  if (options.espruino !== undefined) process.env.ESPRUINO = options.espruino;
  const named = process.env.ESPRUINO;
  if (named !== undefined && named !== "") {
    const why = notAnInterpreter(named);
    if (why !== null) {
      const how = options.espruino !== undefined ? "--espruino " : "ESPRUINO=";
      throw new CommandFailure(how + named + ": " + why + "; name Espruino's Linux build (ESPRUINO=$(../shared/espruino/build.sh | tail -1))", 2);
    }
  }
  if (options["write-figures"] === true && ((process.env.BENCH_CHIP_PARTS ?? "") !== "" || (process.env.BENCH_CHIP_OPS ?? "") !== "")) {
    throw new CommandFailure("--write-figures with BENCH_CHIP_PARTS or BENCH_CHIP_OPS set would write a page missing figures; unset them", 2);
  }
  const opRuns = process.env.BENCH_CHIP_OP_RUNS ?? "";
  if (opRuns !== "" && !/^[1-9][0-9]*$/.test(opRuns)) throw new CommandFailure("BENCH_CHIP_OP_RUNS=" + opRuns + ": not a count of runs (a whole number from 1)", 2);
  const json = options.json === true;
  const here = dirname(fileURLToPath(import.meta.url));
  const result: Record<string, Figures> = {};
  const chosen = options.only === undefined ? SECTIONS : options.only.split(",").map((n) => n.trim());
  const unknown = chosen.filter((n) => SECTIONS.indexOf(n) < 0);
  if (unknown.length > 0) throw new CommandFailure("--only " + options.only + ": no section " + unknown.join(", ") + " (the sections: " + SECTIONS.join(", ") + ")", 2);
  for (const name of chosen) {
    const file = join(here, "bench", name + ".ts");
    if (!existsSync(file)) {
      result[name] = { skipped: "no bench section yet" };
      continue;
    }
    const mod = (await import(pathToFileURL(file).href)) as { run: () => Promise<Figures> };
    result[name] = await mod.run();
  }
  const text = JSON.stringify(result, null, 2) + "\n";
  if (options.out !== undefined) {
    const written = writeFileAtomic(options.out, new TextEncoder().encode(text));
    if (written.status !== "ok") throw new Error(written.message);
  }
  if (options["write-figures"] === true) {
    const firmware = result.firmware ?? { skipped: "not chosen with --only" };
    if (typeof firmware.skipped === "string") {
      throw new CommandFailure("--write-figures needs the firmware section, which did not run: " + firmware.skipped, 2);
    }
    writeFiguresPage(result);
  }
  if (json) {
    process.stdout.write(text);
    return;
  }
  for (const name of chosen) {
    process.stdout.write(name + "\n");
    printFigures(result[name] ?? {}, "  ");
  }
}

type Row = { ms?: unknown; ratio?: unknown; vs?: unknown; msPerOp?: unknown; instructions?: unknown; instructionRatio?: unknown; what?: unknown };

/** Nested figures as indented lines; timed rows ({ms, ratio, ...} or {msPerOp, ...}) as table rows. */
function printFigures(figures: Figures, indent: string): void {
  for (const key of Object.keys(figures)) {
    const v = figures[key];
    const row = (typeof v === "object" && v !== null ? v : {}) as Row;
    if (typeof row.ms === "number") {
      const ratio = typeof row.ratio === "number" ? ("x" + row.ratio.toFixed(2) + " " + String(row.vs)).padEnd(22) : "".padEnd(22);
      const ins = typeof row.instructions === "number" ? (row.instructions + " instr").padStart(15) + (typeof row.instructionRatio === "number" ? (" x" + row.instructionRatio.toFixed(2)).padEnd(8) : "".padEnd(8)) : "";
      process.stdout.write(indent + key.padEnd(34) + " " + (row.ms.toFixed(3) + " ms").padStart(11) + "  " + ratio + ins + " " + String(row.what ?? "") + "\n");
    } else if (typeof row.msPerOp === "number") {
      const ins = typeof row.instructions === "number" ? (row.instructions + " instr").padStart(14) : "".padStart(14);
      process.stdout.write(indent + key.padEnd(34) + " " + (row.msPerOp.toFixed(4) + " ms").padStart(11) + ins + "  " + String(row.what ?? "") + "\n");
    } else if (typeof v === "object" && v !== null && !Array.isArray(v) && !("skipped" in v)) {
      process.stdout.write(indent + key + "\n");
      printFigures(v as Figures, indent + "  ");
    } else {
      process.stdout.write(indent + key.padEnd(34) + " " + formatValue(v) + "\n");
    }
  }
}

/** The commit measured, with a note when the checkout differs from it. */
function measuredCommit(): string {
  try {
    const git = (args: string[]): string => execFileSync("git", args, { cwd: join(dirname(fileURLToPath(import.meta.url)), ".."), encoding: "utf8" }).trim();
    const commit = git(["rev-parse", "--short", "HEAD"]);
    return git(["status", "--porcelain", "--untracked-files=no"]) === "" ? commit : commit + " with uncommitted changes";
  } catch {
    return "unknown";
  }
}

/** docs/figures.json and docs/figures.md from this run (scripts/bench/figuresPage.ts). */
function writeFiguresPage(result: Record<string, Figures>): void {
  const docs = join(dirname(fileURLToPath(import.meta.url)), "..", "docs");
  const file = figuresFile(result, {
    date: new Date().toISOString().slice(0, 10),
    commit: measuredCommit(),
    node: process.version,
    cpus: availableParallelism(),
    command: "npm run bench -- --espruino PATH --write-figures",
  });
  for (const [name, text] of [
    ["figures.json", JSON.stringify(file, null, 2) + "\n"],
    ["figures.md", renderFiguresPage(file)],
  ] as const) {
    const written = writeFileAtomic(join(docs, name), new TextEncoder().encode(text));
    if (written.status !== "ok") throw new Error(written.message);
  }
  process.stderr.write("wrote docs/figures.json and docs/figures.md\n");
}

function formatValue(v: unknown): string {
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

