/**
 * The running pet: the one object of mutable state that the firmware's pieces share (boot, the loop,
 * saving and restoring, the console). It is plain data plus the env it runs in; the rules for each
 * field live in the module named beside it, so a reader can follow one concern at a time.
 */
import { createWorld } from "../src/core/world";
import { nameFromString } from "../src/core/name";
import { u64Add, u64FromNumber, U64_ZERO, type U64 } from "../src/core/u64";
import type { World } from "../src/core/types";
import type { PetEnv } from "./env";
import type { PetBoard } from "./board";
import type { PetStore } from "./store";
import type { PetDisplay } from "./display";
import { wallClockMs } from "./clock";
import { createSaveState, type SaveState } from "./savePolicy";

export const FALLBACK_PET_NAME = "Pip";

export interface RunningPet {
  env: PetEnv;
  /** env.print that never throws: a broken console must not stop the pet. */
  print: (line: string) => void;
  /** What boot and pet.hatch() hatch when no name is given. */
  defaultName: Uint8Array;
  world: World;
  /** The stamp of the last save written or restored ("savedAtMs" of pet.status()). */
  savedAt: U64;
  /** The slot log over the board's region; null when it could not be opened (nothing is saved). */
  store: PetStore | null;
  /** The panel, or null: then status lines go to the console instead (show.ts). */
  display: PetDisplay | null;
  /** getTime() at the last step (loop.ts). */
  lastTime: number;
  /** Sum of the clamped deltas: the save policy's clock, immune to the clock being set. */
  uptime: number;
  saves: SaveState;
  /** What the screen or the last status line shows, to print or redraw only on change (show.ts). */
  shownActivity: number;
  shownExpression: number;
  /** The name bytes last shown, by identity: a rename or a new world brings a new array. */
  shownName: Uint8Array | null;
  /** The last refused update's status, so a stuck world prints once rather than every second. */
  lastRefusal: string;
  /**
   * The restored save's stamp (ms) while its absence is still owed: the save knew the wall clock
   * but the boot did not. Paid once the clock becomes plausible (loop.ts); 0 when nothing is owed.
   */
  owedAbsenceSince: number;
  /**
   * The restored save's stamp (ms; 0 when it had none), the base of the stamps written while the
   * wall clock is unknown: restored stamp + uptime since boot. The pet lived that uptime after the
   * restored save, so the real time of such a save is at least that; a later boot with a clock then
   * adds the absence owed since the restored save (not yet paid) as well as the one after the cut.
   * Writing 0 instead would forget both. Cleared when the pet is replaced (hatch, import).
   */
  stampBase: number;
  /**
   * Why saving is paused, or "" when it is not. A boot that found a log of ours but could not use its
   * save (a read failed, every committed slot failed the check, or the save is one this firmware
   * refuses) runs the default pet WITHOUT writing it: the save may be fine on the next read, or
   * readable by the firmware that wrote it, and a save of the stand-in pet would become the newest
   * one for good. Saving resumes after a restore that succeeds (retried every RESTORE_RETRY_MS,
   * restore.ts) or an explicit pet.hatch() / pet.importHex() / long-press hatch.
   */
  pausedReason: string;
  /** Uptime of the last restore attempt, for the retries while paused. */
  lastRestoreTry: number;
}

/**
 * The board's pet name as bytes. The profile's name is a string literal in the bundle (ASCII, with
 * \u escapes): its characters are code points, not UTF-8 bytes, so the Core's encoder is the right
 * one for it; on the ESP32 E.toUint8Array would store "\u00e9" as the single byte E9.
 */
function defaultPetName(board: PetBoard): Uint8Array {
  const fromBoard = nameFromString(typeof board.defaultPetName === "string" ? board.defaultPetName : "");
  return fromBoard !== null ? fromBoard : (nameFromString(FALLBACK_PET_NAME) as Uint8Array);
}

/** The state before boot: the default pet, nothing saved, no storage or display yet. */
export function createRunningPet(board: PetBoard, env: PetEnv): RunningPet {
  const defaultName = defaultPetName(board);
  return {
    env: env,
    print: function (line: string): void {
      try {
        env.print(line);
      } catch (e) {
        // Nowhere left to report to.
      }
    },
    defaultName: defaultName,
    world: createWorld(defaultName) as World,
    savedAt: U64_ZERO,
    store: null,
    display: null,
    lastTime: env.getTime(),
    uptime: 0,
    saves: createSaveState(),
    shownActivity: -1,
    shownExpression: -1,
    shownName: null,
    lastRefusal: "",
    owedAbsenceSince: 0,
    stampBase: 0,
    pausedReason: "",
    lastRestoreTry: 0,
  };
}

/** The wall clock in ms, or 0 while it is not plausible (see clock.ts). */
export function wallNow(s: RunningPet): number {
  return wallClockMs(s.env.dateNow());
}

/** Adds `ms` (at most the absence clamp) to the world clock; false when the clock is at its end. */
export function addTimeAway(s: RunningPet, ms: number): boolean {
  const later = u64Add(s.world.elapsed, u64FromNumber(ms) as U64);
  if (later === null) return false;
  s.world.elapsed = later;
  return true;
}
