/**
 * The firmware as startPet(board, env): boot, then the loop, the button and the `pet` console.
 *
 * It reads no global: everything the machine offers comes in `env` (see env.ts), so the same code
 * runs on the ESP32, on the Linux build of the interpreter and, with fakes, in Node's tests.
 *
 * Nothing the owner types or the flash holds may stop the pet: every way in (the tick, the button,
 * each console method) catches what it calls, prints one line and carries on. Storage problems are
 * statuses, printed as lines, never exceptions.
 *
 * The running pet (runningPet.ts) owns all state and every change to it; around it, store.ts gets
 * at the flash, display.ts draws, petConsole.ts and buttonAndLed.ts let the owner act on it.
 *
 * Names ending in "_" are names the build shortens: terser renames every property whose name ends
 * in "_" to one or two characters (scripts/lib/build.js, TERSER_OPTIONS), because the interpreter
 * reads every character of a name each time a path uses it. The "_" does not mean private: other
 * files of the bundle use such members (petConsole.ts and app.ts call RunningPet's). It means the
 * name never leaves the bundle: nothing outside it (the `pet` console object, pet.status(), a board
 * profile, the flash) holds or reads a name that ends in "_".
 */
import type { World } from "../src/core/types";
import type { PetEnv } from "../src/platform/env";
import type { PetBoard } from "./board";
import { createDisplay } from "./display";
import { RunningPet, TICK_MS } from "./runningPet";
import { createPetConsole, type PetConsole } from "./petConsole";
import { startButtonAndLed } from "./buttonAndLed";
import { errorText } from "./report";

// What the desktop host, the tests and the docs know as firmware/app's names.
export { TICK_MS, FALLBACK_PET_NAME, RESTORE_RETRY_MS, SAVING_PAUSED } from "./runningPet";
export type { PetConsole } from "./petConsole";

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
  /** Says the live world was changed from outside (the bench does, to force redraws): the next tick takes the full step. */
  worldChanged(): void;
}

export function startPet(board: PetBoard, env: PetEnv): PetApp {
  const s = new RunningPet(board, env);
  // The display first, so the pet appears as soon as it exists; then storage, then the rest.
  const print = function (line: string): void {
    s.print_(line);
  };
  const bootLine = s.boot_(board, createDisplay(board, env, print));
  // Bound rather than wrapped: the interval then enters tick_ directly, one call fewer a second.
  const step: () => void = s.tick_.bind(s);
  const pet = createPetConsole(s, step);
  startButtonAndLed(board, env, print, pet);
  try {
    env.publish("pet", pet);
  } catch (e) {
    s.print_("pet console unavailable: " + errorText(e));
  }
  let interval: unknown = env.setInterval(step, TICK_MS);

  return {
    pet: pet,
    bootLine: bootLine,
    tick: step,
    stop: function () {
      if (interval !== null) env.clearInterval(interval);
      interval = null;
    },
    world: function () {
      return s.currentWorld_();
    },
    worldChanged: function () {
      s.worldChanged_();
    },
  };
}
