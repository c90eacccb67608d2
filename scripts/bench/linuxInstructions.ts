/**
 * The firmware section's callgrind figures (firmware.ts says what is measured): every operation, the
 * boot, the ticks and the primitives as differences of two `espruino -e` runs in copies of the
 * session's flash files (linuxSession.ts leaves them), run two at a time.
 */
import { countInstructions, inParallel, valgrindVersion, type Counted } from "./callgrind";
import type { Session } from "./linuxSession";
import { OPS, PRIMS, attempt, errorText, type Figures } from "./benchTables";

/** Ticks counted under callgrind, per kind. */
const TICKS = 10;
/** Runs of each operation counted under callgrind. */
const OP_COUNT = 10;

type Job = { key: string; run: () => Promise<Counted> };

/**
 * One `espruino -e` run in a copy of `flashFile`. Every run quits as soon as its code is done, also
 * when the code throws (else the interpreter would wait for input forever); an error is printed
 * between markers and fails that run. No run leaves work for the interpreter's loop: the boot's only
 * timer is the pet's interval, which every run clears first. The runs used to end with
 * setTimeout(quit, 1), which is reached after as many turns of the loop as real time allows, about
 * 14 000 instructions each under valgrind: one turn more or less moved an idle tick by 1 400, the
 * idle stretch (a single step) and the region check by 14 000 between runs (2026-12-07). Quitting
 * at once, the same run repeats to within 2 000 instructions of 51 M.
 */
function runIn(binary: string, flashFile: string | null, body: string): () => Promise<Counted> {
  return () => {
    if (flashFile === null) return Promise.reject(new Error("no flash file for this run"));
    return countInstructions(binary, flashFile, "try{" + body + "}catch(e){print('<<ERR '+e+' ERR>>')}quit();", 120_000).then((r) => {
      const m = /<<ERR (.*?) ERR>>/.exec(r.output);
      if (m) throw new Error("espruino -e threw " + m[1]);
      return r;
    });
  };
}

/** Every run the figures need, keyed. */
function jobs(binary: string, s: Session): Job[] {
  const f = s.flash!;
  const run = (flashFile: string | null, body: string): (() => Promise<Counted>) => runIn(binary, flashFile, body);
  // clearInterval() first: no run leaves the pet's 1 s interval to the loop (and the boot's run,
  // which does nothing else, costs the same as before the runs quit at once).
  const boot = "clearInterval();";
  const read = (file: string): string => "eval(require('Storage').read('" + file + "'));";
  const init = "benchInit(" + JSON.stringify(s.scratch).slice(0, -1) + ",wall:Number(require('Storage').read('bench-wall'))});";
  // Each run through benchMarked with markers that do nothing, as the chip counts them, not through
  // benchOp: benchOp times every run and sorts the times for their median, and a sort's comparisons
  // follow the order the times came in, so its count moved by up to 8 % of an operation between runs
  // (2026-12-07; this way the same run repeats to within a thousand instructions of 40 M).
  const opCode = (name: string, n: number): string =>
    "clearInterval();" + read("floor.js") + (s.probe ? read("probe.js") : "") + init + "var z=function(){};for(var i=0;i<" + n + ";i++)benchMarked('" + name + "',i,z,z);";
  const ticksCode = (n: number, redraw: boolean, dry?: boolean, settle?: boolean): string =>
    "print('<<T'+JSON.stringify(benchTicks(" + n + "," + redraw + "," + (dry === true) + ",undefined,undefined," + (settle === true) + "))+'T>>');";
  const primCode = (name: string, n: number): string => read("floor.js") + read("prims.js") + "benchInit(" + JSON.stringify(s.scratch) + ");primLoop('" + name + "'," + n + ");";
  const out: Job[] = [
    { key: "bootWith", run: run(f.firmware, boot) },
    { key: "bootWithout", run: run(f.empty, boot) },
    { key: "bootEsp32Like", run: run(f.esp32Like, boot) },
    { key: "bootNoRegionCheck", run: run(f.noRegionCheck, boot) },
    { key: "ticks0", run: run(f.ticks, ticksCode(0, false)) },
    { key: "ticksIdle", run: run(f.ticks, ticksCode(TICKS, false)) },
    { key: "ticksRedraw", run: run(f.ticks, ticksCode(TICKS, true)) },
    { key: "ticksIdleDry", run: run(f.ticks, ticksCode(TICKS, false, true)) },
    { key: "ticksSettled", run: run(f.ticks, ticksCode(TICKS, false, false, true)) },
    { key: "ticksSettledDry", run: run(f.ticks, ticksCode(TICKS, false, true, true)) },
    { key: "ticksRedrawDry", run: run(f.ticks, ticksCode(TICKS, true, true)) },
  ];
  // petSaveAlone: pet.save() with nothing before it, what this section counts as pet.save() (below).
  for (const op of ["nothing", ...OPS.map((o) => o.name), "petSaveAlone"]) out.push({ key: "op:" + op + ":" + OP_COUNT, run: run(f.firmware, opCode(op, OP_COUNT)) });
  out.push({ key: "op:nothing:0", run: run(f.firmware, opCode("nothing", 0)) });
  const loopSizes = PRIMS.map((p) => p.n).filter((n, i, all) => all.indexOf(n) === i);
  for (const p of [...loopSizes.map((n) => ({ name: "empty", n })), ...PRIMS]) {
    if (!out.some((j) => j.key === "prim:" + p.name + ":0")) out.push({ key: "prim:" + p.name + ":0", run: run(f.empty, primCode(p.name, 0)) });
    out.push({ key: "prim:" + p.name + ":" + p.n, run: run(f.empty, primCode(p.name, p.n)) });
  }
  return out;
}

/** The figures from the runs' counts: each a difference of two runs, or why it is missing. */
function fromCounts(by: Record<string, Counted | Error>): Figures {
  const get = (k: string): Counted => {
    const r = by[k];
    if (r === undefined) throw new Error("no run " + k);
    if (r instanceof Error) throw new Error(k + ": " + r.message);
    return r;
  };
  const count = (k: string): number => get(k).instructions;
  const tickReport = (k: string): unknown => {
    const m = /<<T(.*)T>>/.exec(get(k).output);
    return m ? JSON.parse(m[1]!) : "no report: " + get(k).output.slice(-300);
  };
  const loopStep = (n: number): number => (count("prim:empty:" + n) - count("prim:empty:0")) / n;
  const prims: Record<string, unknown> = {};
  for (const p of PRIMS) {
    prims[p.name] = attempt(() => Math.round((count("prim:" + p.name + ":" + p.n) - count("prim:" + p.name + ":0")) / p.n - loopStep(p.n)));
  }
  // Instructions per operation: its runs less the harness's. callgrind counts the whole run, the
  // untimed preparation too, so pet.save() is counted without the pet.interact() the timed runs and
  // the chip put before it (floor.js petSaveAlone): that run less a run of pet.interact() alone was
  // unreliable, as an interaction saves or not by how long the last one took (its 1 s save gap).
  const ops: Record<string, unknown> = {};
  for (const op of OPS) {
    ops[op.name] = attempt(() => {
      const harness = (count("op:nothing:" + OP_COUNT) - count("op:nothing:0")) / OP_COUNT;
      const per = (name: string): number => (count("op:" + name + ":" + OP_COUNT) - count("op:nothing:0")) / OP_COUNT - harness;
      return Math.round(per(op.name === "petSave" ? "petSaveAlone" : op.name));
    });
  }
  return {
    tool: valgrindVersion(),
    ops,
    opsCounted: OP_COUNT,
    bootInstructions: attempt(() => count("bootWith") - count("bootWithout")),
    bootWithFirmware: attempt(() => count("bootWith")),
    bootWithEmptyBootcde: attempt(() => count("bootWithout")),
    esp32LikeBootInstructions: attempt(() => count("bootEsp32Like") - count("bootWithout")),
    // What the region check adds to the boot: its run, its reading of process.env, and the reading of
    // its text when the bundle loads (the same firmware built without it, booted from the same flash).
    regionCheckBootInstructions: attempt(() => count("bootWith") - count("bootNoRegionCheck")),
    // Each tick less the bench's own loop around it (the same loop with app.tick() left out).
    idleTickInstructions: attempt(() => Math.round((count("ticksIdle") - count("ticksIdleDry")) / TICKS)),
    // Applying an idle stretch's steps to the world, once a stretch (RunningPet.settle_): the run
    // with it less the one without, less the same for the dry loop (an empty app.world()).
    idleSettleInstructions: attempt(() => count("ticksSettled") - count("ticksIdle") - (count("ticksSettledDry") - count("ticksIdleDry"))),
    redrawTickInstructions: attempt(() => Math.round((count("ticksRedraw") - count("ticksRedrawDry")) / TICKS)),
    tickHarnessInstructions: attempt(() => Math.round((count("ticksIdleDry") - count("ticks0")) / TICKS)),
    ticksCounted: TICKS,
    idleTicksDid: attempt(() => tickReport("ticksIdle")),
    redrawTicksDid: attempt(() => tickReport("ticksRedraw")),
    primitives: prims,
  };
}

/** The callgrind figures: operations, boot, ticks and primitives, as differences of two runs each. */
export async function instructions(binary: string, s: Session): Promise<Figures> {
  const all = jobs(binary, s);
  const results = await inParallel(
    all.map((j) => () => j.run().catch((e: unknown) => new Error(errorText(e)))),
    2,
  );
  const by: Record<string, Counted | Error> = {};
  all.forEach((j, i) => (by[j.key] = results[i]!));
  return fromCounts(by);
}
