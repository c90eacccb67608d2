/**
 * The Device tab's three steps, in the order a new board needs them: 1 Espruino on the board, 2 the
 * pet firmware, 3 the live pet. Each is a <details> whose summary carries a short state ("done:
 * Espruino 2v29", "ready to upload"); `open` opens the step that applies now and closes the others
 * (a person can still open any of them).
 */
import { byId } from "../dom";

export type Step = "espruino" | "firmware" | "pet";
const STEPS: Step[] = ["espruino", "firmware", "pet"];

export function createSteps(): { open(step: Step): void; mark(step: Step, state: string): void } {
  const boxes = STEPS.map((s) => byId("step-" + s, HTMLDetailsElement));
  return {
    open(step) {
      STEPS.forEach((s, k) => ((boxes[k] as HTMLDetailsElement).open = s === step));
      document.body.dataset.deviceStep = step;
    },
    mark(step, state) {
      byId("step-" + step + "-state", HTMLSpanElement).textContent = state;
    },
  };
}
