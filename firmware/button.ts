/**
 * The pet's one button: a short press is an interaction, a long press hatches a new pet.
 *
 * setWatch (edge "both", debounce 50 ms) calls onEdge with the pin state and the edge time in
 * getTime() seconds; the press length is measured from those edge times, not from timers, so a busy
 * interpreter cannot turn a short press into a long one. A timer only drives the feedback: when the
 * press reaches LONG_PRESS_MS the LED comes on, telling the owner that releasing now hatches.
 */
import type { PetEnv } from "./env";

export const LONG_PRESS_MS = 5000;
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

  function cancelTimer(): void {
    if (timer !== null) env.clearTimeout(timer);
    timer = null;
  }

  function onEdge(level: boolean, timeSec: number): void {
    const pressed = activeLow ? !level : level;
    if (pressed) {
      if (downAt !== null) return; // a second "down" without an "up": keep the first
      downAt = timeSec;
      cancelTimer();
      timer = env.setTimeout(function () {
        timer = null;
        handlers.onLongPressReached();
      }, LONG_PRESS_MS);
      return;
    }
    if (downAt === null) return; // an "up" we never saw go down (pressed at boot)
    const heldMs = (timeSec - downAt) * 1000;
    downAt = null;
    cancelTimer();
    handlers.onRelease();
    // A negative length means the clock was set during the press: count it as short.
    if (heldMs >= LONG_PRESS_MS) handlers.onLongPress();
    else handlers.onShortPress();
  }

  return { onEdge: onEdge };
}
