/**
 * The bench's conversation with one emulated ESP32 (chip.ts says what is measured): the chip started
 * on a fresh flash image with the kit's instruction counter, `.bootcde` written and booted, floor.js
 * and the probe evaluated from Storage, and the counting windows opened by marker calls on the chip
 * (src/host/node/emulatedChip/chipConsole.ts) read around one boot, one operation or a run of ticks.
 *
 * The emulated chip is fragile on a busy host: a core whose thread the host does not run in time
 * trips the firmware's interrupt watchdog (often in ESP-IDF's flash guard, where the cores wait for
 * each other), and the reboot that follows may hang before Espruino starts. So every step here is
 * one that can be taken again: when one fails, the chip's power is cut and switched on again (its
 * flash file, and so Storage and the pet's region, kept), what the step needs is put back (the
 * right `.bootcde` booted, the floor evaluated and set up), and the step is taken again, up to
 * STEP_TRIES times; the count of a step that failed is never used.
 */
import { join } from "node:path";
import { makeFlashImage, startChip, waitForPrompt, type Chip, type Kit } from "../../src/host/node/emulatedChip/qemuChip";
import { countWindow, evaluateOnChip, markerCall, MARK_START_PC, MARK_STOP_PC, storageFileCrc, textCrc, writeStorageFileOnChip } from "../../src/host/node/emulatedChip/chipConsole";
import { openBoardConsole, type BoardConsole } from "../../src/host/node/serial/boardConsole";
import type { RegionLayout } from "../../src/storage/regionLayout";
import type { StorageFile } from "../../src/boards/bundleForm";
import { errorText } from "./benchTables";

/** Scratch pages for the floor's saves: erased flash the chip reports free, away from the pet and Storage. */
const SCRATCH_PAGES = 8;
const PAGE = 4096;
/** Where Storage starts on every partition table of Espruino's ESP32 builds (boards/esp32.json, storageArea). */
const STORAGE_START = 0x320000;
/** How long a boot from `.bootcde` may take. */
const BOOT_MS = 60_000;
/** The Storage file the probe is kept in beside the firmware (chip.ts builds it for this file), and its function form's body. */
export const PROBE_FILE = "probe.js";
export const PROBE_BODY_FILE = "probefw";
/** Tries of one step, the chip powered off and on again between them. */
const STEP_TRIES = 4;

export interface ChipSession {
  /** process.env.VERSION of the chip's Espruino. */
  version: string;
  /** What the figures were measured on, in words. */
  measuredOn: string;
  /**
   * The bundle's `files` written, the last (`.bootcde`) as marker, its code, marker; booted once
   * uncounted when `pet` (the first boot hatches the pet's first save), then `runs` times counted:
   * the windows, JsVars after, the boot line.
   */
  countBoots(files: StorageFile[], runs: number, pet: boolean): Promise<{ counts: number[]; usage: number; bootLine: string }>;
  /** Counts one run of floor.js's benchMarked(name) `runs` times, beside the pet (`firmware` as `.bootcde`) with the probe and the floor. */
  countOp(name: string, runs: number): Promise<number[]>;
  /** The ticks of the tick entry, `runs` windows of `n` ticks. */
  countTicks(n: number, redraw: boolean, dry: boolean, runs: number, settle?: boolean): Promise<{ counts: number[]; did: unknown }>;
  /** What the ops and the ticks run: the firmware, the probe, the tick entry, the region's layout. */
  setBundles(b: Bundles): void;
  /** Times the chip was powered off and on again to take a step again (or to boot at all). */
  restarts(): number;
  close(): Promise<void>;
}

/** What the ops and the ticks run, each as the Storage files of its form (the last is `.bootcde`, or the probe's file). */
interface Bundles {
  firmware: StorageFile[];
  probe: StorageFile[];
  ticks: StorageFile[];
  petLayout: RegionLayout;
}

/** The two marker functions, as arguments of a call typed on the chip. */
const MARKS = ["E.nativeCall(" + MARK_START_PC + ',"void()")', "E.nativeCall(" + MARK_STOP_PC + ',"void()")'].join(",");
/** Stops what runs, so nothing runs from a `.bootcde` that is being replaced. */
const QUIET = "(function(){clearInterval();clearTimeout();clearWatch();return 1})()";

/** One line of progress on stderr: the section takes minutes, and a chip starved by the host longer. */
function say(line: string): void {
  process.stderr.write("chip: " + line + "\n");
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** The bundle's files with the last one's code between the two markers: the window is its run from `.bootcde`. */
function marked(files: StorageFile[]): StorageFile[] {
  const run = files[files.length - 1]!;
  return [...files.slice(0, -1), { name: run.name, code: markerCall(MARK_START_PC) + ";\n" + run.code + "\n;" + markerCall(MARK_STOP_PC) + ";" }];
}

/** Waits until the chip answers `expr` with true (load() restarts the interpreter: lines typed meanwhile may go unanswered). */
async function until(con: BoardConsole, expr: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if ((await evaluateOnChip(con, expr, 3000)) === true) return;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error("the chip did not answer " + expr + " within " + ms / 1000 + " s");
    await sleep(500);
  }
}

/** The chip's flash that the floor may erase: in Flash.getFree(), beyond Storage and outside the pet region. */
async function scratchArea(con: BoardConsole, petRegion: { address: number; size: number }): Promise<number> {
  const free = await evaluateOnChip<{ addr: number; length: number }[]>(con, 'require("Flash").getFree()');
  const storageEnd = STORAGE_START + (await evaluateOnChip<number>(con, "process.env.STORAGE"));
  const size = SCRATCH_PAGES * PAGE;
  for (const f of free) {
    const at = Math.max(f.addr, storageEnd);
    const clearOfPet = at + size <= petRegion.address || at >= petRegion.address + petRegion.size;
    if (at % PAGE === 0 && at + size <= f.addr + f.length && clearOfPet) return at;
  }
  throw new Error("no " + size + " bytes of free flash beyond Storage on the chip for the floor's saves");
}

export async function openChipSession(kit: Kit, work: string, floor: string): Promise<ChipSession> {
  const image = join(work, "flash.bin");
  await makeFlashImage(kit, image);
  say("starting the emulated ESP32");
  const chip: Chip = await startChip(kit, image, { countInsns: join(work, "insns") });
  let con: BoardConsole | null = null;
  try {
    await waitForPrompt(chip); // a start-up the host starves into a panic or a hang is powered on again there
    con = await openBoardConsole(chip.consoleUrl);
    const [version, board, sdk] = await evaluateOnChip<string[]>(con, "[process.env.VERSION,process.env.BOARD,ESP32.getState().sdkVersion]");
    const measuredOn =
      "Espruino " + version + " for " + board + " (ESP-IDF " + sdk + "), its own firmware as people flash it, in the emulated ESP32 of ../shared/esp32-qemu (Espressif's QEMU): Xtensa instructions of core 0";
    return new Session(chip, con, version!, measuredOn, floor);
  } catch (e) {
    await con?.close();
    await chip.stop();
    throw e;
  }
}

class Session implements ChipSession {
  private restartCount = 0;
  /** What is running on the chip now: the floor set up beside the pet, the tick entry, or neither. */
  private ready: "" | "ops" | "ticks" = "";
  private bundles: Bundles | null = null;

  constructor(
    private readonly chip: Chip,
    private con: BoardConsole,
    readonly version: string,
    readonly measuredOn: string,
    private readonly floor: string,
  ) {}

  setBundles(b: Bundles): void {
    this.bundles = b;
  }

  restarts(): number {
    return this.restartCount + this.chip.earlyPanics;
  }

  async close(): Promise<void> {
    await this.con.close();
    await this.chip.stop();
  }

  /** The chip's power cut and switched on again; the console opened again. */
  private async restart(): Promise<void> {
    this.restartCount++;
    this.ready = "";
    await this.con.close();
    await this.chip.powerCut();
    await waitForPrompt(this.chip); // powers a start-up that panics or hangs on again (three times at most)
    this.con = await openBoardConsole(this.chip.consoleUrl);
  }

  /** `step()`, taken again after a restart when it fails, STEP_TRIES times at most. */
  private async step<T>(what: string, step: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await step();
      } catch (e) {
        if (attempt >= STEP_TRIES) throw e;
        say(what + " failed (" + errorText(e).split("\n")[0]!.slice(0, 160) + "): the chip is switched off and on again");
        await this.restart();
      }
    }
  }

  /** load(): `.bootcde` runs afresh; resolves once `waitFor` answers true. */
  private async boot(waitFor: string): Promise<void> {
    await this.con.send("\x10load()\n");
    await sleep(1000);
    await until(this.con, waitFor, BOOT_MS);
  }

  /** The bundle's files (`.bootcde` last), each written only when it differs, and nothing running from the old ones meanwhile. */
  private async bootcde(files: StorageFile[]): Promise<boolean> {
    let wrote = false;
    for (const f of files) {
      if ((await storageFileCrc(this.con, f.name)) === textCrc(f.code)) continue;
      say("writing " + f.name + " (" + f.code.length + " bytes)");
      if (!wrote) await evaluateOnChip(this.con, QUIET);
      await writeStorageFileOnChip(this.con, f.name, f.code);
      wrote = true;
    }
    if (wrote) this.ready = "";
    return wrote;
  }

  async countBoots(files: StorageFile[], runs: number, pet: boolean): Promise<{ counts: number[]; usage: number; bootLine: string }> {
    const ready = pet ? 'typeof pet=="object"' : "true";
    const file = marked(files);
    say("booting " + (pet ? "the firmware" : "an empty .bootcde") + " " + runs + " times");
    const counts: number[] = [];
    let first = pet;
    while (counts.length < runs) {
      const n = await this.step("boot " + (counts.length + 1), async () => {
        if ((await this.bootcde(file)) && pet) first = true;
        if (first) await this.boot(ready); // the first boot of a fresh region hatches the first save
        first = false;
        return countWindow(this.chip.insns, this.con, () => this.boot(ready));
      });
      counts.push(n);
    }
    const usage = await evaluateOnChip<number>(this.con, "process.memory().usage");
    const lines = this.con.lines.filter((l) => /^(restored|no save found|save unreadable|storage)/.test(l));
    this.ready = "";
    return { counts, usage, bootLine: lines[lines.length - 1] ?? "" };
  }

  /**
   * The pet running from `.bootcde` (the boots' marked one, so that it is not written again: the
   * window it opens at boot is over before any op's), the probe and the floor evaluated beside it,
   * its interval stopped, benchInit done.
   */
  private async opsReady(): Promise<void> {
    if (this.ready === "ops") return;
    const b = this.bundles!;
    await writeIfDifferent(this.con, "floor.js", this.floor);
    for (const f of b.probe) await writeIfDifferent(this.con, f.name, f.code);
    await this.bootcde(marked(b.firmware));
    await this.boot('typeof pet=="object"');
    await evaluateOnChip(this.con, "(function(){clearInterval();return 1})()");
    for (const file of ["floor.js", PROBE_FILE]) await evaluateOnChip(this.con, 'eval(require("Storage").read(' + JSON.stringify(file) + ")),1");
    const scratch = await scratchArea(this.con, b.petLayout);
    await evaluateOnChip(this.con, "benchInit(" + JSON.stringify({ scratch, pages: SCRATCH_PAGES, pageSize: PAGE, petLayout: b.petLayout }) + ")", 120_000);
    const check = await evaluateOnChip<string>(this.con, "benchCheck()", 120_000);
    if (check !== "ok") throw new Error("benchCheck on the chip: " + check);
    this.ready = "ops";
  }

  async countOp(name: string, runs: number): Promise<number[]> {
    say(name + ", " + runs + " runs");
    const counts: number[] = [];
    while (counts.length < runs) {
      const i = counts.length;
      counts.push(
        await this.step(name + " run " + (i + 1), async () => {
          await this.opsReady();
          return countWindow(this.chip.insns, this.con, () => evaluateOnChip(this.con, "benchMarked(" + JSON.stringify(name) + "," + i + "," + MARKS + ")", 120_000));
        }),
      );
    }
    return counts;
  }

  async countTicks(n: number, redraw: boolean, dry: boolean, runs: number, settle = false): Promise<{ counts: number[]; did: unknown }> {
    say((redraw ? "redraw" : "idle") + " ticks" + (settle ? " and their settle" : "") + (dry ? " (the loop dry)" : "") + ", " + runs + " runs");
    const counts: number[] = [];
    let did: unknown = null;
    while (counts.length < runs) {
      counts.push(
        await this.step("ticks", async () => {
          if (this.ready !== "ticks") {
            await this.bootcde(this.bundles!.ticks);
            await this.boot('typeof benchTicks=="function"');
            this.ready = "ticks";
          }
          return countWindow(this.chip.insns, this.con, async () => (did = await evaluateOnChip(this.con, "benchTicks(" + n + "," + redraw + "," + dry + "," + MARKS + "," + settle + ")", 120_000)));
        }),
      );
    }
    return { counts, did };
  }
}

/** Storage file `name` = `text`, written only when its CRC differs. */
async function writeIfDifferent(con: BoardConsole, name: string, text: string): Promise<void> {
  if ((await storageFileCrc(con, name)) !== textCrc(text)) await writeStorageFileOnChip(con, name, text);
}
