/**
 * GPIO as the firmware sees it: pins by name ("D0", a Pin object, or a number), setWatch with edge,
 * debounce and repeat, pinMode and digitalWrite. Inputs are driven by the desktop (the keyboard
 * presses and releases the button pin); outputs are recorded so the screen can show the LED.
 *
 * pinMode's pull resistors set the level an input rests at while nothing drives it: a button wired
 * active low and given "input_pulldown" reads as held down here, as it would on the board.
 */

/** The modes Espruino's pinMode accepts; anything else is an error there too. */
export const PIN_MODES = [
  "analog",
  "input",
  "input_pullup",
  "input_pulldown",
  "output",
  "opendrain",
  "opendrain_pullup",
  "af_output",
  "af_opendrain",
  "auto",
];

export type Level = 0 | 1;

/** The object passed to a setWatch callback, as on Espruino (time in getTime() seconds). */
export interface SimWatchEvent {
  state: boolean;
  time: number;
  lastTime: number;
}

export interface SimWatchOptions {
  edge?: "rising" | "falling" | "both" | number;
  debounce?: number;
  repeat?: boolean;
}

interface Watch {
  id: number;
  pin: string;
  fn: (e: SimWatchEvent) => void;
  edge: number; // 1 rising, -1 falling, 0 both
  debounce: number;
  repeat: boolean;
  lastTime: number;
  /** The edge waiting out the debounce: its level, when the pin changed (time() seconds), its timer. */
  pending: { level: Level; at: number; timer: ReturnType<typeof setTimeout> } | null;
}

/** A pin value for the firmware's globals (D0, BTN1, LED1); prints as its name like Espruino's. */
export class Pin {
  constructor(readonly name: string) {}
  toString(): string {
    return this.name;
  }
  toJSON(): string {
    return this.name;
  }
}

/** "D0" for D0, "d0", 0 and the Pin object; null for anything that is not a pin. */
export function pinName(pin: unknown): string | null {
  if (pin instanceof Pin) return pin.name;
  if (typeof pin === "number" && Number.isInteger(pin) && pin >= 0) return "D" + pin;
  if (typeof pin === "string" && /^[A-Za-z][0-9]+$/.test(pin)) return pin.toUpperCase();
  if (pin !== null && typeof pin === "object" && typeof (pin as { toString?: unknown }).toString === "function") {
    const s = String(pin);
    if (/^[A-Z][0-9]+$/.test(s)) return s;
  }
  return null;
}

export interface SimPins {
  setWatch(fn: unknown, pin: unknown, options?: SimWatchOptions | number): number;
  clearWatch(id?: unknown): void;
  digitalWrite(pin: unknown, value: unknown): void;
  pinMode(pin: unknown, mode: unknown): void;
  /** The last mode set on a pin, or undefined. */
  mode(pin: string): string | undefined;
  /**
   * Drives an input pin from outside (keyboard) or lets it go (null: back to its pull resistor),
   * as of `at` (time() seconds; default now): when the change happened, which is earlier than now
   * when it reaches the board late (the page's board runs in a worker that may be busy).
   */
  drive(pin: string, level: Level | null, at?: number): void;
  /** The level last written to or driven on a pin (inputs idle at `idle`). */
  level(pin: string): Level;
  /** Every digitalWrite, in order, for tests: [pin, level]. */
  readonly writes: Array<[string, Level]>;
  /**
   * Calls `done` once no edge is waiting out a watch's debounce (at once when none is): by then every
   * change driven from outside has reached the firmware's callbacks, or was judged a bounce.
   */
  whenSettled(done: () => void): void;
  stopAll(): void;
}

/**
 * `idleLevels` gives inputs their resting level (an active-low button with a pull-up rests at 1).
 * `time()` is the clock edges are timed by; `report` prints an error thrown by a callback.
 *
 * A debounced edge is reported when the pin has held it for the debounce, judged by the edges' own
 * times: by a timer when nothing follows it, or at once when the next edge comes at least the
 * debounce later. So a press whose down and up reach the board together (its worker was busy while
 * they were sent) is still a press, and one shorter than the debounce is still a bounce. Callbacks
 * get the time the pin changed, as Espruino reports it.
 */
export function createSimPins(
  idleLevels: { [pin: string]: Level },
  time: () => number,
  report: (line: string) => void,
  onWrite?: (pin: string, level: Level) => void,
): SimPins {
  const levels = new Map<string, Level>();
  for (const name of Object.keys(idleLevels)) levels.set(name, idleLevels[name] as Level);
  const watches = new Map<number, Watch>();
  const modes = new Map<string, string>();
  /** Pins an outside source is holding at a level (the pressed button). */
  const driven = new Set<string>();
  const writes: Array<[string, Level]> = [];
  let nextId = 1;
  let settledWaiters: Array<() => void> = [];

  function anyPending(): boolean {
    for (const w of Array.from(watches.values())) if (w.pending) return true;
    return false;
  }

  function callSettledWaiters(): void {
    if (settledWaiters.length === 0 || anyPending()) return;
    const waiters = settledWaiters;
    settledWaiters = [];
    for (const done of waiters) done();
  }

  function mustName(pin: unknown, what: string): string {
    const name = pinName(pin);
    if (name === null) throw new Error(what + ": not a pin: " + String(pin));
    return name;
  }

  function fire(w: Watch, level: Level, at: number): void {
    const e: SimWatchEvent = { state: level === 1, time: at, lastTime: w.lastTime };
    w.lastTime = at;
    if (!w.repeat) watches.delete(w.id);
    try {
      w.fn(e);
    } catch (err) {
      report("Uncaught " + (err instanceof Error ? err.name + ": " + err.message : String(err)));
    }
  }

  function edgeMatches(w: Watch, level: Level): boolean {
    return w.edge === 0 || (w.edge === 1 && level === 1) || (w.edge === -1 && level === 0);
  }

  return {
    writes,
    setWatch(fn: unknown, pin: unknown, options?: SimWatchOptions | number): number {
      if (typeof fn !== "function") throw new Error("setWatch: the callback must be a function");
      const name = mustName(pin, "setWatch");
      const o: SimWatchOptions = typeof options === "object" && options !== null ? options : {};
      const edge = o.edge === "rising" || o.edge === 1 ? 1 : o.edge === "falling" || o.edge === -1 ? -1 : 0;
      const id = nextId++;
      watches.set(id, {
        id,
        pin: name,
        fn: fn as (e: SimWatchEvent) => void,
        edge,
        debounce: Math.max(0, Number(o.debounce) || 0),
        repeat: o.repeat === true,
        lastTime: time(),
        pending: null,
      });
      return id;
    },
    clearWatch(id?: unknown): void {
      const ids = id === undefined ? Array.from(watches.keys()) : [Number(id)];
      for (const k of ids) {
        const w = watches.get(k);
        if (w && w.pending) clearTimeout(w.pending.timer);
        watches.delete(k);
      }
      callSettledWaiters();
    },
    digitalWrite(pin: unknown, value: unknown): void {
      const name = mustName(pin, "digitalWrite");
      const level: Level = value ? 1 : 0;
      levels.set(name, level);
      writes.push([name, level]);
      if (onWrite) onWrite(name, level);
    },
    pinMode(pin: unknown, mode: unknown): void {
      const name = mustName(pin, "pinMode");
      if (typeof mode !== "string" || PIN_MODES.indexOf(mode) < 0) throw new Error("pinMode: unknown mode " + String(mode));
      modes.set(name, mode);
      if (!driven.has(name)) this.drive(name, null); // the input now rests where its pull puts it
    },
    mode(pin: string): string | undefined {
      return modes.get(pin);
    },
    drive(pin: string, requested: Level | null, at?: number): void {
      const when = at === undefined ? time() : at;
      let level: Level;
      if (requested === null) {
        driven.delete(pin);
        const mode = modes.get(pin);
        const idle = idleLevels[pin];
        level = mode === "input_pullup" ? 1 : mode === "input_pulldown" ? 0 : idle !== undefined ? idle : this.level(pin);
      } else {
        driven.add(pin);
        level = requested;
      }
      if (levels.get(pin) === level) return;
      levels.set(pin, level);
      for (const w of Array.from(watches.values())) {
        if (w.pin !== pin) continue;
        if (w.debounce === 0) {
          if (edgeMatches(w, level)) fire(w, level, when);
          continue;
        }
        // Debounce: an edge counts once the pin has held it for `debounce` ms. The edge before this
        // one did if this one came that much later, whenever the two reached the board.
        const held = w.pending;
        w.pending = null;
        if (held !== null) {
          clearTimeout(held.timer);
          if ((when - held.at) * 1000 >= w.debounce && edgeMatches(w, held.level)) fire(w, held.level, held.at);
        }
        if (!watches.has(w.id)) continue; // a watch without repeat that just fired
        const timer = setTimeout(
          () => {
            w.pending = null;
            if (levels.get(pin) === level && watches.has(w.id) && edgeMatches(w, level)) fire(w, level, when);
            callSettledWaiters();
          },
          Math.max(0, w.debounce - (time() - when) * 1000),
        );
        w.pending = { level, at: when, timer };
      }
    },
    level(pin: string): Level {
      const l = levels.get(pin);
      return l === undefined ? 0 : l;
    },
    whenSettled(done: () => void): void {
      settledWaiters.push(done);
      callSettledWaiters();
    },
    stopAll(): void {
      for (const w of watches.values()) if (w.pending) clearTimeout(w.pending.timer);
      watches.clear();
      settledWaiters = [];
    },
  };
}
