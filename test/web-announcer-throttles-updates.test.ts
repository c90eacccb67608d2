/**
 * The page's one live region (src/web/announcer.ts): what a person asked for is said at once, while
 * what merely changes (the pet's mood at 600x, a save) is said at most once every five seconds, the
 * latest news replacing what was not said yet, so a screen reader is not flooded.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAnnouncer } from "../src/web/announcer";

describe("the page's live region", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  /** A stand-in element recording every text it was given. */
  function region(): { el: HTMLElement; said: string[] } {
    const said: string[] = [];
    let text = "";
    const el = {
      get textContent() {
        return text;
      },
      set textContent(t: string) {
        text = t;
        said.push(t);
      },
    } as unknown as HTMLElement;
    return { el, said };
  }

  it("says a stream of changes at most once every 5 s, always the latest", () => {
    const { el, said } = region();
    const a = createAnnouncer(el);
    vi.advanceTimersByTime(10_000);
    for (let i = 0; i < 600; i++) {
      a.update("Pip · playing " + i);
      vi.advanceTimersByTime(10); // 100 changes a second, as at 3600x
    }
    // 6 s of changes: the first at once, then one 5 s later with the news of that moment.
    expect(said).toEqual(["Pip · playing 0", "Pip · playing 499"]);
    vi.advanceTimersByTime(5000);
    expect(said).toEqual(["Pip · playing 0", "Pip · playing 499", "Pip · playing 599"]);
    vi.advanceTimersByTime(60_000);
    expect(said.length).toBe(3); // nothing new, nothing said
  });

  it("says at once what a person asked for, and drops the stale news it replaces", () => {
    const { el, said } = region();
    const a = createAnnouncer(el);
    vi.advanceTimersByTime(10_000);
    a.update("Pip · idle");
    a.update("Pip · playing");
    a.now('= "Pip"');
    vi.advanceTimersByTime(10_000);
    expect(said).toEqual(["Pip · idle", '= "Pip"']);
    a.now('= "Pip"'); // the same answer again is rewritten, so it is heard again
    expect(said[said.length - 1]).not.toBe('= "Pip"');
    expect(said[said.length - 1]!.trim()).toBe('= "Pip"');
  });
});
