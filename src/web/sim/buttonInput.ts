/**
 * The simulator's one button, as a person works it: the big on-screen button held with a mouse or a
 * finger (the pointer is captured, so sliding off does not let go), or Space or Enter while the
 * board's own area (the screen and the button) has the keyboard focus. Anywhere else on the page
 * Space and Enter do what they do there: press the focused tab, button or checkbox. Held down is the
 * button held down; `setButton` drives the board's pin.
 *
 * A tap shorter than MIN_PRESS_MS is stretched to it: the firmware's setWatch debounces 50 ms, and a
 * quick tap on a phone or a key can be shorter, which the board would never see from a real switch.
 * Each change goes with the time it happened (the release of a stretched tap: the press's time and
 * MIN_PRESS_MS), on the clock the page and the board's worker share, so that a board whose worker
 * was busy, and hears of the press and the release together, still times the press as held.
 */
import { sharedClockMs } from "./simProtocol";

const MIN_PRESS_MS = 120;
const KEYS = [" ", "Enter"];

export function wireButton(button: HTMLButtonElement, area: HTMLElement, setButton: (down: boolean, at: number) => void): { held(): boolean } {
  let held = false;
  let pressedAt = 0;
  let releaseTimer: ReturnType<typeof setTimeout> | null = null;

  function press(down: boolean): void {
    if (held === down) return;
    held = down;
    button.classList.toggle("pressed", down);
    button.setAttribute("aria-pressed", String(down));
    if (releaseTimer !== null) {
      clearTimeout(releaseTimer);
      releaseTimer = null;
    }
    if (down) {
      pressedAt = sharedClockMs();
      setButton(true, pressedAt);
      return;
    }
    const now = sharedClockMs();
    const wait = MIN_PRESS_MS - (now - pressedAt);
    if (wait <= 0) setButton(false, now);
    else releaseTimer = setTimeout(() => setButton(false, pressedAt + MIN_PRESS_MS), wait);
  }

  button.addEventListener("pointerdown", (e) => {
    button.setPointerCapture(e.pointerId);
    press(true);
  });
  for (const ev of ["pointerup", "pointercancel", "lostpointercapture"]) button.addEventListener(ev, () => press(false));
  button.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch must not open a menu

  const inArea = (t: EventTarget | null): boolean => t instanceof Node && area.contains(t) && !(t instanceof HTMLInputElement || t instanceof HTMLSelectElement);
  area.addEventListener("keydown", (e) => {
    if (!KEYS.includes(e.key) || !inArea(e.target)) return;
    e.preventDefault();
    if (!e.repeat) press(true);
  });
  area.addEventListener("keyup", (e) => {
    if (!KEYS.includes(e.key) || !held) return;
    e.preventDefault();
    press(false);
  });
  // Focus leaving the board while a key holds the button lets go of it, as lifting the finger would.
  area.addEventListener("focusout", (e) => {
    if (!(e.relatedTarget instanceof Node && area.contains(e.relatedTarget))) press(false);
  });
  return { held: () => held };
}
