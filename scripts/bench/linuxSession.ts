/**
 * The firmware section's one interpreter process (firmware.ts says what is measured): Espruino's
 * Linux build started with a console port of its own, the firmware written into its Storage as
 * `.bootcde` and booted, floor.js, prims.js and the probe evaluated from Storage beside it, every
 * operation and primitive timed with getTime() inside the interpreter, and copies of its flash file
 * left behind for the instruction counts (linuxInstructions.ts).
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "../lib/build.js";
import { interpreterIdentity, interpreterProfile, openConsole, releaseTelnetPort, startEspruino, type EspruinoConsole, type EspruinoProcess } from "../../src/host/node/interpreter/espruinoLinux";
import { layoutForRegion, type RegionLayout } from "../../src/storage/regionLayout";
import type { DeviceBoardProfile } from "../../src/boards/boardProfile";
import { storageBytes } from "../../src/boards/consoleProtocol";
import { pretokenise } from "../../src/boards/pretokenise";
import { linuxBuilds, type LinuxBuilds } from "./benchBuilds";
import { OPS, PRIMS, errorText, ratioTo, round, skipped, type Figures } from "./benchTables";

/** Runs of each timed operation (odd, so the median is one of them). */
export const RUNS = 41;
/**
 * Erased scratch pages for the floor and the primitives, just below the pet region: free flash on
 * the kit's build (the ESP32's app partition there is only file), the top of Storage's nominal span
 * on the stock build (checked against Storage's use below).
 */
const SCRATCH_PAGES = 8;
const HERE = join(ROOT, "scripts", "bench");
const PET_READY = "typeof pet===\"object\"&&typeof pet.save===\"function\"";

/** What benchInit gets: the scratch pages, and the pet region's layout for the safe floor's restore. */
export interface BenchConfig {
  scratch: number;
  pages: number;
  pageSize: number;
  petLayout: RegionLayout;
}

/** Flash files for the instruction counts: firmware + save, empty .bootcde, tick entry, the ESP32-like firmware + save, the firmware without the region check. */
export interface FlashCopies {
  firmware: string;
  empty: string;
  ticks: string | null;
  esp32Like: string | null;
  noRegionCheck: string | null;
}

export interface Session {
  figures: Figures;
  flash: FlashCopies | null;
  /** Whether probe.js (the store's restore) is in Storage. */
  probe: boolean;
  scratch: BenchConfig;
}

/** Writes `text` (one byte a character) to Storage file `name` in chunks, as the uploader does. */
async function writeStorageFile(con: EspruinoConsole, name: string, text: string): Promise<void> {
  const CHUNK = 512;
  const n = JSON.stringify(name);
  if (text.length === 0) throw new Error("empty Storage file " + name);
  for (let at = 0; at < text.length; at += CHUNK) {
    const chunk = storageBytes(text.slice(at, at + CHUNK));
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

/** `.bootcde` = `code`, booted with load(): the console once the pet answers. */
async function bootFrom(proc: EspruinoProcess, con: EspruinoConsole, code: string): Promise<EspruinoConsole> {
  await writeStorageFile(con, ".bootcde", code);
  await con.evaluate("load()");
  await con.close();
  return consoleWhen(proc, PET_READY, 60_000);
}

/**
 * The scratch pages must be flash nothing else uses. On the kit they lie below the region, where
 * the ESP32 keeps its app and the kit nothing, and Storage starts above the region. On the stock
 * build they lie inside Storage's nominal span, which Storage fills from the bottom: its used part
 * must then end well below them.
 */
async function checkScratch(con: EspruinoConsole, board: DeviceBoardProfile, scratch: BenchConfig): Promise<void> {
  const s0 = scratch.scratch;
  const s1 = s0 + SCRATCH_PAGES * scratch.pageSize;
  const area = board.storageArea;
  const stats = (await con.evaluate("require(\"Storage\").getStats()")) as { fileBytes: number; trashBytes: number };
  const used = stats.fileBytes + stats.trashBytes;
  if (s0 < area.address + area.size && area.address < s1) {
    if (area.address + used + 32 * 1024 > s0) throw new Error("Storage uses " + used + " bytes: too close to the scratch pages at 0x" + s0.toString(16));
  }
  const free = (await con.evaluate("require(\"Flash\").getFree()")) as { addr: number; length: number }[];
  if (!free.some((f) => f.addr <= s0 && s1 <= f.addr + f.length)) throw new Error("the scratch pages at 0x" + s0.toString(16) + " are not inside the flash the interpreter reports free");
}

type Timed = { ms: number; min: number; max: number };

/** Every operation timed RUNS times (benchOp), with its ratios to the floors timed beside it. */
async function timeOps(con: EspruinoConsole): Promise<{ table: Figures; ops: Record<string, Timed | null> }> {
  const ops: Record<string, Timed | null> = {};
  const table: Figures = {};
  for (const op of OPS) {
    try {
      ops[op.name] = (await con.evaluate("benchOp(" + JSON.stringify(op.name) + "," + RUNS + ")", 120_000)) as Timed;
    } catch (e) {
      ops[op.name] = null;
      table[op.name] = { ...skipped(e), what: op.what };
    }
  }
  for (const op of OPS) {
    const m = ops[op.name];
    if (m === null || m === undefined) continue;
    table[op.name] = {
      ms: round(m.ms),
      ratio: op.floor === null ? null : ratioTo(m.ms, ops[op.floor]?.ms),
      vs: op.floor,
      ...(op.safe === undefined ? {} : { safeRatio: ratioTo(m.ms, ops[op.safe]?.ms), vsSafe: op.safe }),
      min: round(m.min),
      max: round(m.max),
      what: op.what,
    };
  }
  return { table, ops };
}

/** Every primitive's milliseconds per operation (prims.js's primTime). */
async function timePrims(con: EspruinoConsole): Promise<Figures> {
  const primitives: Figures = {};
  for (const p of PRIMS) {
    try {
      const ms = (await con.evaluate("primTime(" + JSON.stringify(p.name) + "," + p.n + ",11)", 120_000)) as number;
      primitives[p.name] = { msPerOp: round(ms, 5), what: p.what };
    } catch (e) {
      primitives[p.name] = { ...skipped(e), what: p.what };
    }
  }
  return primitives;
}

/**
 * Copies of the live flash file for callgrind, each with another `.bootcde` and the same save. The
 * pet's interval is stopped first so that no tick writes while the file is copied, and the region's
 * newest save is made a committed one.
 */
async function flashCopies(con: EspruinoConsole, live: string, work: string, b: LinuxBuilds, figures: Figures): Promise<FlashCopies> {
  await con.evaluate("clearInterval()");
  figures.saveBeforeBoot = await con.evaluate("pet.interact(),pet.save()");
  // The wall clock of that save, for the tick entry (firmware-ticks.ts): same absence every run.
  await con.evaluate("require(\"Storage\").write(\"bench-wall\",\"\"+Date.now())");
  const flash: FlashCopies = { firmware: join(work, "firmware.flash"), empty: join(work, "empty.flash"), ticks: null, esp32Like: null, noRegionCheck: null };
  copyFileSync(live, flash.firmware);
  await writeStorageFile(con, ".bootcde", ";");
  copyFileSync(live, flash.empty);
  const variants: [keyof FlashCopies, string | null, string][] = [
    ["ticks", b.ticks, "ticks.flash"],
    ["noRegionCheck", b.noRegionCheck, "no-region-check.flash"],
    ["esp32Like", b.esp32Like, "esp32-like.flash"],
  ];
  for (const [key, code, file] of variants) {
    if (code === null) continue;
    await writeStorageFile(con, ".bootcde", code);
    copyFileSync(live, join(work, file));
    flash[key] = join(work, file);
  }
  return flash;
}

/** Boots the firmware, puts the bench's files beside it and checks the scratch pages; the console. */
async function prepareBench(proc: EspruinoProcess, b: LinuxBuilds, board: DeviceBoardProfile, scratch: BenchConfig, figures: Figures): Promise<EspruinoConsole> {
  let con = await openConsole({ timeoutMs: 60_000, port: proc.port });
  con = await bootFrom(proc, con, b.firmware);
  const memory = (await con.evaluate("process.memory()")) as { usage: number; total: number };
  figures.linuxJsVarsAfterBoot = memory.usage;
  figures.linuxJsVarsTotal = memory.total;
  const files: [string, string][] = [
    // Sent as the firmware is, pretokenised (src/boards/pretokenise.ts): like with like.
    ["floor.js", pretokenise(readFileSync(join(ROOT, "src", "host", "node", "boardCheck", "floor.js"), "utf8"))],
    ["prims.js", readFileSync(join(HERE, "espruino", "prims.js"), "utf8")],
  ];
  if (b.probe !== null) files.push(["probe.js", b.probe]);
  for (const [name, text] of files) await writeStorageFile(con, name, text);
  for (const [name] of files) await con.evaluate("eval(require(\"Storage\").read(" + JSON.stringify(name) + "))", 30_000);
  figures.linuxJsVarsWithBench = ((await con.evaluate("process.memory()")) as { usage: number }).usage;
  await checkScratch(con, board, scratch);
  await con.evaluate("benchInit(" + JSON.stringify(scratch) + ")");
  figures.checks = await con.evaluate("benchCheck()", 30_000).catch((e: unknown) => "benchCheck threw: " + errorText(e));
  return con;
}

/** The one interpreter process: upload, boot, time everything, leave flash files for callgrind. */
export async function session(binary: string, work: string, withCopies: boolean): Promise<Session> {
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
  const b = await linuxBuilds(boardFile, board as unknown as Record<string, unknown>, work, figures);
  const dir = join(work, "live");
  mkdirSync(dir);
  figures.linuxBundleBytes = b.firmware.length;
  const proc = await startEspruino(binary, dir);
  try {
    let con = await prepareBench(proc, b, board, scratch, figures);
    const { table, ops } = await timeOps(con);
    figures.runs = RUNS;
    figures.ops = table;
    figures.primitives = await timePrims(con);
    // The keys the docs already quote.
    if (ops.petSave) figures.linuxPetSaveMsMedian = round(ops.petSave.ms, 3);
    if (ops.petRestore) figures.linuxRestoreMsMedian = round(ops.petRestore.ms, 3);
    const flash = withCopies ? await flashCopies(con, join(dir, "espruino.flash"), work, b, figures) : null;
    if (b.esp32Like !== null) {
      // That bundle's JsVars after boot: booted from Storage like the firmware, same save.
      con = await bootFrom(proc, con, b.esp32Like);
      figures.esp32LikeJsVarsAfterBoot = ((await con.evaluate("process.memory()")) as { usage: number }).usage;
    }
    await con.close();
    return { figures, flash, scratch, probe: b.probe !== null };
  } finally {
    await proc.kill();
    releaseTelnetPort();
  }
}
