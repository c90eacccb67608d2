/**
 * Espruino's timer functions on top of Node's: setTimeout / setInterval return small numbers, and
 * clearTimeout / clearInterval accept each other's ids, as on the interpreter. A callback that throws
 * is reported as "Uncaught ..." and the loop carries on, the way Espruino keeps running after an
 * uncaught error in a timer.
 *
 * `intervalSpeedup` k runs every setInterval k times as often in real time (period / k), which
 * `--speed` above the firmware's per-tick budget needs (see clock.ts); setTimeout keeps real time.
 */

export interface SimTimers {
  setTimeout(fn: unknown, ms?: number, ...args: unknown[]): number;
  setInterval(fn: unknown, ms?: number, ...args: unknown[]): number;
  clearTimeout(id?: unknown): void;
  clearInterval(id?: unknown): void;
  /** Cancels everything (on quit). */
  stopAll(): void;
  /** Number of live timers (tests). */
  count(): number;
}

export function createSimTimers(report: (line: string) => void, intervalSpeedup = 1): SimTimers {
  if (!(intervalSpeedup >= 1)) throw new Error("intervalSpeedup must be at least 1, got " + String(intervalSpeedup));
  const live = new Map<number, ReturnType<typeof setTimeout>>();
  let nextId = 1;

  function wrap(fn: unknown, args: unknown[], id: number, once: boolean): () => void {
    if (typeof fn !== "function") throw new Error("desktop timers: the callback must be a function");
    return () => {
      if (once) live.delete(id);
      try {
        (fn as (...a: unknown[]) => void)(...args);
      } catch (e) {
        report("Uncaught " + describeError(e));
      }
    };
  }

  function clear(id?: unknown): void {
    if (id === undefined) {
      // Espruino: clearTimeout() with no argument clears every timer.
      for (const t of live.values()) clearTimeout(t);
      live.clear();
      return;
    }
    const key = Number(id);
    const t = live.get(key);
    if (t !== undefined) {
      clearTimeout(t);
      live.delete(key);
    }
  }

  return {
    setTimeout(fn: unknown, ms?: number, ...args: unknown[]): number {
      const id = nextId++;
      live.set(id, setTimeout(wrap(fn, args, id, true), Math.max(0, Number(ms) || 0)));
      return id;
    },
    setInterval(fn: unknown, ms?: number, ...args: unknown[]): number {
      const id = nextId++;
      live.set(id, setInterval(wrap(fn, args, id, false), Math.max(1, Math.round((Number(ms) || 0) / intervalSpeedup))));
      return id;
    },
    clearTimeout: clear,
    clearInterval: clear,
    stopAll: () => clear(),
    count: () => live.size,
  };
}

/** "Error: message" for errors of any realm, String(e) for anything else. */
export function describeError(e: unknown): string {
  if (typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string") {
    const name = (e as { name?: unknown }).name;
    return (typeof name === "string" ? name : "Error") + ": " + (e as { message: string }).message;
  }
  return String(e);
}
