/**
 * What the owner sees: the panel when there is one, else one console status line per change.
 * Called after anything happened (a tick, a console call, a save); it redraws or prints only when
 * something on show changed, so an idle pet costs no drawing and no strings.
 */
import type { RunningPet } from "./runningPet";
import { statusLine } from "./report";

/** Notes what is on show now; true when it differs from what was shown (no strings built per tick). */
export function noteShown(s: RunningPet): boolean {
  const w = s.world;
  const changed = w.activity !== s.shownActivity || w.expression !== s.shownExpression || w.name !== s.shownName;
  s.shownActivity = w.activity;
  s.shownExpression = w.expression;
  s.shownName = w.name;
  return changed;
}

/**
 * Brings the outside up to date. `note` is "" or what a save did. With a display the picture is
 * redrawn when it changed and only failures are printed; without one a status line is printed on
 * every change and every save.
 */
export function refresh(s: RunningPet, note: string): void {
  const changed = noteShown(s);
  if (s.display !== null) {
    if (changed && !s.display.show(s.world)) s.display = null; // it printed why; lines from now on
    if (note !== "" && note !== "saved") s.print(statusLine(s.world, note));
    return;
  }
  if (changed || note !== "") s.print(statusLine(s.world, note));
}
