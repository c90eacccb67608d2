/**
 * The page's one polite live region, so a screen reader hears what matters without a flood: what a
 * person asked for is said at once (`now`), while what merely changes (the pet's mood at 600x, a save)
 * is said at most once every MIN_GAP_MS, the latest news replacing anything not yet said (`update`).
 * The visible status lines and the console list are not live regions themselves.
 */
const MIN_GAP_MS = 5000;

export interface Announcer {
  now(text: string): void;
  update(text: string): void;
}

export function createAnnouncer(region: HTMLElement): Announcer {
  let lastSaid = -Infinity;
  let waiting: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  function say(text: string): void {
    lastSaid = performance.now();
    // The same text twice in a row is not announced again unless it is rewritten.
    region.textContent = region.textContent === text ? text + "\u00a0" : text;
  }
  return {
    now(text) {
      waiting = null;
      say(text);
    },
    update(text) {
      const wait = lastSaid + MIN_GAP_MS - performance.now();
      if (wait <= 0 && timer === null) return say(text);
      waiting = text;
      if (timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        if (waiting !== null) say(waiting);
        waiting = null;
      }, Math.max(0, wait));
    },
  };
}
