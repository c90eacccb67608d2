/**
 * The project's figures in one place: `npm run bench -- --espruino PATH --write-figures` writes the
 * bench's whole result to docs/figures.json and this module's rendering of it to docs/figures.md.
 * README and the other docs point at that page instead of carrying numbers of their own, so a
 * figure is written by the bench once and never copied by hand (test/docs-figures-written-once.test.ts
 * holds the page to its data and looks for copies elsewhere).
 *
 * The rendering is a pure function of the JSON: the same data always gives the same page, so the
 * test can tell a page edited by hand from one the bench wrote.
 */

type Json = Record<string, unknown>;

/** What the bench adds about the run itself. */
export interface FiguresMeta {
  /** ISO date of the run (day only: the time of day says nothing about the figures). */
  date: string;
  /** The commit measured (short hash), or "unknown" outside a git checkout. */
  commit: string;
  node: string;
  cpus: number;
  /** The command that made the figures. */
  command: string;
}

export interface FiguresFile {
  meta: FiguresMeta;
  codec: Json;
  storage: Json;
  firmware: Json;
  /** The emulated ESP32's figures (scripts/bench/chip.ts); absent in files written before it existed. */
  chip?: Json;
}

function obj(v: unknown): Json {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** Thousands separated by a thin space, as the docs write them: 1 267, 36 210. */
export function grouped(n: number): string {
  const s = String(Math.round(n));
  return s.replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

/** Millions of instructions with one, two or (below 0.1 M, the idle tick's size) three decimals: 22.0 M, 0.39 M, 0.046 M. */
export function millions(n: number): string {
  const m = n / 1e6;
  return (m >= 10 ? m.toFixed(1) : m >= 0.1 ? m.toFixed(2) : m.toFixed(3)) + " M";
}

function ratio(v: unknown): string {
  const r = num(v);
  return r === null ? "" : r.toFixed(2) + "x";
}

function ms(v: unknown): string {
  const r = num(v);
  return r === null ? "" : r.toFixed(r < 0.1 ? 4 : 3);
}

function cell(v: unknown, f: (n: number) => string): string {
  const n = num(v);
  return n === null ? "" : f(n);
}

/** A markdown table from a header row and rows of cells. */
function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]): string => "| " + cells.join(" | ") + " |";
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The firmware's operations against the floor, in the order a reader asks about them. */
const OPS: [string, string][] = [
  ["petSave", "`pet.save()`"],
  ["petRestore", "restore (as the boot does)"],
  ["petStatus", "`pet.status()`"],
  ["petExportHex", "`pet.exportHex()`"],
  ["petInteract", "`pet.interact()`"],
  ["regionCheck", "the boot's region check"],
  ["floorSave", "floor: save"],
  ["floorRestore", "floor: restore"],
  ["floorEncode", "floor: encode"],
  ["floorExport", "floor: export (the world not checked)"],
  ["safeFloorSave", "safe floor: save"],
  ["safeFloorRestore", "safe floor: restore"],
  ["safeFloorExport", "safe floor: export"],
  ["storageWrite", "`Storage.write` of 84 bytes"],
  ["storageRead", "`Storage.readArrayBuffer` of it"],
];

/** What an op is compared with, in words (the bench names the floor op it divides by). */
const VS_WORDS: Record<string, string> = {
  floorSave: "the floor's save",
  floorRestore: "the floor's restore",
  floorEncode: "the floor's encode",
};

function firmwareSection(f: Json): string {
  if (typeof f.skipped === "string") return "The firmware section did not run: " + f.skipped + "\n";
  const ops = obj(f.ops);
  const ins = obj(f.instructions);
  const out: string[] = [];
  out.push("Measured on " + String(f.measuredOn ?? "an unnamed interpreter") + ".");
  out.push("");
  out.push(
    "Ratios are to the floor run in the same interpreter process (a save, a restore or an encode written the least " +
      "expensive way, `src/host/node/boardCheck/floor.js`) and to the safe floor (the same with every check and read-back " +
      "the format and the slot log require). Instructions are x86 instructions counted by callgrind, each the difference " +
      "of whole interpreter runs (ten operations or ticks against none, or a boot against an empty one): the same code " +
      "counts the same to within 0.4 % from one bench to the next (2026-12-07, every figure of two runs of this section), so a change " +
      "beyond that is the code's. (Until then the runs waited for a quit timer and the operations' runs sorted their " +
      "times, and the same code moved by up to 8 %.) " +
      "Milliseconds are medians of " + String(f.runs ?? "several") + " runs and move by tens of per cent on a shared machine, so " +
      "compare the instruction columns.",
  );
  out.push("");
  const rows: string[][] = [];
  for (const [key, label] of OPS) {
    const op = obj(ops[key]);
    if (Object.keys(op).length === 0) continue;
    rows.push([
      label,
      cell(op.instructions, millions),
      ratio(op.instructionRatio) + (typeof op.vs === "string" && op.vs !== key ? " " + (VS_WORDS[op.vs] ?? op.vs) : ""),
      ratio(op.safeInstructionRatio),
      ms(op.ms),
      ratio(op.ratio),
    ]);
  }
  out.push(table(["operation", "instructions", "to the floor (instructions)", "to the safe floor", "ms (median)", "to the floor (ms)"], rows));
  out.push("");
  out.push(
    table(
      ["the rest", "figure"],
      [
        ["boot beyond an empty `.bootcde`, the interpreter's profile", cell(ins.bootInstructions, millions)],
        ["the same with the ESP32's panel, button and LED", cell(ins.esp32LikeBootInstructions, millions)],
        ["of which the region check", cell(ins.regionCheckBootInstructions, millions)],
        ["idle tick", cell(ins.idleTickInstructions, millions)],
        ["an idle stretch's steps applied to the world (once a stretch of up to a minute)", cell(ins.idleSettleInstructions, millions)],
        ["redraw tick (the face drawn, the changed pages sent)", cell(ins.redrawTickInstructions, millions)],
        ["bundle for the ESP32 (`boards/esp32.json`), as built", cell(f.bundleBytes, (n) => grouped(n) + " bytes of " + grouped(num(f.bundleBudgetBytes) ?? 0))],
        ["the same as the upload sends it (pretokenised, block form)", cell(f.bundleSentBytes, (n) => grouped(n) + " bytes")],
        ["bundle for the interpreter's profile, as sent (pretokenised)", cell(f.linuxBundleBytes, (n) => grouped(n) + " bytes")],
        ["JsVars after boot, the interpreter's profile", cell(f.linuxJsVarsAfterBoot, grouped)],
        ["JsVars after boot, with the ESP32's panel, button and LED", cell(f.esp32LikeJsVarsAfterBoot, grouped)],
      ].filter((r) => r[1] !== ""),
    ),
  );
  const prims = obj(f.primitives);
  if (Object.keys(prims).length > 0) {
    out.push("");
    out.push("Primitives of the interpreter, one operation each (the fastest of interleaved samples, less the empty loop):");
    out.push("");
    out.push(
      table(
        ["primitive", "instructions", "ms"],
        Object.keys(prims).map((k) => {
          const p = obj(prims[k]);
          return [k, cell(p.instructions, grouped), ms(p.msPerOp)];
        }),
      ),
    );
  }
  return out.join("\n") + "\n";
}

/** The chip's operations, in the page's order, as rows: the median, its range, the ratios. */
function chipOpRows(ops: Json): string[][] {
  const rows: string[][] = [];
  for (const [key, label] of OPS) {
    const op = obj(ops[key]);
    if (num(op.instructions) === null) continue;
    rows.push([
      label,
      cell(op.instructions, millions),
      cell(op.min, millions) + " .. " + cell(op.max, millions),
      ratio(op.instructionRatio) + (typeof op.vs === "string" && op.vs !== key ? " " + (VS_WORDS[op.vs] ?? op.vs) : ""),
      ratio(op.safeInstructionRatio),
    ]);
  }
  return rows;
}

/** The least and the most of the boots, whole (the restore's flash reads make them vary by a third on a busy host). */
function bootRange(boot: Json): string {
  return num(boot.min) === null ? "" : " (boots of " + cell(boot.min, millions) + " .. " + cell(boot.max, millions) + " in all)";
}

function chipSection(c: Json | undefined): string {
  if (c === undefined) return "The chip section had not been run when these figures were written.\n";
  if (typeof c.skipped === "string") return "The chip section did not run: " + c.skipped + "\n";
  const out: string[] = [];
  out.push("Measured on " + String(c.measuredOn ?? "an unnamed chip") + ".");
  out.push("");
  out.push(
    "Every figure is the chip's own instructions counted between two marker calls on the chip (scripts/bench/README.md), " +
      "the median of " + String(c.opRuns ?? "several") + " runs of each operation (" + String(c.bootRuns ?? "several") + " of the boot), " +
      "with the least and the most beside it: pure interpreter work repeats to the instruction, anything that touches the flash " +
      "varies (core 0 waits in ESP-IDF's flash guard for as long as the host takes to run core 1), by about 10 % on a quiet host " +
      "and more on a busy one. Ratios are to the floor and the safe floor run on the same chip in the same state. The emulated chip " +
      "has no SSD1306: the boot finds no panel, so its boot and JsVars carry no drawing and no frame buffer, and the ticks draw " +
      "the face into Graphics and send it to an I2C whose writes go nowhere.",
  );
  out.push("");
  out.push(table(["operation", "instructions (median)", "least .. most", "to the floor", "to the safe floor"], chipOpRows(obj(c.ops))));
  out.push("");
  out.push(
    table(
      ["the rest, on the chip", "figure"],
      [
        ["boot beyond an empty `.bootcde` (the " + String(c.form ?? "") + " form, restoring a save)", cell(c.bootInstructions, millions) + bootRange(obj(c.boot))],
        ["idle tick", cell(c.idleTickInstructions, millions)],
        ["an idle stretch's steps applied to the world (once a stretch of up to a minute)", cell(c.idleSettleInstructions, millions)],
        ["redraw tick (the face drawn, the changed pages sent to nowhere)", cell(c.redrawTickInstructions, millions)],
        ["bundle as sent to this chip (the " + String(c.form ?? "") + " form, pretokenised)", cell(c.bundleBytes, (n) => grouped(n) + " bytes")],
        ["JsVars after boot (`process.memory().usage`)", cell(c.jsVarsAfterBoot, grouped)],
        ["JsVars with an empty `.bootcde`", cell(c.jsVarsEmptyBootcde, grouped)],
      ].filter((r) => r[1] !== ""),
    ),
  );
  return out.join("\n") + "\n";
}

function storageSection(s: Json): string {
  if (typeof s.skipped === "string") return "The storage section did not run: " + s.skipped + "\n";
  const rows: [string, unknown, (n: number) => string][] = [
    ["sector erases per 1000 saves", s.erasesPer1000Saves, (n) => n.toFixed(2)],
    ["the least any log can do on this geometry", s.erasesPer1000SavesFloor, (n) => n.toFixed(2)],
    ["bytes programmed per save (as asked / word-padded as on the device)", s.bytesProgrammedPerSave, (n) => n.toFixed(2) + " / " + (num(s.bytesProgrammedPerSaveWordPadded) ?? 0).toFixed(2)],
    ["bytes read per save", s.bytesReadPerSave, (n) => n.toFixed(2)],
    ["boot: bytes read, empty region", s.bootEmptyBytesRead, grouped],
    ["boot: bytes read, wrapped log", s.bootWrappedBytesRead, grouped],
    ["power-cut sweep: reboots checked / problems", s.powerCutReboots, (n) => grouped(n) + " / " + String(s.powerCutProblems)],
    ["power-cut sweep: worst boot, bytes read", s.powerCutWorstBootBytesRead, grouped],
    ["cut storm: saves / problems", s.stormSaves, (n) => grouped(n) + " / " + String(s.stormProblems)],
  ];
  const saves = num(s.saves);
  const out = "On the simulator (NorFlashSim), " + String(s.geometry ?? "") + (saves === null ? "" : ", " + grouped(saves) + " saves") + ": exact counts, no timings.\n\n";
  return out + table(["figure", "value"], rows.filter((r) => num(r[1]) !== null).map((r) => [r[0], r[2](r[1] as number)])) + "\n";
}

function codecSection(c: Json): string {
  const rows: [string, unknown][] = [
    ["`saveWorld`", c.saveWorld_median_ns],
    ["`loadWorld`", c.loadWorld_median_ns],
    ["CRC-32 of 80 bytes, bitwise", c.crc32Bitwise_80B_median_ns],
    ["CRC-32 of 80 bytes, built in", c.crc32_builtin_80B_median_ns],
  ];
  return "In Node on the bench machine, median nanoseconds a call:\n\n" + table(["codec", "ns"], rows.filter((r) => num(r[1]) !== null).map((r) => [r[0], grouped(r[1] as number)])) + "\n";
}

/** docs/figures.md for the bench's result `f`. */
export function renderFiguresPage(f: FiguresFile): string {
  const m = f.meta;
  return [
    "# Figures",
    "",
    "<!-- Written by the bench (scripts/bench/figuresPage.ts) from docs/figures.json: edit neither by hand. -->",
    "",
    "Every speed, size, memory and wear figure of the project, as the last run of `" + m.command + "` measured it on " + m.date +
      " (commit " + m.commit + ", Node " + m.node + ", " + m.cpus + " cores). Other pages point here rather than copy a number. " +
      "Two machines ran the firmware: Espruino's own ESP32 firmware in the emulated ESP32, counted in the chip's own " +
      "instructions (the chip's figures), and Espruino built for Linux on the bench's PC, in x86 instructions and milliseconds " +
      "(the interpreter's figures). Neither is a board: the emulated chip runs the firmware people flash but not at a board's " +
      "speed, and a board runs the same code tens of times slower than the PC, so ratios carry over and milliseconds do not " +
      "(docs/board.md measures a board).",
    "",
    "## The firmware on the emulated ESP32",
    "",
    chipSection(f.chip),
    "## The firmware on the Linux interpreter",
    "",
    firmwareSection(f.firmware),
    "## The slot log",
    "",
    storageSection(f.storage),
    "## The codec",
    "",
    codecSection(f.codec),
  ].join("\n");
}

/** The bench's result with the run's meta, as docs/figures.json holds it (no machine paths). */
export function figuresFile(result: Record<string, Json>, meta: FiguresMeta): FiguresFile {
  const firmware = { ...obj(result.firmware) };
  delete firmware.interpreter; // a path on the machine that ran it; measuredOn says what it was
  return { meta, codec: obj(result.codec), storage: obj(result.storage), firmware, chip: obj(result.chip) };
}
