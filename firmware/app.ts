/**
 * The firmware: boot, the device loop, the save policy, the button, the LED, the display and the
 * `pet` console object, as startPet(board, env).
 *
 * It reads no global: everything the machine offers comes in `env` (see env.ts), so the same code
 * runs on the ESP32, on the Linux build of the interpreter and, with fakes, in Node's tests.
 *
 * Nothing the owner types or the flash holds may stop the pet: every way in (the tick, the button,
 * each console method) catches what it calls, prints one line and carries on. Storage problems are
 * statuses, printed as lines, never exceptions.
 */
import { createWorld } from "../src/core/world";
import { updateWorld } from "../src/core/rules";
import { nameForDisplay, nameFromString, utf8Decode } from "../src/core/name";
import { bytesToHex, hexToBytes } from "../src/core/hex";
import { ABSENCE_CLAMP_MS } from "../src/save/layout";
import { u64Add, u64FromNumber, u64IsSafe, u64IsZero, u64ToDecimal, u64ToNumber, U64_ZERO, MAX_SAFE, type U64 } from "../src/core/u64";
import type { PetEvent, World } from "../src/core/types";
import { loadWorld, saveWorld } from "../src/save/codec";
import { describeStatus } from "../src/save/status";
import type { PetEnv } from "./env";
import { lateAbsenceMs, tickDeltaMs, wallClockMs } from "./clock";
import { createSaveState, noteSaveAttempt, saveDue } from "./savePolicy";
import { createButtonMachine, BUTTON_DEBOUNCE_MS } from "./button";
import { openPetStore, type PetStore } from "./store";
import { errorText, statusLine } from "./report";
import { payloadJson, type PayloadJson } from "../src/save/payloadJson";
import { createDisplay, type PetDisplay } from "./display";
import type { PetBoard } from "./board";

/** The loop's period. Each tick adds the measured time, so a late tick loses nothing. */
export const TICK_MS = 1000;
export const FALLBACK_PET_NAME = "Pip";
/** While saving is paused (the save could not be read), the restore is tried again this often (uptime ms). */
export const RESTORE_RETRY_MS = 60000;
/** What pet.save() and pet.rename() answer while saving is paused; nothing is written. */
export const SAVING_PAUSED = "paused";

/** The console object published as the global `pet`. Every method returns instead of throwing. */
export interface PetConsole {
  /** The keys and values `pet-save decode --json` prints for the live world; null if it cannot be built. */
  status(): PayloadJson | null;
  save(): string;
  interact(): string;
  rename(name: string): string;
  hatch(name?: string): string;
  exportHex(): string;
  importHex(hex: string): string;
}

/** A running pet, for the entry point and the tests. */
export interface PetApp {
  pet: PetConsole;
  /** The boot line, as printed. */
  bootLine: string;
  /** One loop step (the interval calls this). */
  tick(): void;
  /** Stops the loop (tests; the device never stops). */
  stop(): void;
  /** The live world (tests). */
  world(): World;
}

export function startPet(board: PetBoard, env: PetEnv): PetApp {
  function print(line: string): void {
    try {
      env.print(line);
    } catch (e) {
      // Nowhere left to report to.
    }
  }

  /**
   * A name the owner typed, as bytes: through E.toUint8Array where the interpreter has it (see
   * env.ts; on the ESP32 a typed string is already UTF-8 bytes), else the Core's encoder.
   */
  function typedName(name: unknown): Uint8Array | null {
    if (typeof name !== "string") return null;
    return env.utf8Bytes !== undefined ? nameFromString(name, env.utf8Bytes) : nameFromString(name);
  }

  /** The name as console text, the way typedName reads it in (pet.status().name). */
  function nameText(bytes: Uint8Array): string {
    if (env.utf8Text !== undefined) {
      const text = env.utf8Text(bytes);
      if (typeof text === "string") return text;
    }
    return utf8Decode(bytes);
  }

  // The profile's name is a string literal in the bundle (ASCII, with \u escapes): its characters
  // are code points, not UTF-8 bytes, so the Core's encoder is the right one for it; on the ESP32
  // E.toUint8Array would store "\u00e9" as the single byte E9.
  let defaultName = nameFromString(typeof board.defaultPetName === "string" ? board.defaultPetName : "");
  if (defaultName === null) defaultName = nameFromString(FALLBACK_PET_NAME) as Uint8Array;
  const defaultNameBytes: Uint8Array = defaultName;

  let world = createWorld(defaultNameBytes) as World;
  /** The stamp of the last save written or restored ("savedAtMs" of pet.status()). */
  let savedAt: U64 = U64_ZERO;
  let store: PetStore | null = null;
  let display: PetDisplay | null = null;
  let lastTime = env.getTime();
  /** Sum of the clamped deltas: the save policy's clock, immune to the clock being set. */
  let uptime = 0;
  const saves = createSaveState();
  /** What the screen or the last status line shows, to print or redraw only on change. */
  let shownActivity = -1;
  let shownExpression = -1;
  /** The name bytes last shown, by identity: a rename or a new world brings a new array. */
  let shownName: Uint8Array | null = null;
  /** The last refused update's status, so a stuck world prints once rather than every second. */
  let lastRefusal = "";
  let interval: unknown = null;
  /**
   * The restored save's stamp (ms) while its absence is still owed: the save knew the wall clock
   * but the boot did not. Paid once the clock becomes plausible; 0 when nothing is owed.
   */
  let owedAbsenceSince = 0;
  /**
   * The restored save's stamp (ms; 0 when it had none), the base of the stamps written while the
   * wall clock is unknown: restored stamp + uptime since boot. The pet lived that uptime after the
   * restored save, so the real time of such a save is at least that; a later boot with a clock then
   * adds the absence owed since the restored save (not yet paid) as well as the one after the cut.
   * Writing 0 instead would forget both. Cleared when the pet is replaced (hatch, import).
   */
  let stampBase = 0;
  /**
   * Why saving is paused, or "" when it is not. A boot that found a log of ours but could not use its
   * save (a read failed, every committed slot failed the check, or the save is one this firmware
   * refuses) runs the default pet WITHOUT writing it: the save may be fine on the next read, or
   * readable by the firmware that wrote it, and a save of the stand-in pet would become the newest
   * one for good. Saving resumes after a restore that succeeds (retried every RESTORE_RETRY_MS) or an
   * explicit pet.hatch() / pet.importHex() / long-press hatch.
   */
  let pausedReason = "";
  /** Uptime of the last restore attempt, for the retries while paused. */
  let lastRestoreTry = 0;

  function wallNow(): number {
    return wallClockMs(env.dateNow());
  }

  /** The stamp for a save written now: the wall clock, else the estimate from stampBase, else 0. */
  function saveStamp(): number {
    const wall = wallNow();
    if (wall !== 0 || stampBase === 0) return wall;
    const estimate = stampBase + uptime;
    return estimate <= MAX_SAFE ? estimate : stampBase; // saveWorld takes numbers up to 2^53 - 1
  }

  /** Encodes and writes the world now. Returns "ok" or why not; never prints. */
  function writeSave(): string {
    if (pausedReason !== "") return SAVING_PAUSED;
    const stamp = saveStamp();
    const encoded = saveWorld(world, stamp);
    let status: string = encoded.status;
    if (encoded.status === "ok" && encoded.bytes !== null) {
      if (store === null) status = "no-storage";
      else {
        try {
          status = store.save(encoded.bytes);
        } catch (e) {
          status = "storage-error " + errorText(e);
        }
      }
    }
    noteSaveAttempt(saves, uptime, status === "ok");
    if (status === "ok") savedAt = u64FromNumber(stamp) || U64_ZERO;
    return status;
  }

  /** Notes what is on show now; true when it differs from what was shown (no strings built per tick). */
  function noteShown(w: World): boolean {
    const changed = w.activity !== shownActivity || w.expression !== shownExpression || w.name !== shownName;
    shownActivity = w.activity;
    shownExpression = w.expression;
    shownName = w.name;
    return changed;
  }

  /**
   * Brings the outside up to date after anything happened. `note` is "" or what a save did. With a
   * display the picture is redrawn when it changed and only failures are printed; without one a
   * status line is printed on every change and every save.
   */
  function refresh(note: string): void {
    const changed = noteShown(world);
    if (display !== null) {
      if (changed && !display.show(world)) display = null; // it printed why; lines from now on
      if (note !== "" && note !== "saved") print(statusLine(world, note));
      return;
    }
    if (changed || note !== "") print(statusLine(world, note));
  }

  /** How the owner ends a pause, for the lines that mention it. */
  const START_OVER = "pet.hatch() or pet.importHex() to start over";

  function saveAndReport(): string {
    const status = writeSave();
    if (status === SAVING_PAUSED) refresh("not saved: saving paused (" + START_OVER + ")");
    else refresh(status === "ok" ? "saved" : "save failed: " + status);
    return status;
  }

  /** Advances the world by the time since the last call, then applies `event`. */
  function advance(event?: PetEvent): string {
    const now = env.getTime();
    let delta = 0;
    if (typeof now === "number" && now === now) {
      delta = tickDeltaMs(now - lastTime);
      lastTime = now;
    }
    uptime += delta;
    const before = world.activity;
    const status = updateWorld(world, delta, event);
    if (status !== "ok") {
      if (status !== lastRefusal) print("update refused: " + status);
      lastRefusal = status;
      return status;
    }
    lastRefusal = "";
    saves.dirty = true;
    if (world.activity !== before) saves.requested = "activity";
    return status;
  }

  function saveIfDue(): boolean {
    if (pausedReason !== "") return false; // nothing is written while paused, not even retries
    if (saveDue(saves, uptime) === null) return false;
    saveAndReport();
    return true;
  }

  /** Adds the absence a boot without a wall clock could not, once the clock is known (see clock.ts). */
  function payOwedAbsence(): void {
    if (owedAbsenceSince === 0) return;
    const now = env.dateNow();
    if (wallClockMs(now) === 0) return; // still unknown: keep waiting
    const away = lateAbsenceMs(owedAbsenceSince, now, uptime);
    owedAbsenceSince = 0;
    if (away === 0) return;
    const later = u64Add(world.elapsed, u64FromNumber(away) as U64);
    if (later === null) return; // the world clock is at its end; a restore would have refused too
    world.elapsed = later;
    saves.dirty = true;
    print("wall clock now known: added " + Math.round(away / 1000) + " s away");
  }

  /**
   * Reads the newest save and, when it loads, makes it the live world. Returns the boot line's words
   * ("restored ...") and the status: "ok", the slot log's status when there was no payload, or the
   * codec's rejection of the payload.
   */
  function restoreNewest(): { status: string; line: string; wall: number } {
    const wall = wallNow(); // read once: the check, the load and the owed absence agree on it
    const found = (store as PetStore).restore(wall);
    if (found.payload === null) {
      const nothingOfOurs = found.status === "empty" || found.status === "no-log";
      return { status: found.status, line: (nothingOfOurs ? "no save found: " : "save unreadable: ") + found.reason, wall: wall };
    }
    // The store's check already loaded it at `wall`; decode here only if a storage layer skipped it.
    const loaded = found.loaded !== null ? found.loaded : loadWorld(found.payload, wall);
    if (loaded.status !== "ok" || loaded.world === null) return { status: loaded.status, line: "save rejected: " + loaded.status, wall: wall };
    world = loaded.world;
    savedAt = loaded.savedAt;
    lastRefusal = "";
    stampBase = !u64IsZero(savedAt) && u64IsSafe(savedAt) ? u64ToNumber(savedAt) : 0;
    if (wall === 0) owedAbsenceSince = stampBase;
    const away = loaded.absenceMs > 0 ? ", away " + Math.round(loaded.absenceMs / 1000) + " s" : "";
    const skipped = found.skipped > 0 ? " (passed over " + found.skipped + " newer unreadable save" + (found.skipped > 1 ? "s)" : ")") : "";
    const line = "restored " + nameForDisplay(world.name) + ", updates " + u64ToDecimal(world.updateCount) + away + skipped;
    return { status: "ok", line: line, wall: wall };
  }

  /** Stops saving (see pausedReason) and returns the boot line that says so. */
  function pauseSaving(why: string): string {
    pausedReason = why;
    lastRestoreTry = uptime;
    return why + "; running " + nameForDisplay(world.name) + " without saving; " + START_OVER;
  }

  /** Saving is allowed again: the next due save writes. */
  function resumeSaving(): void {
    pausedReason = "";
  }

  /**
   * While paused, tries the restore again every RESTORE_RETRY_MS. A save that reads now replaces the
   * stand-in pet and saving resumes. With no wall clock, the time the stand-in ran is added to the
   * restored pet's clock as time away (clamped like an absence), since the restored pet was not
   * running meanwhile; with a wall clock the restore's own absence rule already covers it.
   */
  function retryRestore(): void {
    if (pausedReason === "" || store === null || uptime - lastRestoreTry < RESTORE_RETRY_MS) return;
    lastRestoreTry = uptime;
    const ranFor = uptime;
    const r = restoreNewest();
    if (r.status !== "ok") return; // still unreadable: the boot line said so, stay quiet
    if (r.wall === 0) {
      const later = u64Add(world.elapsed, u64FromNumber(ranFor > ABSENCE_CLAMP_MS ? ABSENCE_CLAMP_MS : ranFor) as U64);
      if (later !== null) world.elapsed = later;
    }
    resumeSaving();
    noteSaveAttempt(saves, uptime, true); // the restored save is the last save: nothing is due
    print("save readable again: " + r.line + "; saving resumed");
  }

  function tick(): void {
    try {
      advance();
      payOwedAbsence();
      retryRestore();
      if (!saveIfDue()) refresh("");
    } catch (e) {
      print("pet: tick failed: " + errorText(e));
    }
  }

  function interact(): string {
    const status = advance("interact");
    if (status !== "ok") return status;
    saves.requested = "interact";
    if (!saveIfDue()) refresh("");
    return "ok";
  }

  /** Replaces the world with a new pet and writes it at once. */
  function hatch(name?: string): string {
    const bytes = name === undefined ? defaultNameBytes : typedName(name);
    if (bytes === null) return "bad-name";
    resumeSaving(); // the owner chose to start over: the unreadable save may be replaced
    world = createWorld(bytes) as World;
    lastRefusal = "";
    owedAbsenceSince = 0;
    stampBase = 0;
    saves.dirty = true;
    return saveAndReport();
  }

  function rename(name: string): string {
    const bytes = typedName(name);
    if (bytes === null) return "bad-name";
    if (pausedReason !== "") {
      // The running pet is a stand-in; naming it would suggest it is kept. Hatch it with a name instead.
      print("not renamed: saving paused (" + pausedReason + "); pet.hatch(name) or pet.importHex() to start over");
      return SAVING_PAUSED;
    }
    world.name = bytes;
    saves.dirty = true;
    return saveAndReport();
  }

  function saveNow(): string {
    advance();
    return saveAndReport();
  }

  function exportHex(): string {
    const encoded = saveWorld(world, saveStamp());
    return encoded.bytes !== null ? bytesToHex(encoded.bytes) : encoded.status;
  }

  function importHex(hex: string): string {
    const bytes = typeof hex === "string" ? hexToBytes(hex.replace(/\s+/g, "")) : null;
    if (bytes === null) {
      print("import rejected: bad-hex (not an even number of hex digits)");
      return "bad-hex";
    }
    const loaded = loadWorld(bytes, wallNow());
    if (loaded.status !== "ok" || loaded.world === null) {
      print("import rejected: " + loaded.status + " (" + describeStatus(loaded.status) + ")");
      return loaded.status;
    }
    world = loaded.world;
    owedAbsenceSince = 0;
    stampBase = 0;
    saves.dirty = true;
    resumeSaving();
    print("imported " + nameForDisplay(world.name) + ", updates " + u64ToDecimal(world.updateCount));
    return saveAndReport();
  }

  /** Wraps a console method: a throw becomes a printed line and the status "error". */
  function guarded(what: string, fn: () => string): string {
    try {
      return fn();
    } catch (e) {
      print("pet." + what + " failed: " + errorText(e));
      return "error";
    }
  }

  const pet: PetConsole = {
    status: function () {
      try {
        const json = payloadJson(world, savedAt);
        json.name = nameText(world.name);
        return json;
      } catch (e) {
        print("pet.status failed: " + errorText(e));
        return null;
      }
    },
    save: function () {
      return guarded("save", saveNow);
    },
    interact: function () {
      return guarded("interact", interact);
    },
    rename: function (name: string) {
      return guarded("rename", function () {
        return rename(name);
      });
    },
    hatch: function (name?: string) {
      return guarded("hatch", function () {
        return hatch(name);
      });
    },
    exportHex: function () {
      return guarded("exportHex", exportHex);
    },
    importHex: function (hex: string) {
      return guarded("importHex", function () {
        return importHex(hex);
      });
    },
  };

  /** Writes the newly hatched pet so that the next boot restores it; a failure joins the boot line. */
  function firstSave(line: string): string {
    saves.dirty = true;
    const status = writeSave();
    return status === "ok" ? line : line + "; first save failed: " + status;
  }

  /** Opens the region and restores the newest save or hatches; returns the boot line. */
  function boot(): string {
    const petName = nameForDisplay(defaultNameBytes);
    try {
      const opened = openPetStore(env.flash, board.petRegion);
      store = opened.store;
      if (store === null) return "storage unavailable: " + opened.status + ", hatched " + petName + " (not saved)";
      const r = restoreNewest();
      if (r.status === "ok") return r.line;
      // Only a region with nothing of ours in it gets the new pet written at once: erased ("empty"),
      // or foreign data with no slot-log header anywhere ("no-log"). Anything else may hold a save.
      if (r.status === "empty" || r.status === "no-log") return firstSave(r.line + ", hatched " + petName);
      return pauseSaving(r.line);
    } catch (e) {
      store = null;
      return "storage unavailable: " + errorText(e) + ", hatched " + petName + " (not saved)";
    }
  }

  function setLed(on: boolean): void {
    const led = board.led;
    if (led === undefined || env.digitalWrite === undefined) return;
    try {
      env.digitalWrite(led.pin, on ? 1 : 0);
    } catch (e) {
      print("led failed: " + errorText(e));
    }
  }

  function setUpButton(): void {
    const button = board.button;
    if (button === undefined || env.setWatch === undefined) return;
    const activeLow = button.activeLow !== false;
    if (env.pinMode !== undefined) env.pinMode(button.pin, activeLow ? "input_pullup" : "input_pulldown");
    const machine = createButtonMachine(env, activeLow, {
      onShortPress: function () {
        pet.interact();
      },
      onLongPress: function () {
        pet.hatch();
      },
      onLongPressReached: function () {
        setLed(true);
      },
      onRelease: function () {
        setLed(false);
      },
    });
    env.setWatch(
      function (e) {
        try {
          machine.onEdge(!!e.state, e.time);
        } catch (err) {
          print("button failed: " + errorText(err));
        }
      },
      button.pin,
      { repeat: true, edge: "both", debounce: BUTTON_DEBOUNCE_MS },
    );
  }

  // Boot: the display first (so the pet appears as soon as it exists), then storage, then the rest.
  display = createDisplay(board, env, print);
  const bootLine = boot();
  print(bootLine);
  noteShown(world); // the boot line said it all; no status line until something changes
  if (display !== null && !display.show(world)) display = null;
  try {
    setLed(false);
    setUpButton();
  } catch (e) {
    print("button unavailable: " + errorText(e));
  }
  try {
    env.publish("pet", pet);
  } catch (e) {
    print("pet console unavailable: " + errorText(e));
  }
  interval = env.setInterval(tick, TICK_MS);

  return {
    pet: pet,
    bootLine: bootLine,
    tick: tick,
    stop: function () {
      if (interval !== null) env.clearInterval(interval);
      interval = null;
    },
    world: function () {
      return world;
    },
  };
}
