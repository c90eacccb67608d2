/**
 * The pet's one button: a short press is an interaction, a long press hatches a new pet.
 *
 * setWatch (edge "both", debounce 50 ms) calls onEdge with the pin state and the edge time in
 * getTime() seconds. A press is long only when BOTH clocks agree:
 * - the long-press timer fired while the button was still down (it also lights the LED, telling the
 *   owner that releasing now hatches), and
 * - the edge times measure a plausible length, LONG_PRESS_MS to MAX_LONG_PRESS_MS.
 * Either clock alone can lie. The edge times are getTime() readings, which jump when the clock is set
 * (setTime, the uploader's -t, SNTP), so a short press across a clock change can measure minutes or
 * a negative length. Espruino's JavaScript timers count down idle-loop time, and setTime resets that
 * reference so they do not see the jump (jswrap_interactive_setTime in the interpreter's source);
 * but SNTP on the ESP32 sets the system clock behind the interpreter's back, and a forward jump then
 * fires pending timers at once. Anything that is not clearly long is short: the safe mistake is an
 * interaction, never replacing the pet.
 */
import type { PetEnv } from "../src/platform/env";

export const LONG_PRESS_MS = 5000;
/** A press measured longer than this is a clock jump (or a lost edge), not a hand on the button. */
export const MAX_LONG_PRESS_MS = 60000;
export const BUTTON_DEBOUNCE_MS = 50;

/** What the button acts on: the pet's console (a short press interacts, a long one hatches). */
export interface ButtonPet {
  interact(): unknown;
  hatch(): unknown;
}

/**
 * The press logic over one debounced edge at a time: call the answer with the pin state and the
 * edge's getTime(). `led(true)` when the held press has just become long (releasing now hatches),
 * `led(false)` when the button goes up, then the pet's action.
 *
 * One closure for the edges and one for the long-press timer, over three variables: on Espruino
 * every function made here holds RAM for as long as the pet runs, and this runs at boot, where a
 * handler object of four closures and a returned object cost about 40 JsVars more.
 */
export function createButtonMachine(env: PetEnv, activeLow: boolean, pet: ButtonPet, led: (on: boolean) => void): (level: boolean, timeSec: number) => void {
  let downAt: number | null = null;
  let timer: unknown = null;
  /** The long-press timer fired during the current press. */
  let reached = false;
  const longPressReached = function (): void {
    timer = null;
    reached = true;
    led(true);
  };

  return function (level: boolean, timeSec: number): void {
    const pressed = activeLow ? !level : level;
    if (timer !== null) env.clearTimeout(timer);
    timer = null;
    if (pressed) {
      // A second "down" without an "up" means the "up" was lost: this is a new press, measured from
      // now (measuring from the old one could turn a tap into a hatch).
      downAt = timeSec;
      reached = false;
      timer = env.setTimeout(longPressReached, LONG_PRESS_MS);
      return;
    }
    if (downAt === null) return; // an "up" we never saw go down (pressed at boot)
    const heldMs = (timeSec - downAt) * 1000;
    const long = reached && heldMs >= LONG_PRESS_MS && heldMs <= MAX_LONG_PRESS_MS;
    downAt = null;
    reached = false;
    led(false);
    if (long) pet.hatch();
    else pet.interact();
  };
}
