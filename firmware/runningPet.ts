/**
 * The running pet: the one owner of the firmware's mutable state. Every change to it is a named
 * operation here: adopting a new world with its stamp (restore, hatch, import), the loop's step,
 * marking it dirty or asking for a save, pausing and resuming saving, writing a save and noting its
 * outcome, showing what changed. The console (petConsole.ts), the button (buttonAndLed.ts) and the
 * boot (app.ts) call these operations; none of them assigns a field.
 *
 * Nothing the owner types or the flash holds may stop the pet: storage problems are statuses,
 * printed as lines, never exceptions, and the loop step catches whatever it calls.
 *
 * Names ending in "_" are names the build shortens: terser renames every property whose name ends
 * in "_" to one or two characters (scripts/lib/build.js, TERSER_OPTIONS), because the interpreter
 * reads every character of a name each time a path uses it. The "_" does not mean private: other
 * files of the bundle use such members (petConsole.ts and app.ts call RunningPet's). It means the
 * name never leaves the bundle: nothing outside it (the `pet` console object, pet.status(), a board
 * profile, the flash) holds or reads a name that ends in "_".
 *
 * On the device this class is the hot path (a tick every second, a save on every press), so its
 * methods are few and do their work in place: on Espruino every call re-reads the callee's text, and
 * a tick that finds nothing to do must cost next to nothing (docs/speed.md). The pure rules live beside it: savePolicy.ts (when to save), clock.ts (what the
 * clocks are worth), report.ts (the words).
 */
import { createWorld, isValidName } from "../src/core/world";
import { quietUntil, tickWorld, updateWorld } from "../src/core/rules";
import { nameForDisplay, nameFromString } from "../src/core/name";
import { TWO_POW_32, u64IsSafe, u64IsZero, u64ToDecimal, u64ToNumber, U64_ZERO, MAX_SAFE, type U64 } from "../src/core/u64";
import type { PetEvent, World } from "../src/core/types";
import { addTimeAway, saveWorld, type LoadResult, type SaveResult } from "../src/save/codec";
import { ABSENCE_CLAMP_MS } from "../src/save/layout";
import type { PetEnv } from "../src/platform/env";
import type { PetBoard } from "./board";
import type { LogStatus } from "../src/storage/slotLog";
import { openPetStore, STORAGE_ERROR, type PetStore, type Restored, type SaveOutcome } from "./store";
import { misfitCode, misfitWords, regionMisfit } from "../src/boards/regionFit";
import type { PetDisplay } from "./display";
import type { PictureChange } from "./face";
import { lateAbsenceMs, MAX_TICK_DELTA_MS, tickDeltaMs, wallClockMs } from "./clock";
import { createSaveState, noteSaveAttempt, saveDue, PERIODIC_SAVE_MS, type SaveState } from "./savePolicy";
import { errorText, saveOutcomeText, statusHead, statusLine, statusTail } from "./report";

export const FALLBACK_PET_NAME = "Pip";

/**
 * Defined only by the device build (scripts/lib/build.js, buildDefines): true for a profile that
 * runs on Espruino, whose bundle then checks the region at boot without asking the board object
 * whether to, false for a simulator's, whose bundle then carries no check. Undeclared elsewhere
 * (typeof answers "undefined"), where the board's storageSizes decides.
 */
declare const BOARD_CHECKS_REGION: boolean | undefined;
/**
 * The profile's region and expected Storage size as constants, defined with BOARD_CHECKS_REGION:
 * terser writes them into the region check's body, which then reads no property to get them (0.08 M
 * instructions of the boot). Undeclared elsewhere, where the board's fields are read.
 */
declare const BOARD_REGION_ADDRESS: number | undefined;
declare const BOARD_REGION_SIZE: number | undefined;
declare const BOARD_PAGE_SIZE: number | undefined;
declare const BOARD_STORAGE_SIZES: number[] | undefined;

/** The loop's period. Each tick adds the measured time, so a late tick loses nothing. */
export const TICK_MS = 1000;

/** While saving is paused (the save could not be read), the restore is tried again this often (uptime ms). */
export const RESTORE_RETRY_MS = 60000;

/** What pet.save() and pet.rename() answer while saving is paused; nothing is written. */
export const SAVING_PAUSED = "paused";

/** The storage's status for a save whose commit mark was written but not confirmed (slotLog.ts). */
const COMMIT_UNKNOWN: LogStatus = "commit-unknown";
/** How a boot line that hatched the default pet without storage ends. */
const NOT_SAVED = " (not saved)";

/** What pet.save() answers, and pet.status().storage says, when the region could not be opened at all. */
const NO_STORAGE = "no-storage";

/**
 * What the panel shows in place of the activity while nothing will ever be saved (the region did not
 * fit the board, or could not be opened): the console line at boot says why.
 */
export const NOT_SAVING_NOTE = "NOT SAVING: see console";

/** How the owner ends a pause, for the lines that mention it. */
export const START_OVER = "pet.hatch() or pet.importHex() to start over";

/**
 * The board's pet name as bytes: the ones the build derived (defaultPetNameBytes), or else the
 * profile's text encoded here. That text is a string literal in the bundle (ASCII, with \u escapes):
 * its characters are code points, not UTF-8 bytes, so the Core's encoder is the right one for it; on
 * the ESP32 E.toUint8Array would store "\u00e9" as the single byte E9.
 */
function defaultPetName(board: PetBoard): Uint8Array {
  if (board.defaultPetNameBytes !== undefined) {
    const built = new Uint8Array(board.defaultPetNameBytes);
    if (isValidName(built)) return built;
  }
  const fromBoard = nameFromString(typeof board.defaultPetName === "string" ? board.defaultPetName : "");
  return fromBoard !== null ? fromBoard : (nameFromString(FALLBACK_PET_NAME) as Uint8Array);
}

/**
 * True for the slot log's statuses that mean no save of ours was ever committed in the region:
 * erased ("empty"), foreign data with no slot-log header anywhere ("no-log"), or log sectors with
 * not one commit mark set ("no-committed-save": the first save was cut before its mark; a sector
 * holding a committed save is never erased, so one would have left a set mark). Only these get a
 * new pet written at boot; anything else may hold a save.
 */
function noSaveOfOurs(status: string): boolean {
  return status === "empty" || status === "no-log" || status === "no-committed-save";
}

/** A U64 the world holds alone (see noteQuiet_), which the idle step may add to in place. */
type OwnedU64 = { hi: number; lo: number };

export class RunningPet {
  /**
   * env.getTime, kept apart and called as this method: the idle step reads the clock every second,
   * and on the emulated chip reaching it through env_ cost the step up to 3 000 instructions more.
   */
  private readonly getTime_: () => number;
  readonly env_: PetEnv;
  /** What boot and pet.hatch() hatch when no name is given. */
  readonly defaultName_: Uint8Array;
  /**
   * Read directly by pet.status() (petConsole.ts), where a call would cost more than the read; changed
   * only here. Null only inside boot_, until it has the restored world or the default pet.
   */
  world_: World;
  /** The stamp of the save the world came from or was last written as ("savedAtMs" of pet.status()). */
  /** Read directly by pet.status(), as world_ is. */
  savedAt_: U64;
  /** The slot log over the board's region; null when it could not be opened (nothing is saved). */
  private store_: PetStore | null;
  /** The panel, or null: then status lines go to the console instead. */
  private display_: PetDisplay | null;
  /** getTime() at the last step, idle or full. */
  private lastTime_: number;
  /**
   * Sum of the clamped deltas: the save policy's clock, immune to the clock being set. Behind by the
   * idle ticks not yet settled (settle_), as the world is.
   */
  private uptime_: number;
  private readonly saves_: SaveState;
  /** What the screen or the last status line shows, to redraw or print only on change. */
  private shownActivity_: number;
  private shownExpression_: number;
  /** The name bytes last shown, by identity (a rename or a new world brings a new array), and their text. */
  private shownName_: Uint8Array | null;
  private shownNameText_: string;
  /** The status line's head for what is shown (report.ts statusHead), or "" until a line needs it after a change. */
  private shownHead_: string;
  /** The last refused update's status, so a stuck world prints once rather than every second. */
  private lastRefusal_: string;
  /**
   * The restored save's stamp (ms) while its absence is still owed: the save knew the wall clock
   * but the boot did not. Paid once the clock becomes plausible (tick); 0 when nothing is owed.
   */
  private owedAbsenceSince_: number;
  /**
   * The restored save's stamp (ms; 0 when it had none), the base of the stamps written while the
   * wall clock is unknown: restored stamp + uptime since boot. The pet lived that uptime after the
   * restored save, so the real time of such a save is at least that; a later boot with a clock then
   * adds the absence owed since the restored save (not yet paid) as well as the one after the cut.
   * Writing 0 instead would forget both. Cleared when the pet is replaced (hatch, import).
   */
  private stampBase_: number;
  /**
   * Why saving is paused, or "" when it is not. A boot that found a log of ours but could not use its
   * save (a read failed, every committed slot failed the check, or the save is one this firmware
   * refuses) runs the default pet WITHOUT writing it: the save may be fine on the next read, or
   * readable by the firmware that wrote it, and a save of the stand-in pet would become the newest
   * one for good. Saving resumes after a restore that succeeds (retried every RESTORE_RETRY_MS) or
   * an explicit pet.hatch() / pet.importHex() / long-press hatch.
   */
  private pausedReason_: string;
  /** Uptime of the last restore attempt, for the retries while paused. */
  private lastRestoreTry_: number;
  /**
   * Why there is no store (store_ null): NO_STORAGE, or the region check's code when the region did
   * not fit the board ("region-not-free", ...). What pet.save() answers and pet.status().storage says.
   */
  private noStore_: string;
  /** "" or NOT_SAVING_NOTE: shown on the panel in place of the activity while nothing is ever saved. */
  private panelNote_: string;
  /**
   * The idle stretch's end, in getTime() seconds: a tick before it (and not before the last one)
   * is an idle step (see tick_); 0 when the next tick must take the full step. Set only by
   * noteQuiet_, at the end of every full step; every other way the state changes ends the stretch
   * first (settle_, then idleEnd_ 0: advance_, adoptWorld_, rename_, writeSave_, pauseSaving_,
   * worldChanged_), so an idle step only ever continues what a full step just left.
   */
  private idleEnd_: number;
  /**
   * Idle steps taken and not yet applied to the world (settle_ applies them). Read by pet.status()
   * (petConsole.ts), which settles only when there are some.
   */
  idleTicks_: number;
  /** getTime() of the last step applied to the world, in whole ms (rounded as tickDeltaMs rounds). */
  private idleFromMs_: number;
  /** saveStamp_'s wall-clock stamp for the step whose getTime() is stampedStep_ (-1 before the first). */
  private stepStamp_: number;
  private stampedStep_: number;

  constructor(board: PetBoard, env: PetEnv) {
    // Assigned in the order the idle step reads them: the interpreter finds a property by walking
    // the object's properties in the order they were created, and the idle step runs every second.
    const name = defaultPetName(board);
    this.getTime_ = env.getTime;
    this.idleEnd_ = 0;
    this.lastTime_ = env.getTime();
    this.idleTicks_ = 0;
    this.env_ = env;
    this.idleFromMs_ = 0;
    this.uptime_ = 0;
    // No world until the boot has one (boot_): the restored save's, or else the default pet. Making
    // the default here was work thrown away by every boot that restores (on the emulated chip about
    // 0.1 M instructions).
    this.world_ = null as unknown as World;
    this.saves_ = createSaveState();
    this.owedAbsenceSince_ = 0;
    this.pausedReason_ = "";
    this.lastRefusal_ = "";
    this.defaultName_ = name;
    this.savedAt_ = U64_ZERO;
    this.store_ = null;
    this.display_ = null;
    this.shownActivity_ = -1;
    this.shownExpression_ = -1;
    this.shownName_ = null;
    this.shownNameText_ = "";
    this.shownHead_ = "";
    this.stampBase_ = 0;
    this.lastRestoreTry_ = 0;
    this.noStore_ = NO_STORAGE;
    this.panelNote_ = "";
    this.stepStamp_ = 0;
    this.stampedStep_ = -1;
  }


  /** env.print that never throws: a broken console must not stop the pet. */
  print_(line: string): void {
    try {
      this.env_.print(line);
    } catch (e) {
      // Nowhere left to report to.
    }
  }

  /** The live world, brought up to the last tick (read it, never change it: the operations below do). */
  currentWorld_(): World {
    if (this.idleTicks_ !== 0) this.settle_();
    return this.world_;
  }

  /**
   * The wall clock in ms, or 0 while it is not plausible: clock.ts wallClockMs, whose one caller in
   * the bundle this is (the build writes it in here: every save and export reads the clock).
   */
  wallNow_(): number {
    const ms = this.env_.dateNow();
    return wallClockMs(ms);
  }

  // ---- Boot -----------------------------------------------------------------------------------

  /**
   * Boot: the display (drawn as soon as the pet exists), then the region: restore the newest save,
   * or hatch into a region with nothing of ours (and write the new pet at once), or pause saving
   * when a save is there but cannot be used. Returns the boot line, already printed and shown.
   */
  boot_(board: PetBoard, display: PetDisplay | null): string {
    this.display_ = display;
    const line = this.openAndRestore_(board);
    // Every way out but a restore runs the default pet (the hatch and the pause made it already).
    if (this.world_ === null) this.world_ = createWorld(this.defaultName_) as World;
    this.print_(line);
    this.noteShown_(); // the boot line said it all; no status line until something changes
    if (this.display_ !== null && !this.display_.show(this.world_, this.shownNameText_, undefined, this.panelNote_)) this.display_ = null;
    return line;
  }

  private openAndRestore_(board: PetBoard): string {
    // The default pet's name appears only in the lines of a boot that does not restore, so it is
    // made for those alone.
    try {
      // A board that does not report the region free, inside the chip and outside Storage never
      // has it touched, not even read (on the Linux build a read outside its flash file stops the
      // interpreter): the region is what the profile says, and this board is not that board.
      if (typeof BOARD_CHECKS_REGION !== "undefined" ? BOARD_CHECKS_REGION : board.storageSizes !== undefined) {
        const misfit = regionMisfit(
          this.env_.flash,
          this.env_.storageSize,
          typeof BOARD_REGION_ADDRESS !== "undefined" ? BOARD_REGION_ADDRESS : board.petRegion.address,
          typeof BOARD_REGION_ADDRESS !== "undefined" ? BOARD_REGION_ADDRESS + (BOARD_REGION_SIZE as number) : board.petRegion.address + board.petRegion.size,
          typeof BOARD_PAGE_SIZE !== "undefined" ? BOARD_PAGE_SIZE : board.petRegion.pageSize,
          typeof BOARD_STORAGE_SIZES !== "undefined" ? BOARD_STORAGE_SIZES : (board.storageSizes as number[]),
        );
        if (misfit !== 0) return this.refuseRegion_(misfit, board);
      }
      const opened = openPetStore(this.env_.flash, board.petRegion, board.petLayout);
      this.store_ = opened.store;
      if (this.store_ === null) return this.noStorage_(NO_STORAGE, "storage unavailable: " + opened.status);
      const r = this.restoreNewest_();
      if (r.status === "ok") return r.line;
      // The save this writes, and the pause's line, are the default pet's.
      this.world_ = createWorld(this.defaultName_) as World;
      if (noSaveOfOurs(r.status)) {
        // Write the new pet so that the next boot restores it; a failure joins the boot line.
        this.saves_.dirty = true;
        const saved = this.writeSave_();
        const line = r.line + ", hatched " + nameForDisplay(this.defaultName_);
        return saved.status === "ok" ? line : line + "; first save failed: " + saveOutcomeText(saved);
      }
      return this.pauseSaving_(r.line);
    } catch (e) {
      return this.noStorage_(NO_STORAGE, "storage unavailable: " + errorText(e));
    }
  }

  /** The boot line of a region that does not fit the board (regionMisfit's answer); nothing is ever stored. */
  private refuseRegion_(misfit: number, board: PetBoard): string {
    "rarely called";
    const code = misfitCode(misfit);
    const words = misfitWords(code, board.petRegion, board.storageSizes as number[], this.env_.storageSize);
    return this.noStorage_(code, "storage refused: " + code + " (" + words + ")");
  }

  /**
   * The pet runs without storage for good: no store, nothing ever read or written, `status` for
   * pet.save() and pet.status().storage, the note on the panel. Returns the boot line.
   */
  private noStorage_(status: string, why: string): string {
    this.store_ = null;
    this.noStore_ = status;
    this.panelNote_ = NOT_SAVING_NOTE;
    return why + ", hatched " + nameForDisplay(this.defaultName_) + NOT_SAVED;
  }

  /**
   * Whether saving works: "ok", SAVING_PAUSED while paused, or why there is no store (NO_STORAGE,
   * or the region check's code). pet.status().storage.
   */
  storageStatus_(): string {
    return this.store_ === null ? this.noStore_ : this.pausedReason_ !== "" ? SAVING_PAUSED : "ok";
  }

  /** The newest save read back exactly as a boot reads it, without adopting it (pet.checkSave()); null without a store. */
  readNewest_(): Restored | null {
    return this.store_ === null ? null : this.store_.restore(this.wallNow_());
  }

  /**
   * Reads the newest save and, when it loads, adopts it as the live world. Returns the boot line's
   * words ("restored ...") and the status: "ok", the slot log's status when there was no save, or
   * the codec's refusal of it; `wall` is the wall clock it loaded with (0: unknown).
   */
  private restoreNewest_(): { status: string; line: string; wall: number } {
    const wall = this.wallNow_(); // read once: the check, the load and the owed absence agree on it
    const found = (this.store_ as PetStore).restore(wall);
    const loaded = found.loaded;
    if (loaded === null) {
      return { status: found.status, line: (noSaveOfOurs(found.status) ? "no save found: " : "save unreadable: ") + found.reason, wall: wall };
    }
    if (loaded.status !== "ok" || loaded.world === null) return { status: loaded.status, line: "save rejected: " + loaded.status, wall: wall };
    this.adoptWorld_(loaded.world, loaded.savedAt, "restored");
    if (wall === 0) this.owedAbsenceSince_ = this.stampBase_;
    const w = this.world_;
    const away = loaded.absenceMs > 0 ? ", away " + Math.round(loaded.absenceMs / 1000) + " s" : "";
    const skipped = found.skipped > 0 ? " (passed over " + found.skipped + " newer unreadable save" + (found.skipped > 1 ? "s)" : ")") : "";
    return { status: "ok", line: "restored " + nameForDisplay(w.name) + ", updates " + u64ToDecimal(w.updateCount) + away + skipped, wall: wall };
  }

  // ---- Putting in a new world -------------------------------------------------------------------

  /**
   * Makes `world` the live world, with `savedAt`, the stamp of the save it came from (zero for a new
   * pet: it was never saved). A restored world keeps its stamp as the base of clockless stamps; a
   * world the owner put in (hatch, import) replaces the pet: nothing owed, no base, saving resumes
   * even if it was paused (the unreadable save may now be replaced), and the world is dirty.
   */
  private adoptWorld_(world: World, savedAt: U64, how: "restored" | "replaced"): void {
    // The stretch ended (the restore at boot runs this: settle_ only when there are steps)
    if (this.idleTicks_ !== 0) this.settle_();
    this.idleEnd_ = 0;
    this.world_ = world;
    this.savedAt_ = savedAt;
    this.lastRefusal_ = ""; // a refusal of the old pet says nothing about the new one: print it again
    if (how === "restored") {
      this.stampBase_ = !u64IsZero(savedAt) && u64IsSafe(savedAt) ? u64ToNumber(savedAt) : 0;
      return;
    }
    this.owedAbsenceSince_ = 0;
    this.stampBase_ = 0;
    this.saves_.dirty = true;
    this.pausedReason_ = "";
  }

  /** A new pet with these name bytes, written at once. */
  hatch_(name: Uint8Array): string {
    "rarely called";
    this.adoptWorld_(createWorld(name) as World, U64_ZERO, "replaced");
    return this.saveAndReport_();
  }

  /** A world the owner imported (already loaded by the codec), written at once. */
  importWorld_(loaded: LoadResult): string {
    "rarely called";
    this.adoptWorld_(loaded.world as World, loaded.savedAt, "replaced");
    this.print_("imported " + nameForDisplay(this.world_.name) + ", updates " + u64ToDecimal(this.world_.updateCount));
    return this.saveAndReport_();
  }

  /** Renames the pet and writes it; refused while saving is paused (the pet is a stand-in then). */
  rename_(name: Uint8Array): string {
    "rarely called";
    this.settle_();
    this.idleEnd_ = 0;
    if (this.pausedReason_ !== "") {
      this.print_("not renamed: saving paused (" + this.pausedReason_ + "); pet.hatch(name) or pet.importHex() to start over");
      return SAVING_PAUSED;
    }
    this.world_.name = name;
    this.saves_.dirty = true;
    return this.saveAndReport_();
  }

  // ---- Time and events --------------------------------------------------------------------------

  /**
   * Advances the world by the time since the last call (getTime(), clamped as clock.ts says), then
   * applies `event`. A change marks the world dirty for the periodic save; an activity change asks
   * for a save of its own. Returns the update's status.
   */
  advance_(event?: PetEvent, time?: number): string {
    // The stretch ended (settle_ called only when there are steps: this runs every full step and event)
    if (this.idleTicks_ !== 0) this.settle_();
    this.idleEnd_ = 0;
    const now = time === undefined ? this.getTime_() : time; // the tick passes the one it read
    let delta = 0;
    if (typeof now === "number" && now === now) {
      // clock.ts tickDeltaMs (rounded ms, 0 for a clock set backwards, at most a minute), written in
      // here and in saveStamp_ (/*@__INLINE__*/), so the bundle keeps no function for it.
      const ms = Math.round(now * 1000) - Math.round(this.lastTime_ * 1000);
      delta = /*@__INLINE__*/ tickDeltaMs(ms);
      this.lastTime_ = now;
    }
    this.uptime_ += delta;
    const w = this.world_;
    const before = w.activity;
    // tickWorld kept a function of the bundle (terser would write its one use here as a function
    // expression called at once, made anew at every full step and every save).
    const status = event === undefined ? /*@__NOINLINE__*/ tickWorld(w, delta) : updateWorld(w, delta, event);
    if (status !== "ok") {
      if (status !== this.lastRefusal_) this.print_("update refused: " + status);
      this.lastRefusal_ = status;
      return status;
    }
    this.lastRefusal_ = "";
    this.saves_.dirty = true;
    if (w.activity !== before) this.saves_.requested = "activity";
    return status;
  }

  /**
   * After a full step: where the idle stretch ends (idleEnd_). Nothing while anything is owed,
   * paused, asked for, failing or refused, or while the world is clean (the first step after a save
   * marks it dirty; an idle step does not); otherwise the least of what is left of the world's quiet
   * stretch (the Core's quietUntil: until then an update moves only the clock and the count), of the
   * time to the periodic save, and of advance_'s one-minute clamp (so that no single tick of the
   * stretch could have been clamped), as a getTime() before which a tick adds less than that.
   */
  private noteQuiet_(): void {
    const w = this.world_;
    const s = this.saves_;
    let ms = 0;
    if (this.owedAbsenceSince_ === 0 && this.pausedReason_ === "" && this.lastRefusal_ === "" && s.dirty && s.requested === null && !s.lastAttemptFailed) {
      ms = Math.min(quietUntil(w) - w.elapsed.lo, PERIODIC_SAVE_MS - (this.uptime_ - s.lastSaveAt), MAX_TICK_DELTA_MS);
    }
    // A tick at getTime() t adds round(t * 1000) - idleFromMs_ in all (tickDeltaMs), which is below
    // ms for every t * 1000 below idleFromMs_ + ms - 1 (the 1 keeps a rounding of the division out).
    const from = Math.round(this.lastTime_ * 1000);
    this.idleFromMs_ = from;
    this.idleEnd_ = ms > 1 ? (from + ms - 1) / 1000 : 0;
  }

  /**
   * Applies the idle steps taken since the last full step (or the last settle) to the world and the
   * uptime, as the full steps would have: the clock by the rounded time they spanned (their deltas
   * add up to it, see tickDeltaMs), the update count by one each. In place: the clock and the count
   * are the world's own objects here (an idle stretch starts only after a full step whose update
   * succeeded, and every update the Core makes leaves both as objects nothing else holds), and the
   * stretch keeps the clock's low half below quietUntil, so below 2^32. The count carries into its
   * high half as the Core's update would (a clock that stands still could idle that long).
   */
  settle_(): void {
    const ticks = this.idleTicks_;
    if (ticks === 0) return;
    const to = Math.round(this.lastTime_ * 1000);
    const ms = to - this.idleFromMs_;
    this.idleFromMs_ = to;
    this.idleTicks_ = 0;
    this.uptime_ += ms;
    const w = this.world_;
    (w.elapsed as OwnedU64).lo += ms;
    const count = w.updateCount as OwnedU64;
    const lo = count.lo + ticks;
    if (lo < TWO_POW_32) count.lo = lo;
    else {
      count.hi++;
      count.lo = lo - TWO_POW_32;
    }
  }

  /** The world was changed from outside the operations below (the bench does it): the next tick takes the full step. */
  worldChanged_(): void {
    this.settle_();
    this.idleEnd_ = 0;
  }

  /**
   * One loop step. The idle step when a full step would only add the time to the world clock and
   * count the update: the clock has not gone back since the last tick and is still before the end
   * of the stretch noteQuiet_ left (idleEnd_, from the Core's quietUntil). Then the tick only notes
   * its time and counts itself, and settle_ applies the stretch's steps to the world at once when
   * anything reads or changes it. On the device this runs every second, and on Espruino each
   * statement, and each call, costs thousands of instructions: the idle step is one call (the
   * clock), two comparisons and two assignments.
   * Otherwise the full step runs (tickFully_, right below: advance, pay an owed absence, retry a
   * paused restore, save if due, show), which ends by noting the new idle stretch.
   *
   * The idle step has no try of its own (on the emulated chip a try cost a tenth of it): only
   * getTime() could throw there, Espruino's own cannot, and an error thrown out of an interval's
   * function is reported by Espruino ("Uncaught ...") and the interval runs on, as the desktop's
   * timers do (src/host/emulator/timers.ts). The full step catches its own errors.
   *
   * The idle step is the fast form of that full step: test/firmware-idle-step-agrees.test.ts holds
   * the two equal over random runs (fast-check), and test/core-tick-world.test.ts the Core's fast
   * step (tickWorld) to updateWorld.
   */
  tick_(): void {
    const now = this.getTime_(); // read once: the idle step or the full one uses it
    // NaN (a clock that is not a number) fails both: the full step. One expression: on the chip
    // an if with a return cost more.
    now < this.idleEnd_ && now >= this.lastTime_ ? ((this.lastTime_ = now), this.idleTicks_++) : this.tickFully_(now);
  }

  /** The full loop step: advance, pay an owed absence, retry a paused restore, save if due, show. */
  private tickFully_(now: number): void {
    try {
      this.advance_(undefined, now);
      if (this.owedAbsenceSince_ !== 0) this.payOwedAbsence_();
      if (this.pausedReason_ !== "") this.retryRestore_();
      if (!this.saveIfDue_()) this.refresh_("");
    } catch (e) {
      this.print_("pet: tick failed: " + errorText(e));
    } finally {
      this.noteQuiet_();
    }
  }

  /** A press of the button or pet.interact(): the event, a save asked for, what changed shown. */
  interact_(): string {
    const status = this.advance_("interact");
    if (status !== "ok") return status;
    this.saves_.requested = "interact";
    if (!this.saveIfDue_()) this.refresh_("");
    return "ok";
  }

  /** Adds the absence a boot without a wall clock could not, once the clock is known (see clock.ts). */
  private payOwedAbsence_(): void {
    "rarely called";
    const wall = this.wallNow_();
    if (wall === 0) return; // still unknown: keep waiting
    const away = lateAbsenceMs(this.owedAbsenceSince_, wall, this.uptime_);
    this.owedAbsenceSince_ = 0;
    if (away === 0) return;
    if (!addTimeAway(this.world_, away)) return; // the world clock is at its end; a restore would have refused too
    this.saves_.dirty = true;
    this.print_("wall clock now known: added " + Math.round(away / 1000) + " s away");
  }

  /**
   * While paused, tries the restore again every RESTORE_RETRY_MS. A save that reads now replaces the
   * stand-in pet and saving resumes. With no wall clock, the time the stand-in ran is added to the
   * restored pet's clock as time away (clamped like an absence), since the restored pet was not
   * running meanwhile; with a wall clock the restore's own absence rule already covers it.
   */
  private retryRestore_(): void {
    "rarely called";
    if (this.store_ === null || this.uptime_ - this.lastRestoreTry_ < RESTORE_RETRY_MS) return;
    this.lastRestoreTry_ = this.uptime_;
    const ranFor = this.uptime_;
    const r = this.restoreNewest_();
    if (r.status !== "ok") return; // still unreadable: the boot line said so, stay quiet
    if (r.wall === 0) addTimeAway(this.world_, Math.min(ranFor, ABSENCE_CLAMP_MS));
    this.pausedReason_ = "";
    noteSaveAttempt(this.saves_, this.uptime_, true); // the restored save is the last save: nothing is due
    this.print_("save readable again: " + r.line + "; saving resumed");
  }

  // ---- Saving -----------------------------------------------------------------------------------

  /** Stops saving (see pausedReason) and returns the boot line that says so. */
  private pauseSaving_(why: string): string {
    "rarely called";
    this.settle_();
    this.idleEnd_ = 0;
    this.pausedReason_ = why;
    this.lastRestoreTry_ = this.uptime_;
    return why + "; running " + nameForDisplay(this.world_.name) + " without saving; " + START_OVER;
  }

  /**
   * The stamp for a save of the world as it stands, which is the world as of its last step (idle
   * steps settled): the wall clock at that step (now, less the time since the step, which the next
   * boot then counts as time away), else the estimate from stampBase (its uptime is the step's too),
   * else 0.
   */
  saveStamp_(): number {
    const wall = this.wallNow_();
    if (wall !== 0) {
      // One stamp per step, so saves of the world as one step left it are the same bytes (two
      // clocks read a moment apart would put them a millisecond apart now and then).
      if (this.stampedStep_ !== this.lastTime_) {
        // The time since the step, measured and clamped as advance_ measures and clamps a step:
        // getTime() jumps when the clock is set, and the years such a jump spans must not be taken
        // off a stamp that is read from the clock already set.
        this.stepStamp_ = wall - /*@__INLINE__*/ tickDeltaMs(Math.round(this.getTime_() * 1000) - Math.round(this.lastTime_ * 1000));
        this.stampedStep_ = this.lastTime_;
      }
      return this.stepStamp_;
    }
    if (this.stampBase_ === 0) return 0;
    const estimate = this.stampBase_ + this.uptime_;
    return estimate <= MAX_SAFE ? estimate : this.stampBase_; // saveWorld takes numbers up to 2^53 - 1
  }

  /** The live world encoded as it would be saved now (pet.exportHex()). */
  encodeNow_(): SaveResult {
    if (this.idleTicks_ !== 0) this.settle_(); // the world and the uptime (the clockless stamp's) as of the last tick
    return saveWorld(this.world_, this.saveStamp_());
  }

  /** Encodes and writes the world now and notes the outcome, which it answers; never prints. */
  private writeSave_(): SaveOutcome {
    // The stretch ended. pet.save() comes here without a step, so its idle steps are settled here:
    // a save of a world behind them would be a save of the past (saveStamp_ stamps the last step).
    if (this.idleTicks_ !== 0) this.settle_();
    this.idleEnd_ = 0;
    if (this.pausedReason_ !== "") return { status: SAVING_PAUSED, message: "" };
    const stamp = this.saveStamp_();
    const encoded = saveWorld(this.world_, stamp);
    let outcome: SaveOutcome;
    if (encoded.bytes === null) outcome = { status: encoded.status, message: "" };
    else if (this.store_ === null) outcome = { status: this.noStore_, message: "" };
    else {
      try {
        outcome = this.store_.save(encoded.bytes);
      } catch (e) {
        outcome = { status: STORAGE_ERROR, message: errorText(e) };
      }
    }
    const status = outcome.status;
    noteSaveAttempt(this.saves_, this.uptime_, status === "ok");
    if (status === "ok") {
      // The stamp as the payload now holds it, split as saveWorld split it (written out: a call of
      // u64FromNumber cost the save more than this). saveStamp_ gives a whole number from 0 to
      // 2^53 - 1: the floored wall clock, or the whole stamp base plus the whole uptime.
      const hi = Math.floor(stamp / TWO_POW_32);
      this.savedAt_ = { hi: hi, lo: stamp - hi * TWO_POW_32 };
    }
    else if (status === COMMIT_UNKNOWN) {
      // The next boot may return this save or the one before: ask for another, so the loop writes it
      // once the retry gap has passed even if nothing else would (pet.save() asks for no save of its
      // own, and a pet that changes nothing is never periodically saved). Its success is the newest.
      this.saves_.requested = COMMIT_UNKNOWN;
      this.saves_.dirty = true;
    }
    return outcome;
  }

  /**
   * Writes the world now and says how it went (the status line, or the panel plus failures);
   * answers what the console says of it ("ok", or the outcome's text).
   *
   * `quiet` is pet.save()'s, which the console calls here directly: the world as it stands, written
   * with no step of its own. The loop steps the world every second and every event steps it, so it
   * stands at most a tick behind, and the save is stamped with that step's instant (saveStamp_), so
   * the next boot counts what came after it as time away and nothing is lost; pet.status() and
   * pet.exportHex() show the same world. A quiet save that goes through prints no line (the
   * console's answer says so, and the picture did not change); one that does not prints why, as
   * every save does.
   */
  saveAndReport_(quiet?: boolean): string {
    const saved = this.writeSave_();
    const status = saved.status;
    if (status === "ok") {
      if (!quiet) this.refresh_("saved");
      return status;
    }
    const text = saveOutcomeText(saved);
    this.refresh_(status === SAVING_PAUSED ? "not saved: saving paused (" + START_OVER + ")" : "save failed: " + text);
    return text;
  }

  /** Writes the world if the save policy says so; true when it did (and so already refreshed). */
  private saveIfDue_(): boolean {
    if (this.pausedReason_ !== "") return false; // nothing is written while paused, not even retries
    if (saveDue(this.saves_, this.uptime_) === null) return false;
    this.saveAndReport_();
    return true;
  }

  // ---- Showing ----------------------------------------------------------------------------------

  /**
   * Notes what is on show now; answers which parts differ from what was shown, or null when none
   * does (no strings are built per tick; the name's text only when the name changed).
   */
  private noteShown_(): PictureChange | null {
    const w = this.world_;
    const activity = w.activity !== this.shownActivity_;
    const expression = w.expression !== this.shownExpression_;
    const name = w.name !== this.shownName_;
    if (!activity && !expression && !name) return null;
    this.shownHead_ = "";
    this.shownActivity_ = w.activity;
    this.shownExpression_ = w.expression;
    if (name) {
      this.shownName_ = w.name;
      this.shownNameText_ = nameForDisplay(w.name);
    }
    return { name: name, expression: expression, activity: activity };
  }

  /**
   * Brings the outside up to date. `note` is "" or what a save did. With a display the picture is
   * redrawn when it changed and only failures are printed; without one a status line is printed on
   * every change and every save.
   */
  private refresh_(note: string): void {
    const changed = this.noteShown_();
    if (this.display_ !== null) {
      // Only the pages under the parts that changed go to the panel (face.ts changedRows).
      if (changed !== null && !this.display_.show(this.world_, this.shownNameText_, changed, this.panelNote_)) this.display_ = null; // it printed why; lines from now on
      if (note !== "" && note !== "saved") this.print_(statusLine(this.world_, note, this.shownNameText_));
      return;
    }
    if (changed === null && note === "") return;
    if (this.shownHead_ === "") this.shownHead_ = statusHead(this.world_, this.shownNameText_);
    this.print_(this.shownHead_ + statusTail(this.world_.updateCount, note));
  }
}
