/**
 * Bench section "firmware": the bundle's size always; with an interpreter (`--espruino PATH` or env
 * ESPRUINO: Espruino's Linux build, docs/firmware.md "Espruino for Linux") the firmware measured
 * inside it, in ONE interpreter process:
 *
 * - Storage holds `.bootcde` (the firmware for the interpreter's own profile: boards/linux-esp32.json
 *   on the kit's ESP32-like build, boards/linux.json on the stock one; booted with load()), `probe.js`
 *   (scripts/bench/firmware-probe.ts bundled the same way: the store's restore path), `floor.js`
 *   and `prims.js` (scripts/bench/espruino/: the floor and the primitives). Everything timed runs
 *   from Storage, so the floor and the firmware are compared like with like (Storage code runs ~4x
 *   slower than console code on the Linux build).
 * - ops: median milliseconds over RUNS runs of each operation, timed with getTime() inside the
 *   interpreter, and its ratio to the floor (saves to the floor save, restores to the floor restore,
 *   status/exportHex to the floor encode).
 * - primitives: milliseconds per operation of a few interpreter primitives, from Storage (the
 *   fastest of 11 interleaved samples, less the loop; scripts/bench/espruino/prims.js).
 * - instructions (valgrind's callgrind, deterministic where the timings are not): each operation
 *   above (and its ratio to the floor's), boot (parse of the bundle + restore of a save), an idle and
 *   a redraw tick (scripts/bench/firmware-ticks.ts), and the primitives, each as a difference of two
 *   runs of `espruino -e` in copies of the bench's flash file. Without valgrind they say how to get it.
 *
 * The Linux interpreter runs on the host CPU: its milliseconds are not an ESP32's (a microcontroller
 * is tens of times slower), but ratios compare code paths and catch regressions. The chip's own
 * figures are the "chip" section's (chip.ts). The session is linuxSession.ts, the instruction
 * counts linuxInstructions.ts, the bundles benchBuilds.ts, the operations benchTables.ts.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware, BUNDLE_BUDGET_BYTES, ROOT } from "../lib/build.js";
import { NO_VALGRIND, valgrindVersion } from "./callgrind";
import { instructions } from "./linuxInstructions";
import { session, type Session } from "./linuxSession";
import { OPS, errorText, ratioTo, round, type Figures } from "./benchTables";
import { blockFormCode } from "../../src/boards/bundleForm";

const HOW_TO_GET_ONE =
  "no interpreter: build Espruino's Linux binary (docs/firmware.md, \"Espruino for Linux\") and run npm run bench -- --espruino PATH (or set ESPRUINO=PATH)";

/** The interpreter to use: `--espruino PATH` (bench.ts puts it in ESPRUINO) or env ESPRUINO. */
function interpreter(): string | null {
  const p = process.env.ESPRUINO;
  return p !== undefined && p !== "" ? p : null;
}

/** The callgrind counts put beside the timings: each primitive's and each operation's, with its ratios. */
function mergeCounts(figures: Figures, counted: Figures): void {
  const prims = (figures.primitives ?? {}) as Record<string, Figures>;
  const perPrim = counted.primitives as Record<string, number>;
  for (const name of Object.keys(perPrim)) if (prims[name] !== undefined && typeof perPrim[name] === "number") prims[name]!.instructions = perPrim[name];
  delete counted.primitives;
  const table = (figures.ops ?? {}) as Record<string, Figures>;
  const perOp = counted.ops as Record<string, number>;
  for (const op of OPS) {
    const row = table[op.name];
    const n = perOp[op.name];
    if (row === undefined || typeof n !== "number") continue;
    row.instructions = n;
    row.instructionRatio = op.floor === null ? null : ratioTo(n, perOp[op.floor]);
    if (op.safe !== undefined) row.safeInstructionRatio = ratioTo(n, perOp[op.safe]);
  }
  delete counted.ops;
  figures.instructions = counted;
}

/** The session and, with valgrind, the instruction counts, into `figures`. */
async function measure(binary: string, work: string, figures: Figures): Promise<void> {
  const grind = valgrindVersion();
  const started = Date.now();
  let s: Session;
  try {
    s = await session(binary, work, grind !== null);
  } catch (e) {
    figures.interpreterRun = { skipped: "failed: " + errorText(e) };
    return;
  }
  Object.assign(figures, s.figures);
  figures.sessionSeconds = round((Date.now() - started) / 1000, 1);
  if (grind === null) {
    figures.instructions = { skipped: NO_VALGRIND };
    return;
  }
  const t = Date.now();
  try {
    mergeCounts(figures, await instructions(binary, s));
  } catch (e) {
    figures.instructions = { skipped: "callgrind failed: " + errorText(e) };
  }
  figures.callgrindSeconds = round((Date.now() - t) / 1000, 1);
}

export async function run(): Promise<Record<string, unknown>> {
  const figures: Figures = {};
  try {
    const esp32 = await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null });
    figures.bundleBytes = esp32.bytes;
    figures.bundleSentBytes = blockFormCode(esp32.code).length;
  } catch (e) {
    figures.bundleBytes = { skipped: "the firmware does not build: " + errorText(e).split("\n")[0] };
  }
  figures.bundleBudgetBytes = BUNDLE_BUDGET_BYTES;
  const binary = interpreter();
  if (binary === null) {
    figures.interpreter = { skipped: HOW_TO_GET_ONE };
    return figures;
  }
  if (!existsSync(binary)) {
    figures.interpreter = { skipped: "no interpreter at " + binary + "; " + HOW_TO_GET_ONE };
    return figures;
  }
  figures.interpreter = binary;
  const work = mkdtempSync(join(tmpdir(), "pet-bench-"));
  try {
    await measure(binary, work, figures);
    return figures;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
