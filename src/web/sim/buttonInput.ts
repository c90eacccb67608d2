/**
 * The simulator's one button, as a person works it: the big on-screen button held with a mouse or a
 * finger (the pointer is captured, so sliding off does not let go), the space key anywhere on the
 * Simulator tab outside a text field, or Enter on the focused button. Held down is the button held
 * down; `setButton` drives the board's pin.
 *
 * A tap shorter than MIN_PRESS_MS is stretched to it: the firmware's setWatch debounces 50 ms, and a
 * quick tap on a phone or a key can be shorter, which the board would never see from a real switch.
 */
const MIN_PRESS_MS = 120;

export function wireButton(button: HTMLButtonElement, panel: HTMLElement, setButton: (down: boolean) => void): void {
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
      pressedAt = performance.now();
      setButton(true);
      return;
    }
    const wait = MIN_PRESS_MS - (performance.now() - pressedAt);
    if (wait <= 0) setButton(false);
    else releaseTimer = setTimeout(() => setButton(false), wait);
  }

  button.addEventListener("pointerdown", (e) => {
    button.setPointerCapture(e.pointerId);
    press(true);
  });
  for (const ev of ["pointerup", "pointercancel", "lostpointercapture"]) button.addEventListener(ev, () => press(false));
  button.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch must not open a menu

  const typing = (t: EventTarget | null): boolean => t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement;
  document.addEventListener("keydown", (e) => {
    if ((e.key === " " || (e.key === "Enter" && e.target === button)) && !typing(e.target) && !panel.hidden) {
      e.preventDefault();
      if (!e.repeat) press(true);
    }
  });
  document.addEventListener("keyup", (e) => {
    if ((e.key === " " || e.key === "Enter") && held) {
      e.preventDefault();
      press(false);
    }
  });
}
