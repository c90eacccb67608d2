/**
 * The simulated board runs in a sandbox (src/web/sim/boardSandbox.ts): whatever is typed at its
 * console cannot touch the page, as a real board cannot. Tried here with what a pasted snippet would
 * do: delete the page's IndexedDB database (the pet's flash and every backup), reach its Cache
 * Storage (the offline copy), its localStorage, or its BroadcastChannel (where tabs hand the board
 * over); and post the page messages of every type it knows, and of types it used to know, with
 * made-up contents, to make the page say things in its own words ("Backed up…", "last save kept in
 * this browser: Mallory"). Each attack is paired with a check that the thing attacked was there to be
 * reached: the page's own database, cache, storage and channel work from the page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openPageFixture, openSimulatorPage, typeConsole, type PageFixture } from "./web-page";

let fx: PageFixture;
let page: Page;
let errors: string[];

beforeAll(async () => {
  fx = await openPageFixture();
  ({ page, errors } = await openSimulatorPage(fx));
  await page.waitForSelector("#sim-saved[data-name=Pip]");
});
afterAll(async () => {
  if (fx) await fx.close();
});

const consoleHas = (text: string): Promise<unknown> =>
  page.waitForFunction((t) => document.getElementById("sim-console")!.textContent!.includes(t), text, { timeout: 10_000 });
/** The console's lines in the page's own words (marked as the page's), as text. */
const pageLines = (): Promise<string[]> => page.locator("#sim-console li.from-page").allInnerTexts();
const backupRows = async (): Promise<number> => {
  await page.click("#tab-backups");
  const n = await page.locator("#backups-list tr").count();
  await page.click("#tab-sim");
  return n;
};

describe("the simulated board cannot touch the page", () => {
  it("runs in an opaque origin, not the page's", async () => {
    expect(await page.evaluate(() => location.origin)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await typeConsole(page, "typeof origin + ' ' + origin");
    await consoleHas('= "string null"');
  });

  it("indexedDB.deleteDatabase(\"espruino-pet\") typed at its console deletes nothing: the pet and the backups survive a reload", async () => {
    await typeConsole(page, 'pet.hatch("Bob")'); // the page keeps a backup of Pip first
    await page.waitForSelector("#sim-saved[data-name=Bob]");
    expect(await backupRows()).toBe(1);
    // The database is there, from the page's side.
    expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).toContain("espruino-pet");

    await typeConsole(page, 'indexedDB.deleteDatabase("espruino-pet")');
    await consoleHas("Uncaught SecurityError");
    await typeConsole(page, 'indexedDB.open("espruino-pet")');
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.split("Uncaught SecurityError").length === 3);

    await page.reload();
    await page.waitForSelector("body[data-sim=running]");
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe("Bob");
    expect(await page.locator("#sim-console").innerText()).toContain("restored from this browser's storage");
    expect(await backupRows()).toBe(1);
  });

  it("reaches neither the page's Cache Storage (the offline copy) nor localStorage", async () => {
    await page.waitForSelector("body[data-offline=ready]");
    const kept = await page.evaluate(async () => (await caches.keys()).length);
    expect(kept).toBeGreaterThan(0);
    await page.evaluate(() => localStorage.setItem("left-by-the-page", "yes"));
    // Chromium gives the sandboxed board no Cache Storage at all (it is not a secure context); a
    // browser that did would have to refuse it the page's caches.
    await typeConsole(
      page,
      'typeof caches=="undefined"?print("caches: none"):caches.keys().then(function(k){print("caches: "+k.length)},function(e){print("caches refused: "+e.name)}); typeof localStorage+" "+typeof sessionStorage',
    );
    await consoleHas('= "undefined undefined"');
    await page.waitForFunction(() => /caches: none|caches refused: SecurityError/.test(document.getElementById("sim-console")!.textContent!));
    expect(await page.evaluate(async () => (await caches.keys()).length)).toBe(kept);
    expect(await page.evaluate(() => localStorage.getItem("left-by-the-page"))).toBe("yes");
  });

  it("cannot talk on the page's BroadcastChannel, where the tabs hand the board over", async () => {
    await page.evaluate(() => {
      const heard: unknown[] = ((window as unknown as { __heard: unknown[] }).__heard = []);
      new BroadcastChannel("espruino-pet-simulator").onmessage = (e) => heard.push(e.data);
    });
    await typeConsole(page, 'new BroadcastChannel("espruino-pet-simulator").postMessage({t:"released",owner:"board"}); "sent"');
    await consoleHas('= "sent"');
    // The page's own channel, posted on from the page, is heard: the listener works.
    await page.evaluate(() => new BroadcastChannel("espruino-pet-simulator").postMessage({ t: "from-the-page" }));
    await page.waitForFunction(() => (window as unknown as { __heard: unknown[] }).__heard.length > 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(await page.evaluate(() => (window as unknown as { __heard: unknown[] }).__heard)).toEqual([{ t: "from-the-page" }]);
  });

  it("messages of every type the page knows, with made-up contents, make the page say nothing in its own words", async () => {
    const pageSaidBefore = await pageLines();
    const savedBefore = await page.locator("#sim-saved").innerText();
    // Every text the status line shows from now on, even for a moment.
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { __statusSeen: string[] }).__statusSeen = []);
      const el = document.getElementById("sim-status")!;
      new MutationObserver(() => seen.push(el.textContent + " " + el.dataset.updates)).observe(el, { childList: true, characterData: true, subtree: true, attributes: true });
    });
    // The board's one channel is kept from the console, but a console line can still get it: catch
    // it as the next message from the page arrives (the getter runs with the event, whose target is
    // the port). The page must not rely on the port being out of reach.
    await typeConsole(
      page,
      'var d=Object.getOwnPropertyDescriptor(MessageEvent.prototype,"data").get; Object.defineProperty(MessageEvent.prototype,"data",{configurable:true,get:function(){self.__port=this.target;return d.call(this)}}); "ok"',
    );
    await consoleHas('= "ok"');
    const forged = [
      // The types the page takes, with contents it does not.
      { t: "line", text: 42 },
      { t: "line" },
      { t: "frame", pixels: new Uint8Array(10), led: true, status: null },
      { t: "frame", pixels: new Uint8Array(1024), led: "on", status: null },
      { t: "frame", pixels: new Uint8Array(1024), led: true, status: { name: "Mallory", activityName: "idle", expressionName: "happy", updateCount: "lots", elapsedMs: "1" } },
      { t: "frame", pixels: [0, 0, 0], led: true, status: null },
      { t: "flash", bytes: new Uint8Array(100) },
      { t: "flash", bytes: "erase everything" },
      { t: "failed", message: "Mallory took over" }, // after the board's first frame: not believed
      { t: "reply", id: "1", ok: true, value: "x" },
      { t: "reply", id: 999999, ok: true, value: "nothing asked this" },
      { t: "reply", id: 3, ok: false, error: { text: "not a string" } },
      // Types the page used to take from the board: the save it holds, a lost lease, a boot report.
      { t: "saved", save: { name: "Mallory", updateCount: "999", sector: 0, slot: 0, seq: 1 } },
      { t: "ready", origin: "new", save: { name: "Mallory", updateCount: "999", sector: 0, slot: 0, seq: 1 } },
      { t: "lease-lost" },
      // Not messages at all.
      "page: hello",
      null,
      [1, 2, 3],
      { t: "nosuch" },
    ];
    // Posted from the console, with the line's own answer forged too (its id is one of the first
    // few hundred), in a shape a console answer never has.
    await typeConsole(
      page,
      "var f=" +
        JSON.stringify(forged, (_key, v) => (v instanceof Uint8Array ? { __bytes: v.length } : v)) +
        ';f.forEach(function(m){if(m&&m.pixels&&m.pixels.__bytes)m.pixels=new Uint8Array(m.pixels.__bytes);if(m&&m.bytes&&m.bytes.__bytes)m.bytes=new Uint8Array(m.bytes.__bytes);self.__port.postMessage(m)});' +
        'self.__port.postMessage({t:"line",text:"x".repeat(100000)});for(var i=0;i<500;i++)self.__port.postMessage({t:"reply",id:i,ok:true,value:{forged:true}});' +
        'self.__port.postMessage({t:"line",text:"page: Backed up the pet\'s region first (Mallory, updates 999): it is kept in this browser, under Backups."});"done"',
    );
    await consoleHas("was not one the page takes");
    await consoleHas("Backed up the pet's region first (Mallory");

    // The board's line is shown as the board's: the page's own lines gained only its two notes.
    const said = (await pageLines()).slice(pageSaidBefore.length);
    expect(said).toEqual([
      "page: the board sent a message the page does not take; it was ignored, as is any other until the board is reset.",
      "page: the simulated board's answer to the console line was not one the page takes, so it is not shown",
    ]);
    const forgedLine = "page: Backed up the pet's region first (Mallory, updates 999): it is kept in this browser, under Backups.";
    expect(await page.locator("#sim-console li.from-board").evaluateAll((lis, t) => lis.filter((li) => li.textContent === t).length, forgedLine)).toBe(1);
    expect(await page.locator("#sim-console li.from-page", { hasText: "Mallory" }).count()).toBe(0);
    expect(await page.locator("#sim-saved").innerText()).toBe(savedBefore);
    const lines = await page.locator("#sim-console li.from-board").allInnerTexts();
    expect(lines.filter((l) => l === "42" || l === "undefined")).toEqual([]);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(4001); // the long line, cut
    expect(lines).toContain("x".repeat(4000) + "…");
    const statusSeen = await page.evaluate(() => (window as unknown as { __statusSeen: string[] }).__statusSeen);
    expect(statusSeen.length).toBeGreaterThan(0); // the observer saw the real frames
    expect(statusSeen.filter((t) => t.includes("Mallory") || !/ \d+$/.test(t))).toEqual([]);
    expect(await page.getAttribute("body", "data-sim")).toBe("running");
    expect(await page.locator("#sim-status").innerText()).not.toContain("did not start");
    expect(await page.locator("#sim-console").innerText()).not.toContain("another tab took over");

    // The board still works, the save the page reports is its own, and nothing reached the backups.
    await typeConsole(page, 'pet.rename("Eve")');
    await page.waitForSelector("#sim-saved[data-name=Eve]");
    expect(await page.locator("#sim-saved").innerText()).toMatch(/^last save kept in this browser: Eve, updates \d+$/);
    expect(await backupRows()).toBe(1);
  });

  it("had no page errors", () => {
    expect(errors).toEqual([]);
  });
});
