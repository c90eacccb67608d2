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
 * is tens of times slower), but ratios compare code paths and catch regressions.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { buildFirmware, BUNDLE_BUDGET_BYTES, ROOT } from "../lib/build.js";
import { checkBundle, formatFindings } from "../lib/bundleCheck.js";
import { interpreterIdentity, interpreterProfile, openConsole, releaseTelnetPort, startEspruino, type EspruinoConsole, type EspruinoProcess } from "../../src/host/node/interpreter/espruinoLinux";
import { layoutForRegion, type RegionLayout } from "../../src/storage/regionLayout";
import type { DeviceBoardProfile } from "../../src/boards/boardProfile";
import { countInstructions, inParallel, NO_VALGRIND, valgrindVersion, type Counted } from "./callgrind";

/** Runs of each timed operation (odd, so the median is one of them). */
const RUNS = 41;
/**
 * Erased scratch pages for the floor and the primitives, just below the pet region: free flash on
 * the kit's build (the ESP32's app partition there is only file), the top of Storage's nominal span
 * on the stock build (checked against Storage's use below).
 */
const SCRATCH_PAGES = 8;
/** Ticks counted under callgrind, per kind. */
const TICKS = 10;
/** Runs of each operation counted under callgrind. */
const OP_COUNT = 10;
const HERE = join(ROOT, "scripts", "bench");
const HOW_TO_GET_ONE =
  "no interpreter: build Espruino's Linux binary (docs/firmware.md, \"Espruino for Linux\") and run npm run bench -- --espruino PATH (or set ESPRUINO=PATH)";

type Figures = Record<string, unknown>;

/** Operation, what it is compared with, and how the comparison is named. */
const OPS: { name: string; floor: string | null; safe?: string; what: string }[] = [
  { name: "floorEncode", floor: "floorEncode", what: "floor: DataView encode of the 84-byte payload + E.CRC32" },
  { name: "floorSave", floor: "floorSave", what: "floor: encode + Flash.write 84 B + 4-byte mark into erased flash" },
  { name: "floorRestore", floor: "floorRestore", what: "floor: Flash.read 84 B + E.CRC32 + DataView decode" },
  {
    name: "safeFloorSave",
    floor: "floorSave",
    what: "safe floor: the world checked, then the floor save with the blank check, the payload read back and the 1-byte mark read back",
  },
  {
    name: "safeFloorRestore",
    floor: "floorRestore",
    what: "safe floor: 16 sequence words, 1 header, the marks classified, 1 slot, every acceptance check (pet region, read only)",
  },
  { name: "storageWrite", floor: "floorSave", what: "require(\"Storage\").write of an 84-byte file" },
  { name: "storageRead", floor: "floorRestore", what: "require(\"Storage\").readArrayBuffer of it" },
  { name: "petSave", floor: "floorSave", safe: "safeFloorSave", what: "pet.save() after an untimed pet.interact()" },
  { name: "petRestore", floor: "floorRestore", safe: "safeFloorRestore", what: "openPetStore(require(\"Flash\"), board.petRegion, board.petLayout).restore(wallMs)" },
  { name: "petStatus", floor: "floorEncode", what: "pet.status()" },
  { name: "petExportHex", floor: "floorEncode", what: "pet.exportHex()" },
  { name: "petInteract", floor: null, what: "pet.interact()" },
  {
    name: "regionCheck",
    floor: null,
    what: "the boot's region check: process.env.STORAGE, Flash.getFree(), two Flash.getPage() and the comparisons (src/boards/regionFit.ts)",
  },
];

/** Primitive, operations per sample, instruction-count operations. */
const PRIMS: { name: string; n: number; what: string }[] = [
  { name: "call", n: 200, what: "call of a one-line function f(i)" },
  { name: "closure", n: 200, what: "creation of a closure (function expression in a loop)" },
  { name: "concat", n: 200, what: "string concatenation \"Benchmark\" + \"!\"" },
  { name: "subarray", n: 200, what: "Uint8Array.subarray(49, 80)" },
  { name: "typedSet", n: 200, what: "Uint8Array.set of 16 bytes" },
  { name: "dataView", n: 200, what: "DataView.setUint32(6, i, true)" },
  { name: "crc32", n: 200, what: "E.CRC32 over 80 bytes" },
  { name: "flashRead", n: 50, what: "Flash.read of 84 bytes" },
  { name: "flashWrite", n: 40, what: "Flash.write of 84 bytes into erased flash" },
  { name: "erasePage", n: 8, what: "Flash.erasePage (one page of the profile's pageSize)" },
];

function round(x: number, digits = 4): number {
  const f = Math.pow(10, digits);
  return Math.round(x * f) / f;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function build(entry: string | undefined, board: string): Promise<string> {
  const built = await buildFirmware({ board, outFile: null, entry });
  const findings = checkBundle(built.code);
  if (findings.length > 0) throw new Error("bundle of " + (entry ?? "src/host/espruino/main.ts") + " is not Espruino-safe:\n" + formatFindings(built.code, findings));
  return built.code;
}

/**
 * The Linux profile with the ESP32 profile's display, button and LED added: the ESP32's bundle in
 * everything but its flash addresses, which the Linux build does not have (its $schema dropped: the
 * copy lives elsewhere).
 */
function withEsp32Hardware(linux: Record<string, unknown>): Record<string, unknown> {
  const esp32 = JSON.parse(readFileSync(join(ROOT, "boards", "esp32.json"), "utf8")) as { display: unknown; button: unknown; led: unknown };
  const copy: Record<string, unknown> = { ...linux, display: esp32.display, button: esp32.button, led: esp32.led };
  delete copy.$schema;
  return copy;
}

/** A profile's copy without its $schema pointer (the copy lives elsewhere). */
function withoutSchema(p: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...p };
  delete copy.$schema;
  return copy;
}

/** Writes `text` (ASCII) to Storage file `name` in chunks, as the uploader does. */
async function writeStorageFile(con: EspruinoConsole, name: string, text: string): Promise<void> {
  const CHUNK = 512;
  const n = JSON.stringify(name);
  if (text.length === 0) throw new Error("empty Storage file " + name);
  for (let at = 0; at < text.length; at += CHUNK) {
    const chunk = JSON.stringify(text.slice(at, at + CHUNK));
    const ok = await con.evaluate("require(\"Storage\").write(" + n + "," + chunk + "," + at + "," + text.length + ")", 30_000);
    if (ok !== true) throw new Error("Storage.write of " + name + " at " + at + " answered " + JSON.stringify(ok));
  }
  const back = await con.evaluate("require(\"Storage\").read(" + n + ").length");
  if (back !== text.length) throw new Error("Storage file " + name + " reads back " + back + " bytes, not " + text.length);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A console on which `expr` evaluates to true, reconnecting while the interpreter restarts. */
async function consoleWhen(proc: EspruinoProcess, expr: string, ms: number): Promise<EspruinoConsole> {
  const port = proc.port;
  const end = Date.now() + ms;
  let last = "";
  for (;;) {
    if (proc.exited()) throw new Error("espruino exited: " + JSON.stringify(proc.exited()) + "\n" + proc.output().slice(-2000));
    let con: EspruinoConsole | null = null;
    try {
      con = await openConsole({ timeoutMs: 5_000, port });
      for (let i = 0; i < 20; i++) {
        if ((await con.evaluate(expr, 5_000)) === true) return con;
        await sleep(100);
      }
    } catch (e) {
      last = errorText(e);
    }
    if (con) await con.close();
    if (Date.now() > end) throw new Error("the interpreter never answered " + expr + " within " + ms + " ms: " + last + "\n" + proc.output().slice(-2000));
    await sleep(200);
  }
}

interface Session {
  figures: Figures;
  /** Flash files for the instruction counts: firmware + save, empty .bootcde, tick entry, the ESP32-like firmware + save. */
  flash: { firmware: string; empty: string; ticks: string | null; esp32Like: string | null; noRegionCheck: string | null } | null;
  /** Whether probe.js (the store's restore) is in Storage. */
  probe: boolean;
  scratch: BenchConfig;
}

/** What benchInit gets: the scratch pages, and the pet region's layout for the safe floor's restore. */
interface BenchConfig {
  scratch: number;
  pages: number;
  pageSize: number;
  petLayout: RegionLayout;
}

/** `fn()`, or `{ skipped: why }` when it throws: one broken part does not hide the others. */
function attempt<T>(fn: () => T): T | { skipped: string } {
  try {
    return fn();
  } catch (e) {
    return { skipped: errorText(e).split("\n")[0]! };
  }
}

/** The one interpreter process: upload, boot, time everything, leave flash files for callgrind. */
async function session(binary: string, work: string, withCopies: boolean): Promise<Session> {
  // The profile of the build we were given: the kit's ESP32-like one, or the stock one.
  const boardFile = await interpreterProfile(binary);
  const board = JSON.parse(readFileSync(boardFile, "utf8")) as DeviceBoardProfile;
  const pageSize = board.petRegion.pageSize;
  const layout = layoutForRegion(board.petRegion);
  if (layout.layout === null) throw new Error(boardFile + ": " + layout.message);
  const scratch: BenchConfig = { scratch: board.petRegion.address - SCRATCH_PAGES * pageSize, pages: SCRATCH_PAGES, pageSize, petLayout: layout.layout };
  const figures: Figures = {};
  const identity = (await interpreterIdentity(binary)) as { board: string; version: string };
  figures.measuredOn = "Espruino " + identity.version + " for Linux, BOARD " + identity.board + ", profile " + relative(ROOT, boardFile) + " (not an ESP32: a PC runs it tens of times faster)";
  const firmware = await build(undefined, boardFile);
  // The probe and the tick entry are optional: without them their figures say why.
  const optional = async (entry: string, key: string, entryBoard: string = boardFile): Promise<string | null> => {
    try {
      return await build(join(HERE, entry), entryBoard);
    } catch (e) {
      figures[key] = { skipped: errorText(e).split("\n")[0] };
      return null;
    }
  };
  const probe = await optional("firmware-probe.ts", "probeBuild");
  // The Linux profile has no panel, button or LED, so its bundle carries none of their code
  // (scripts/lib/build.js, buildDefines). The ticks (redraws) and a second boot figure use it with
  // the ESP32's SSD1306, button and LED added: the Linux build has I2C1, Graphics and pins, and its
  // I2C writes go nowhere.
  const esp32LikeBoard = join(work, "linux-with-esp32-hardware.json");
  writeFileSync(esp32LikeBoard, JSON.stringify(withEsp32Hardware(board as unknown as Record<string, unknown>)));
  const ticks = await optional("firmware-ticks.ts", "ticksBuild", esp32LikeBoard);
  // The same firmware without the boot's region check (the profile as a simulator's, host desktop,
  // which compiles the check and its reading of process.env out: scripts/lib/build.js buildDefines),
  // so that what the check costs the boot is a difference of two boots.
  const noCheckBoard = join(work, "without-region-check.json");
  writeFileSync(noCheckBoard, JSON.stringify({ ...withoutSchema(board as unknown as Record<string, unknown>), host: "desktop" }));
  let noRegionCheck: string | null = null;
  try {
    noRegionCheck = await build(undefined, noCheckBoard);
  } catch (e) {
    figures.noRegionCheckBuild = { skipped: errorText(e).split("\n")[0] };
  }
  let esp32Like: string | null = null;
  try {
    esp32Like = await build(undefined, esp32LikeBoard);
    figures.esp32LikeBundleBytes = Buffer.byteLength(esp32Like, "utf8");
  } catch (e) {
    figures.esp32LikeBuild = { skipped: errorText(e).split("\n")[0] };
  }
  const floor = readFileSync(join(ROOT, "src", "host", "node", "boardCheck", "floor.js"), "utf8");
  const prims = readFileSync(join(HERE, "espruino", "prims.js"), "utf8");

  const dir = join(work, "live");
  mkdirSync(dir);
  figures.linuxBundleBytes = Buffer.byteLength(firmware, "utf8");
  const proc = await startEspruino(binary, dir);
  try {
    let con = await openConsole({ timeoutMs: 60_000, port: proc.port });
    await writeStorageFile(con, ".bootcde", firmware);
    await con.evaluate("load()");
    await con.close();
    con = await consoleWhen(proc, "typeof pet===\"object\"&&typeof pet.save===\"function\"", 60_000);
    const memory = (await con.evaluate("process.memory()")) as { usage: number; total: number };
    figures.linuxJsVarsAfterBoot = memory.usage;
    figures.linuxJsVarsTotal = memory.total;

    const files: [string, string][] = [["floor.js", floor], ["prims.js", prims]];
    if (probe !== null) files.push(["probe.js", probe]);
    for (const [name, text] of files) await writeStorageFile(con, name, text);
    for (const [name] of files) await con.evaluate("eval(require(\"Storage\").read(" + JSON.stringify(name) + "))", 30_000);
    figures.linuxJsVarsWithBench = ((await con.evaluate("process.memory()")) as { usage: number }).usage;

    // The scratch pages must be flash nothing else uses. On the kit they lie below the region,
    // where the ESP32 keeps its app and the kit nothing, and Storage starts above the region. On
    // the stock build they lie inside Storage's nominal span, which Storage fills from the bottom:
    // its used part must then end well below them.
    const s0 = scratch.scratch;
    const s1 = s0 + SCRATCH_PAGES * pageSize;
    const area = board.storageArea;
    const stats = (await con.evaluate("require(\"Storage\").getStats()")) as { fileBytes: number; trashBytes: number };
    const used = stats.fileBytes + stats.trashBytes;
    if (s0 < area.address + area.size && area.address < s1) {
      if (area.address + used + 32 * 1024 > s0) throw new Error("Storage uses " + used + " bytes: too close to the scratch pages at 0x" + s0.toString(16));
    }
    const free = (await con.evaluate("require(\"Flash\").getFree()")) as { addr: number; length: number }[];
    if (!free.some((f) => f.addr <= s0 && s1 <= f.addr + f.length)) throw new Error("the scratch pages at 0x" + s0.toString(16) + " are not inside the flash the interpreter reports free");
    await con.evaluate("benchInit(" + JSON.stringify(scratch) + ")");
    figures.checks = await con.evaluate("benchCheck()", 30_000).catch((e: unknown) => "benchCheck threw: " + errorText(e));

    const ops: Record<string, { ms: number; min: number; max: number } | null> = {};
    const table: Figures = {};
    for (const op of OPS) {
      try {
        ops[op.name] = (await con.evaluate("benchOp(" + JSON.stringify(op.name) + "," + RUNS + ")", 120_000)) as { ms: number; min: number; max: number };
      } catch (e) {
        ops[op.name] = null;
        table[op.name] = { skipped: errorText(e).split("\n")[0], what: op.what };
      }
    }
    for (const op of OPS) {
      const m = ops[op.name];
      if (m === null || m === undefined) continue;
      const ref = op.floor === null ? null : (ops[op.floor]?.ms ?? null);
      const safe = op.safe === undefined ? null : (ops[op.safe]?.ms ?? null);
      table[op.name] = {
        ms: round(m.ms),
        ratio: ref === null || ref <= 0 ? null : round(m.ms / ref, 2),
        vs: op.floor,
        ...(op.safe === undefined ? {} : { safeRatio: safe === null || safe <= 0 ? null : round(m.ms / safe, 2), vsSafe: op.safe }),
        min: round(m.min),
        max: round(m.max),
        what: op.what,
      };
    }
    figures.runs = RUNS;
    figures.ops = table;

    const primitives: Figures = {};
    for (const p of PRIMS) {
      try {
        const ms = (await con.evaluate("primTime(" + JSON.stringify(p.name) + "," + p.n + ",11)", 120_000)) as number;
        primitives[p.name] = { msPerOp: round(ms, 5), what: p.what };
      } catch (e) {
        primitives[p.name] = { skipped: errorText(e).split("\n")[0], what: p.what };
      }
    }
    figures.primitives = primitives;
    // The keys the docs already quote.
    if (ops.petSave) figures.linuxPetSaveMsMedian = round(ops.petSave.ms, 3);
    if (ops.petRestore) figures.linuxRestoreMsMedian = round(ops.petRestore.ms, 3);

    let flash: Session["flash"] = null;
    if (withCopies) {
      // Stop the pet's interval so that no tick writes while the flash file is copied; then make
      // sure the region's newest save is a committed one.
      await con.evaluate("clearInterval()");
      figures.saveBeforeBoot = await con.evaluate("pet.interact(),pet.save()");
      // The wall clock of that save, for the tick entry (firmware-ticks.ts): same absence every run.
      await con.evaluate("require(\"Storage\").write(\"bench-wall\",\"\"+Date.now())");
      const live = join(dir, "espruino.flash");
      flash = { firmware: join(work, "firmware.flash"), empty: join(work, "empty.flash"), ticks: null, esp32Like: null, noRegionCheck: null };
      copyFileSync(live, flash.firmware);
      await writeStorageFile(con, ".bootcde", ";");
      copyFileSync(live, flash.empty);
      if (ticks !== null) {
        flash.ticks = join(work, "ticks.flash");
        await writeStorageFile(con, ".bootcde", ticks);
        copyFileSync(live, flash.ticks);
      }
      if (noRegionCheck !== null) {
        flash.noRegionCheck = join(work, "no-region-check.flash");
        await writeStorageFile(con, ".bootcde", noRegionCheck);
        copyFileSync(live, flash.noRegionCheck);
      }
      if (esp32Like !== null) {
        flash.esp32Like = join(work, "esp32-like.flash");
        await writeStorageFile(con, ".bootcde", esp32Like);
        copyFileSync(live, flash.esp32Like);
      }
    }
    if (esp32Like !== null) {
      // That bundle's JsVars after boot: booted from Storage like the firmware, same save.
      await writeStorageFile(con, ".bootcde", esp32Like);
      await con.evaluate("load()");
      await con.close();
      con = await consoleWhen(proc, "typeof pet===\"object\"&&typeof pet.save===\"function\"", 60_000);
      figures.esp32LikeJsVarsAfterBoot = ((await con.evaluate("process.memory()")) as { usage: number }).usage;
    }
    await con.close();
    return { figures, flash, scratch, probe: probe !== null };
  } finally {
    await proc.kill();
    releaseTelnetPort();
  }
}

/** The callgrind figures: operations, boot, ticks and primitives, as differences of two runs each. */
async function instructions(binary: string, s: Session): Promise<Figures> {
  const f = s.flash!;
  const width = 2;
  // Every run ends with setTimeout(quit, 1), also when the code throws (else the interpreter would
  // wait for input forever); an error is printed between markers and fails that run.
  const run = (flashFile: string | null, body: string) => (): Promise<Counted> => {
    if (flashFile === null) return Promise.reject(new Error("no flash file for this run"));
    return countInstructions(binary, flashFile, "try{" + body + "}catch(e){print('<<ERR '+e+' ERR>>')}setTimeout(quit,1);", 120_000).then((r) => {
      const m = /<<ERR (.*?) ERR>>/.exec(r.output);
      if (m) throw new Error("espruino -e threw " + m[1]);
      return r;
    });
  };
  // clearInterval() first: under valgrind the firmware's 1 s interval would otherwise come due
  // before the quit timer in some runs and not in others.
  const boot = "clearInterval();";
  const read = (file: string): string => "eval(require('Storage').read('" + file + "'));";
  const init = "benchInit(" + JSON.stringify(s.scratch).slice(0, -1) + ",wall:Number(require('Storage').read('bench-wall'))});";
  const opCode = (name: string, n: number): string => "clearInterval();" + read("floor.js") + (s.probe ? read("probe.js") : "") + init + "benchOp('" + name + "'," + n + ");";
  const ticksCode = (n: number, redraw: boolean, dry?: boolean): string => "print('<<T'+JSON.stringify(benchTicks(" + n + "," + redraw + "," + (dry === true) + "))+'T>>');";
  const primCode = (name: string, n: number): string => read("floor.js") + read("prims.js") + "benchInit(" + JSON.stringify(s.scratch) + ");primLoop('" + name + "'," + n + ");";
  const jobs: { key: string; run: () => Promise<Counted> }[] = [
    { key: "bootWith", run: run(f.firmware, boot) },
    { key: "bootWithout", run: run(f.empty, boot) },
    { key: "bootEsp32Like", run: run(f.esp32Like, boot) },
    { key: "bootNoRegionCheck", run: run(f.noRegionCheck, boot) },
    { key: "ticks0", run: run(f.ticks, ticksCode(0, false)) },
    { key: "ticksIdle", run: run(f.ticks, ticksCode(TICKS, false)) },
    { key: "ticksRedraw", run: run(f.ticks, ticksCode(TICKS, true)) },
    { key: "ticksIdleDry", run: run(f.ticks, ticksCode(TICKS, false, true)) },
    { key: "ticksRedrawDry", run: run(f.ticks, ticksCode(TICKS, true, true)) },
  ];
  for (const op of ["nothing", ...OPS.map((o) => o.name)]) jobs.push({ key: "op:" + op + ":" + OP_COUNT, run: run(f.firmware, opCode(op, OP_COUNT)) });
  jobs.push({ key: "op:nothing:0", run: run(f.firmware, opCode("nothing", 0)) });
  const loopSizes = PRIMS.map((p) => p.n).filter((n, i, all) => all.indexOf(n) === i);
  for (const p of [...loopSizes.map((n) => ({ name: "empty", n })), ...PRIMS]) {
    if (!jobs.some((j) => j.key === "prim:" + p.name + ":0")) jobs.push({ key: "prim:" + p.name + ":0", run: run(f.empty, primCode(p.name, 0)) });
    jobs.push({ key: "prim:" + p.name + ":" + p.n, run: run(f.empty, primCode(p.name, p.n)) });
  }
  const results = await inParallel(
    jobs.map((j) => () => j.run().catch((e: unknown) => new Error(errorText(e)))),
    width,
  );
  const by: Record<string, Counted | Error> = {};
  jobs.forEach((j, i) => (by[j.key] = results[i]!));
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
  // Instructions per operation: its runs less the harness's; pet.save() less its untimed interact.
  const ops: Record<string, unknown> = {};
  for (const op of OPS) {
    ops[op.name] = attempt(() => {
      const harness = (count("op:nothing:" + OP_COUNT) - count("op:nothing:0")) / OP_COUNT;
      const per = (name: string): number => (count("op:" + name + ":" + OP_COUNT) - count("op:nothing:0")) / OP_COUNT - harness;
      return Math.round(op.name === "petSave" ? per("petSave") - per("petInteract") : per(op.name));
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
    redrawTickInstructions: attempt(() => Math.round((count("ticksRedraw") - count("ticksRedrawDry")) / TICKS)),
    tickHarnessInstructions: attempt(() => Math.round((count("ticksIdleDry") - count("ticks0")) / TICKS)),
    ticksCounted: TICKS,
    idleTicksDid: attempt(() => tickReport("ticksIdle")),
    redrawTicksDid: attempt(() => tickReport("ticksRedraw")),
    primitives: prims,
  };
}

/** The interpreter to use: `--espruino PATH` (bench.ts puts it in ESPRUINO) or env ESPRUINO. */
function interpreter(): string | null {
  const p = process.env.ESPRUINO;
  return p !== undefined && p !== "" ? p : null;
}

export async function run(): Promise<Record<string, unknown>> {
  const figures: Figures = {};
  try {
    const esp32 = await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null });
    figures.bundleBytes = esp32.bytes;
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
  const grind = valgrindVersion();
  const work = mkdtempSync(join(tmpdir(), "pet-bench-"));
  try {
    const started = Date.now();
    let s: Session;
    try {
      s = await session(binary, work, grind !== null);
    } catch (e) {
      figures.interpreterRun = { skipped: "failed: " + errorText(e) };
      return figures;
    }
    Object.assign(figures, s.figures);
    figures.sessionSeconds = round((Date.now() - started) / 1000, 1);
    if (grind === null) {
      figures.instructions = { skipped: NO_VALGRIND };
    } else {
      const t = Date.now();
      try {
        const counted = await instructions(binary, s);
        // Each primitive's instruction count goes beside its time.
        const prims = (figures.primitives ?? {}) as Record<string, Figures>;
        const perPrim = counted.primitives as Record<string, number>;
        for (const name of Object.keys(perPrim)) if (prims[name] !== undefined && typeof perPrim[name] === "number") prims[name]!.instructions = perPrim[name];
        delete counted.primitives;
        // Each operation's instruction count and its ratio to the floor's, beside its time.
        const table = (figures.ops ?? {}) as Record<string, Figures>;
        const perOp = counted.ops as Record<string, number>;
        for (const op of OPS) {
          const row = table[op.name];
          const n = perOp[op.name];
          if (row === undefined || typeof n !== "number") continue;
          const ref = op.floor === null ? undefined : perOp[op.floor];
          row.instructions = n;
          row.instructionRatio = typeof ref !== "number" || ref <= 0 ? null : round(n / ref, 2);
          if (op.safe !== undefined) {
            const safe = perOp[op.safe];
            row.safeInstructionRatio = typeof safe !== "number" || safe <= 0 ? null : round(n / safe, 2);
          }
        }
        delete counted.ops;
        figures.instructions = counted;
      } catch (e) {
        figures.instructions = { skipped: "callgrind failed: " + errorText(e) };
      }
      figures.callgrindSeconds = round((Date.now() - t) / 1000, 1);
    }
    return figures;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
