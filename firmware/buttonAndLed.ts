/**
 * Wires the board's button and LED to the pet: a short press is pet.interact(), a long press is
 * pet.hatch(), and the LED lights while a held press has become long (releasing now hatches).
 * The press logic itself is button.ts; this file only connects pins to it.
 */
import type { PetBoard } from "./board";
import type { PetEnv } from "../src/platform/env";
import type { PetConsole } from "./petConsole";
import { createButtonMachine, BUTTON_DEBOUNCE_MS } from "./button";
import { errorText } from "./report";

/**
 * Defined only by the device build, as whether its board profile has a button and an LED (as
 * BOARD_HAS_DISPLAY in display.ts): a bundle for a board without them carries none of this file's
 * work. Undeclared everywhere else, where the board passed in decides.
 */
declare const BOARD_HAS_BUTTON: boolean | undefined;
declare const BOARD_HAS_LED: boolean | undefined;

function setLed(board: PetBoard, env: PetEnv, print: (line: string) => void, on: boolean): void {
  const led = board.led;
  if ((typeof BOARD_HAS_LED !== "undefined" && !BOARD_HAS_LED) || led === undefined || env.digitalWrite === undefined) return;
  try {
    env.digitalWrite(led.pin, on ? 1 : 0);
  } catch (e) {
    print("led failed: " + errorText(e));
  }
}

/**
 * Turns the LED off and watches the button; a board without them is fine, a failure is one line.
 * One function, not two: the bundler folds a helper called once into its caller as a nested
 * function expression, and 2v06 passes over a nested function's text once more per level each time
 * it runs (docs/speed.md: 0.1 M of the chip's boot, and 10 JsVars).
 */
export function startButtonAndLed(board: PetBoard, env: PetEnv, print: (line: string) => void, pet: PetConsole): void {
  try {
    setLed(board, env, print, false);
    const button = board.button;
    if ((typeof BOARD_HAS_BUTTON !== "undefined" && !BOARD_HAS_BUTTON) || button === undefined || env.setWatch === undefined) return;
    const activeLow = button.activeLow !== false;
    if (env.pinMode !== undefined) env.pinMode(button.pin, activeLow ? "input_pullup" : "input_pulldown");
    const onEdge = createButtonMachine(env, activeLow, pet, function (on: boolean) {
      setLed(board, env, print, on);
    });
    env.setWatch(
      function (e) {
        try {
          onEdge(!!e.state, e.time);
        } catch (err) {
          print("button failed: " + errorText(err));
        }
      },
      button.pin,
      { repeat: true, edge: "both", debounce: BUTTON_DEBOUNCE_MS },
    );
  } catch (e) {
    print("button unavailable: " + errorText(e));
  }
}
