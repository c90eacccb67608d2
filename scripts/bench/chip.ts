/**
 * Bench section "chip": the firmware measured where it lives, on Espruino's own ESP32 firmware
 * (2v06.63 on ESP-IDF 3.1.3, as the kit ships it) in the emulated ESP32 of ../shared/esp32-qemu,
 * counted in the chip's own Xtensa instructions by the kit's plugin (core 0, between two marker
 * calls: src/host/node/emulatedChip/chipConsole.ts). Without the kit or its QEMU (env ESP32_QEMU)
 * the section says how to get them and the other sections run as before.
 *
 * One chip on a fresh flash image, talked to over its console (chipSession.ts does the talking, and
 * switches the chip off and on again when the host starves it into a panic):
 * - boot: `.bootcde` is the firmware in the form the chip's Espruino runs (src/boards/bundleForm.ts:
 *   on 2v06 a head that runs the body from its own file), with a marker call before it and one
 *   after it, booted with load() BOOT_RUNS times after a first
 *   boot that hatches the pet's first save (so every counted boot restores one); less the median of
 *   the same for a `.bootcde` of the two markers alone. JsVars after boot: process.memory().usage
 *   once the pet is there (the chip has no SSD1306: the boot finds no panel and keeps no frame buffer).
 * - ops: floor.js's benchMarked(name, i, open, close), the same operations as the Linux section,
 *   OP_RUNS runs each, each op's median less the median of the harness's own ("nothing").
 * - ticks: `.bootcde` is the tick entry (firmware-ticks.ts for boards/esp32.json), whose benchTicks
 *   opens and closes the window around its counted ticks; (ticks - the same loop dry) / TICKS.
 *
 * Pure interpreter work repeats to the instruction; anything that touches the flash varies (core 0
 * spins in ESP-IDF's flash guard until core 1 answers, as long as the host lets that take), by about
 * 10 % on a quiet host and more on a busy one, hence medians, with the least and the most beside them.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../lib/build.js";
import { findKit, KitMissing } from "../../src/host/node/emulatedChip/qemuChip";
import { BODY_FILE, bundleForVersion, sentBytes, type StorageFile } from "../../src/boards/bundleForm";
import { pretokenise } from "../../src/boards/pretokenise";
import type { DeviceBoardProfile } from "../../src/boards/boardProfile";
import { layoutForRegion, type RegionLayout } from "../../src/storage/regionLayout";
import { checkedBundle } from "./benchBuilds";
import { OPS, errorText, median, ratioTo, round, skipped, type Figures } from "./benchTables";
import { openChipSession, PROBE_BODY_FILE, PROBE_FILE, type ChipSession } from "./chipSession";
import { BOOT_FILE } from "../../src/boards/consoleProtocol";

/** Counted boots of each .bootcde. */
const BOOT_RUNS = 5;
/** Counted runs of each operation (odd, so the median is one of them). */
const OP_RUNS = Number(process.env.BENCH_CHIP_OP_RUNS ?? "") || 7;
/** Ticks in one counted window, and windows of each kind (pure interpreter work repeats exactly). */
const TICKS = 10;
const TICK_RUNS = 3;
const ESP32 = join(ROOT, "boards", "esp32.json");
const HERE = join(ROOT, "scripts", "bench");

/**
 * While working on one figure: BENCH_CHIP_PARTS=boot,ops,ticks and BENCH_CHIP_OPS=petExportHex,floorEncode
 * (names from benchTables.ts's OPS) count only those; the figures then lack the rest, and bench.ts
 * refuses --write-figures with either set. BENCH_CHIP_OP_RUNS=3 counts each op 3 times, not OP_RUNS
 * (pure interpreter work repeats to the instruction).
 */
const CHIP_PARTS = process.env.BENCH_CHIP_PARTS ?? "";
const CHIP_OPS = process.env.BENCH_CHIP_OPS ?? "";
/** Whether `name` is in the comma list `list` (an empty list names everything). */
function wanted(list: string, name: string): boolean {
  return list === "" || list.split(",").indexOf(name) >= 0;
}

/** The three bundles the chip runs, each in the form its Espruino needs. */
interface ChipBuilds {
  firmware: StorageFile[];
  probe: StorageFile[];
  ticks: StorageFile[];
  form: string;
  petLayout: RegionLayout;
}

async function chipBuilds(version: string): Promise<ChipBuilds> {
  // Each for the Storage files chipSession.ts writes it to: the function form's head reads its body from the second.
  const inForm = async (entry: string | undefined, file: string, body: string) => bundleForVersion(await checkedBundle(entry, ESP32), version, file, body);
  const firmware = await inForm(undefined, BOOT_FILE, BODY_FILE);
  const probe = await inForm(join(HERE, "firmware-probe.ts"), PROBE_FILE, PROBE_BODY_FILE);
  const ticks = await inForm(join(HERE, "firmware-ticks.ts"), BOOT_FILE, BODY_FILE);
  const region = (JSON.parse(readFileSync(ESP32, "utf8")) as DeviceBoardProfile).petRegion;
  const layout = layoutForRegion(region);
  if (layout.layout === null) throw new Error("boards/esp32.json: " + layout.message);
  return { firmware: firmware.files, probe: probe.files, ticks: ticks.files, form: firmware.form, petLayout: layout.layout };
}

/** Median, least, most and every run of some counts. */
function summary(runs: number[]): { instructions: number; min: number; max: number; runs: number[] } {
  return { instructions: median(runs), min: Math.min(...runs), max: Math.max(...runs), runs };
}

/** The boot beyond an empty `.bootcde`, and JsVars after each. */
async function bootFigures(s: ChipSession, b: ChipBuilds): Promise<Figures> {
  const empty = await s.countBoots([{ name: BOOT_FILE, code: "" }], BOOT_RUNS, false);
  const firmware = await s.countBoots(b.firmware, BOOT_RUNS, true);
  return {
    bootInstructions: median(firmware.counts) - median(empty.counts),
    bootRuns: BOOT_RUNS,
    boot: summary(firmware.counts),
    emptyBoot: summary(empty.counts),
    jsVarsAfterBoot: firmware.usage,
    jsVarsEmptyBootcde: empty.usage,
    bootLine: firmware.bootLine,
  };
}

/** Every operation's median less the harness's, with its ratios to the floors counted beside it. */
async function opFigures(s: ChipSession): Promise<Figures> {
  const count = (name: string): Promise<number[]> => s.countOp(name, OP_RUNS);
  const harness = median(await count("nothing"));
  const raw: Record<string, number[]> = {};
  const ops: Figures = {};
  const chosen = OPS.filter((o) => wanted(CHIP_OPS, o.name));
  for (const op of chosen) {
    try {
      raw[op.name] = (await count(op.name)).map((n) => n - harness);
    } catch (e) {
      ops[op.name] = { ...skipped(e), what: op.what };
    }
  }
  const per = (name: string | null | undefined): number | undefined => (name && raw[name] ? median(raw[name]!) : undefined);
  for (const op of chosen) {
    const runs = raw[op.name];
    if (runs === undefined) continue;
    const n = median(runs);
    ops[op.name] = {
      ...summary(runs),
      instructionRatio: op.floor === null ? null : ratioTo(n, per(op.floor)),
      vs: op.floor,
      ...(op.safe === undefined ? {} : { safeInstructionRatio: ratioTo(n, per(op.safe)), vsSafe: op.safe }),
      what: op.what,
    };
  }
  return { harnessInstructions: harness, opRuns: OP_RUNS, ops };
}

/** The idle and the redraw tick, each less the same loop run dry. */
async function tickFigures(s: ChipSession): Promise<Figures> {
  const each = async (redraw: boolean, dry: boolean): Promise<{ counts: number[]; did: unknown }> => s.countTicks(TICKS, redraw, dry, TICK_RUNS);
  const idle = await each(false, false);
  const idleDry = await each(false, true);
  const settled = await s.countTicks(TICKS, false, false, TICK_RUNS, true);
  const settledDry = await s.countTicks(TICKS, false, true, TICK_RUNS, true);
  const redraw = await each(true, false);
  const redrawDry = await each(true, true);
  return {
    idleTickInstructions: Math.round((median(idle.counts) - median(idleDry.counts)) / TICKS),
    // Applying an idle stretch's steps to the world, once a stretch (RunningPet.settle_): the
    // window with it less the one without, less the same for the dry loop (an empty app.world()).
    idleSettleInstructions: Math.round(median(settled.counts) - median(idle.counts) - (median(settledDry.counts) - median(idleDry.counts))),
    redrawTickInstructions: Math.round((median(redraw.counts) - median(redrawDry.counts)) / TICKS),
    tickHarnessInstructions: Math.round(median(idleDry.counts) / TICKS),
    ticksCounted: TICKS,
    tickRuns: { idle: idle.counts, idleDry: idleDry.counts, settled: settled.counts, settledDry: settledDry.counts, redraw: redraw.counts, redrawDry: redrawDry.counts },
    idleTicksDid: idle.did,
    redrawTicksDid: redraw.did,
  };
}

/** Each part in turn; a part that fails says so and the next still runs. */
async function measure(s: ChipSession, figures: Figures): Promise<void> {
  const b = await chipBuilds(s.version);
  s.setBundles(b);
  figures.form = b.form;
  figures.bundleBytes = sentBytes(b.firmware);
  const parts: [string, () => Promise<Figures>][] = [
    ["boot", () => bootFigures(s, b)],
    ["ops", () => opFigures(s)],
    ["ticks", () => tickFigures(s)],
  ];
  for (const [name, part] of parts) {
    if (!wanted(CHIP_PARTS, name)) continue;
    try {
      Object.assign(figures, await part());
    } catch (e) {
      figures[name + "Part"] = skipped(e);
    }
  }
}

export async function run(): Promise<Figures> {
  let kit;
  try {
    kit = await findKit();
  } catch (e) {
    if (e instanceof KitMissing) return { skipped: e.message };
    throw e;
  }
  const work = mkdtempSync(join(tmpdir(), "pet-bench-chip-"));
  const started = Date.now();
  const figures: Figures = {};
  let s: ChipSession | null = null;
  try {
    // The floor is sent as the firmware is, pretokenised (src/boards/pretokenise.ts): like with like.
    s = await openChipSession(kit, work, pretokenise(readFileSync(join(ROOT, "src", "host", "node", "boardCheck", "floor.js"), "utf8")));
    figures.measuredOn = s.measuredOn;
    await measure(s, figures);
    figures.restarts = s.restarts();
  } catch (e) {
    return { ...figures, skipped: "failed: " + errorText(e) };
  } finally {
    if (s !== null) await s.close();
    rmSync(work, { recursive: true, force: true });
  }
  figures.seconds = round((Date.now() - started) / 1000, 1);
  return figures;
}
