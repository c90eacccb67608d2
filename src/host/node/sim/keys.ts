/**
 * Keys to button presses and pet calls.
 *
 *   space   a short press of the button (down, then up 150 ms later): the firmware's interact path
 *   h       the button is held down while the key is held (auto-repeat keeps it down; it goes up
 *           when repeats stop): hold about 5 s until the LED lights, and the release hatches,
 *           exactly the long press on the board
 *   H       asks "hatch a new pet? (y/n)"; y calls pet.hatch()
 *   s       pet.save()
 *   q, ^C   save and quit (kill -9 instead is a power cut)
 *
 * A terminal sends no key-up, so a held "h" is recognised by its auto-repeat: the button goes up
 * once no "h" arrived for HOLD_RELEASE_MS, longer than the usual delay before auto-repeat starts.
 */

export interface KeyActions {
  setButton(pressed: boolean): void;
  save(): void;
  hatch(): void;
  quit(): void;
  /** Shows a question under the screen ("" removes it). */
  setPrompt(text: string): void;
  petName(): string;
}

export const TAP_MS = 150;
export const HOLD_RELEASE_MS = 700;

export interface KeyHandler {
  key(ch: string): void;
  /** Calls `done` once the button is up again (at once when it is): a press in progress is finished first. */
  whenIdle(done: () => void): void;
  stop(): void;
}

export function createKeyHandler(a: KeyActions): KeyHandler {
  let down = false;
  let releaseTimer: NodeJS.Timeout | null = null;
  let confirming = false;
  let idleWaiters: Array<() => void> = [];

  function release(): void {
    releaseTimer = null;
    down = false;
    a.setButton(false);
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }

  function press(holdMs: number): void {
    if (!down) {
      down = true;
      a.setButton(true);
    }
    if (releaseTimer) clearTimeout(releaseTimer);
    releaseTimer = setTimeout(release, holdMs);
  }

  return {
    key(ch: string): void {
      if (confirming) {
        confirming = false;
        a.setPrompt("");
        if (ch === "y" || ch === "Y") a.hatch();
        return;
      }
      if (ch === " ") {
        if (!down) press(TAP_MS);
      } else if (ch === "h") press(HOLD_RELEASE_MS);
      else if (ch === "H") {
        confirming = true;
        a.setPrompt("Hatch a new pet? " + a.petName() + " will be replaced. (y/n)");
      } else if (ch === "s") a.save();
      else if (ch === "q" || ch === "\u0003") a.quit();
    },
    whenIdle(done: () => void): void {
      if (releaseTimer === null) done();
      else idleWaiters.push(done);
    },
    stop(): void {
      if (releaseTimer) clearTimeout(releaseTimer);
      releaseTimer = null;
      idleWaiters = [];
    },
  };
}
