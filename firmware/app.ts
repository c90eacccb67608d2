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
 * The pieces share one RunningPet (runningPet.ts): restore.ts gets the pet back from flash,
 * saving.ts writes it, loop.ts advances it, show.ts shows it, petConsole.ts and buttonAndLed.ts let
 * the owner act on it.
 */
import type { World } from "../src/core/types";
import type { PetEnv } from "./env";
import type { PetBoard } from "./board";
import { createDisplay } from "./display";
import { createRunningPet } from "./runningPet";
import { restoreOrHatch } from "./restore";
import { noteShown } from "./show";
import { tick, TICK_MS } from "./loop";
import { createPetConsole, type PetConsole } from "./petConsole";
import { startButtonAndLed } from "./buttonAndLed";
import { errorText } from "./report";

// What the desktop host, the tests and the docs know as firmware/app's names.
export { TICK_MS } from "./loop";
export { FALLBACK_PET_NAME } from "./runningPet";
export { RESTORE_RETRY_MS } from "./restore";
export { SAVING_PAUSED } from "./saving";
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
}

export function startPet(board: PetBoard, env: PetEnv): PetApp {
  const s = createRunningPet(board, env);

  // Boot: the display first (so the pet appears as soon as it exists), then storage, then the rest.
  s.display = createDisplay(board, env, s.print);
  const bootLine = restoreOrHatch(s, board);
  s.print(bootLine);
  noteShown(s); // the boot line said it all; no status line until something changes
  if (s.display !== null && !s.display.show(s.world)) s.display = null;
  const pet = createPetConsole(s);
  startButtonAndLed(board, env, s.print, pet);
  try {
    env.publish("pet", pet);
  } catch (e) {
    s.print("pet console unavailable: " + errorText(e));
  }
  const step = function (): void {
    tick(s);
  };
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
      return s.world;
    },
  };
}
