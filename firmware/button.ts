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

export interface ButtonHandlers {
  onShortPress(): void;
  onLongPress(): void;
  /** The press just passed LONG_PRESS_MS (the button is still down). */
  onLongPressReached(): void;
  /** The button went up (after either kind of press). */
  onRelease(): void;
}

export interface ButtonMachine {
  /** One debounced edge: `level` is the pin state, `timeSec` the edge's getTime(). */
  onEdge(level: boolean, timeSec: number): void;
}

export function createButtonMachine(
  env: PetEnv,
  activeLow: boolean,
  handlers: ButtonHandlers,
): ButtonMachine {
  let downAt: number | null = null;
  let timer: unknown = null;
  /** The long-press timer fired during the current press. */
  let reached = false;

  function cancelTimer(): void {
    if (timer !== null) env.clearTimeout(timer);
    timer = null;
  }

  function onEdge(level: boolean, timeSec: number): void {
    const pressed = activeLow ? !level : level;
    if (pressed) {
      // A second "down" without an "up" means the "up" was lost: this is a new press, measured from
      // now (measuring from the old one could turn a tap into a hatch).
      downAt = timeSec;
      reached = false;
      cancelTimer();
      timer = env.setTimeout(function () {
        timer = null;
        reached = true;
        handlers.onLongPressReached();
      }, LONG_PRESS_MS);
      return;
    }
    if (downAt === null) return; // an "up" we never saw go down (pressed at boot)
    const heldMs = (timeSec - downAt) * 1000;
    const long = reached && heldMs >= LONG_PRESS_MS && heldMs <= MAX_LONG_PRESS_MS;
    downAt = null;
    reached = false;
    cancelTimer();
    handlers.onRelease();
    if (long) handlers.onLongPress();
    else handlers.onShortPress();
  }

  return { onEdge: onEdge };
}
