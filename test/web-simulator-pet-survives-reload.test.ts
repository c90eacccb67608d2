/**
 * The Simulator tab in a real browser (Debian's Chromium): the firmware bundle boots on the simulated
 * board (a Worker), the button plays with the pet when the board has the keyboard focus and only
 * then (Space on a focused tab selects the tab), the button's name says what it does, the console
 * keeps a history, a 5 s hold hatches a new pet with the LED lit as on the board after keeping a
 * backup, the tab's name box renames and hatches (refusing what the name rule refuses, and drawing a
 * name the font lacks letters of with the nearest ones), a reload (the power cut) brings back the
 * same pet from IndexedDB through the slot log, and a second tab waits with a clear message while
 * the first runs, offering nothing that needs the board and showing the save the browser keeps,
 * then takes over when it closes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { canvasRows, openPageFixture, openSimulatorPage, typeConsole, type PageFixture } from "./web-page";
import { NAME_ROWS, nameRows } from "./web-name-drawing";
import { NEXT_ACTIVITY, REACTION_ACTIVITY, REACTION_EXPRESSION } from "../src/core/rules";
import { ACTIVITY_NAMES, EXPRESSION_NAMES } from "../src/core/types";

let fx: PageFixture;
let page: Page;
let errors: string[];

beforeAll(async () => {
  fx = await openPageFixture();
  ({ page, errors } = await openSimulatorPage(fx));
});
afterAll(async () => {
  if (fx) await fx.close();
});

const consoleText = (): Promise<string> => page.locator("#sim-console").innerText();
const litPixels = (): Promise<number> =>
  page.evaluate(() => {
    const c = document.getElementById("sim-oled") as HTMLCanvasElement;
    const d = (c.getContext("2d") as CanvasRenderingContext2D).getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if ((d[i + 2] as number) > 128) n++;
    return n;
  });
/** How many times the page has pressed the simulated button since the counter was installed. */
const presses = (): Promise<number> => page.evaluate(() => (window as unknown as { __presses: number }).__presses);

describe("web simulator", () => {
  it("boots the firmware on an empty browser: hatches Pip and draws it on the canvas OLED", async () => {
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes("hatched Pip"));
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe("Pip");
    expect(await page.getAttribute("#sim-oled", "width")).toBe("128");
    // The face (a circle of radius 22, the name, the activity) lights a few hundred pixels, not all.
    await expect.poll(litPixels).toBeGreaterThan(100);
    expect(await litPixels()).toBeLessThan((128 * 64) / 2);
  });

  it("the button's accessible name says what it does; the console and the pet's status are not live regions, one throttled region speaks", async () => {
    expect(await page.getByRole("button", { name: "Button: play with the pet; hold 5 seconds to hatch a new one" }).count()).toBe(1);
    for (const id of ["#sim-console", "#sim-status", "#sim-saved"]) expect(await page.getAttribute(id, "aria-live")).toBeNull();
    expect(await page.locator("[aria-live]").evaluateAll((els) => els.map((e) => e.id + ":" + e.getAttribute("aria-live")))).toEqual(["announcer:polite"]);
  });

  it("Space on a focused tab selects that tab and leaves the pet alone; on the focused button it plays with the pet", async () => {
    await page.evaluate(() => {
      const w = window as unknown as { __presses: number };
      w.__presses = 0;
      new MutationObserver(() => {
        if (document.getElementById("sim-button")!.getAttribute("aria-pressed") === "true") w.__presses++;
      }).observe(document.getElementById("sim-button")!, { attributes: true, attributeFilter: ["aria-pressed"] });
    });
    await page.focus("#tab-files");
    await page.keyboard.press(" ");
    expect(await page.getAttribute("#tab-files", "aria-selected")).toBe("true");
    await page.focus("#tab-sim");
    await page.keyboard.press("Enter");
    expect(await page.getAttribute("#tab-sim", "aria-selected")).toBe("true");
    // Home and End go to the first and the last tab, as the arrow keys go to the next.
    await page.keyboard.press("End");
    expect(await page.getAttribute("#tab-files", "aria-selected")).toBe("true");
    expect(await page.evaluate(() => document.activeElement!.id)).toBe("tab-files");
    await page.keyboard.press("Home");
    expect(await page.getAttribute("#tab-sim", "aria-selected")).toBe("true");
    expect(await page.evaluate(() => document.activeElement!.id)).toBe("tab-sim");
    expect(await presses()).toBe(0);
    // The pet reacts as the rules say for what it is doing when the press arrives: it plays when idle,
    // wandering or playing, and stays (grumpy) when eating or sleeping, which a hatched pet is once
    // its first 20 s of idling are over (a slow run gets there). What it may be doing by then: what
    // the status shows now, or an activity that can follow it.
    const before = ACTIVITY_NAMES.indexOf(((await page.locator("#sim-status").innerText()).split(" · ")[1] ?? "").split(",")[0]!);
    expect(before).toBeGreaterThanOrEqual(0);
    const reactions = [before, ...NEXT_ACTIVITY.slice(4 * before, 4 * before + 4)].map(
      (a) => ACTIVITY_NAMES[REACTION_ACTIVITY[a]!] + ", " + EXPRESSION_NAMES[REACTION_EXPRESSION[a]!],
    );
    await page.focus("#sim-button");
    await page.keyboard.down(" ");
    await page.keyboard.up(" ");
    expect(await presses()).toBe(1);
    await page.waitForFunction((want) => want.some((r) => document.getElementById("sim-status")!.textContent!.endsWith(" · " + r)), reactions);
  });

  it("the console box keeps a history: Up brings back earlier lines, Down goes forward again", async () => {
    await page.evaluate(() => {
      const said: string[] = ((window as unknown as { __said: string[] }).__said = []);
      const region = document.getElementById("announcer")!;
      new MutationObserver(() => said.push(region.textContent || "")).observe(region, { childList: true, characterData: true, subtree: true });
    });
    await typeConsole(page, "1+1");
    await typeConsole(page, "pet.status().name");
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes('= "Pip"'));
    // What was asked for is said at once.
    expect(await page.evaluate(() => (window as unknown as { __said: string[] }).__said)).toContain('"Pip"');
    await page.fill("#sim-eval-input", "draft");
    await page.press("#sim-eval-input", "ArrowUp");
    expect(await page.inputValue("#sim-eval-input")).toBe("pet.status().name");
    await page.press("#sim-eval-input", "ArrowUp");
    expect(await page.inputValue("#sim-eval-input")).toBe("1+1");
    await page.press("#sim-eval-input", "ArrowDown");
    await page.press("#sim-eval-input", "ArrowDown");
    expect(await page.inputValue("#sim-eval-input")).toBe("draft");
    await page.fill("#sim-eval-input", "");
  });

  it("a quick press while the board is busy still reaches it as a press, timed by when it happened", async () => {
    // A second watch on the button, as the firmware's own (both edges, 50 ms debounce), noting each
    // press and how long it was held by the board's account.
    await typeConsole(page, 'global.seen=[];setWatch(function(e){seen.push(e.state?Math.round((e.time-e.lastTime)*1000):"down")},BTN,{edge:"both",debounce:50,repeat:true}),"watching"');
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes('= "watching"'));
    // The board busy for a second (a console line), and a tap of Space on the button meanwhile: its
    // press and release reach the board together, once the line is done.
    await typeConsole(page, "var until=getTime()+1;while(getTime()<until);");
    await page.focus("#sim-button");
    await page.keyboard.down(" ");
    await page.keyboard.up(" ");
    // Asked until the release has come through its debounce (a tick or two of the board).
    const heldAnswers = async (): Promise<string[]> => (await consoleText()).match(/= "held [\w,]*"/g) ?? [];
    let answers: string[] = [];
    for (let i = 0; i < 20 && !answers.some((a) => /\d"$/.test(a)); i++) {
      const n = answers.length;
      await typeConsole(page, '"held "+seen.join(",")');
      await expect.poll(async () => (answers = await heldAnswers()).length).toBeGreaterThan(n);
    }
    const last = answers[answers.length - 1]!;
    // One press: its down edge, then its release. (Lost, the board saw a release alone.)
    expect(last).toMatch(/^= "held down,\d+"$/);
    const held = Number(/(\d+)"$/.exec(last)![1]);
    // The page stretches a tap to 120 ms; the board times it so, not as the instant between the two
    // messages (a bounce, which the debounce drops).
    expect(held).toBeGreaterThanOrEqual(100);
    expect(held).toBeLessThan(1000);
  });

  it("the console runs on the board, out of reach of the page's document", async () => {
    await typeConsole(page, "typeof document + '/' + typeof window");
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes('= "undefined/undefined"'));
    await typeConsole(page, "pet.nosuch()");
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes("Uncaught TypeError"));
  });

  it("a save in the page survives a reload (the power cut): the same pet comes back", async () => {
    await typeConsole(page, 'pet.rename("Rex")');
    await page.waitForSelector("#sim-saved[data-name=Rex]");
    const saved = Number(await page.getAttribute("#sim-saved", "data-updates"));
    await page.reload();
    await page.waitForSelector("body[data-sim=running]");
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe("Rex");
    const text = await consoleText();
    expect(text).toContain("restored from this browser's storage");
    expect(text).not.toContain("hatched Pip");
    expect(Number(await page.getAttribute("#sim-status", "data-updates"))).toBeGreaterThanOrEqual(saved);
  });

  it("holding the button 5 s lights the LED, keeps a backup, and letting go hatches a new pet", async () => {
    expect(await page.getAttribute("#sim-led", "class")).not.toContain("on");
    const box = (await page.locator("#sim-button").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.waitForSelector("#sim-led.on", { timeout: 15_000 });
    expect(await page.getAttribute("#sim-status", "data-name")).toBe("Rex");
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes("Backed up the pet's region first (Rex"));
    await page.mouse.up();
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe("Pip");
    await page.waitForSelector("#sim-saved[data-name=Pip]");
    await page.click("#tab-backups");
    const row = page.locator("#backups-list tr", { hasText: "before hatching" });
    expect(await row.count()).toBe(1);
    expect(await row.innerText()).toContain("Rex");
    await page.click("#tab-sim");
  });

  it("the speed control restarts the board at 3600x: the same pet, ten minutes of its world in a moment", async () => {
    const name = await page.getAttribute("#sim-status", "data-name");
    const before = Number(await page.getAttribute("#sim-clock", "data-elapsed-ms"));
    await page.selectOption("#sim-speed", "3600");
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes("board restarted at speed x3600"));
    // At 1x this would take ten real minutes, far past the wait's limit.
    await page.waitForFunction((b) => Number(document.getElementById("sim-clock")!.dataset.elapsedMs) > b + 600_000, before);
    expect(await page.getAttribute("#sim-status", "data-name")).toBe(name);
    await page.selectOption("#sim-speed", "1");
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes("board restarted at speed x1"));
  });

  it("names the pet from the tab: the name rule's refusals said as it is typed, a name the font lacks letters of drawn with the nearest ones, and Hatch asks and keeps a backup", async () => {
    const note = page.locator("#sim-name-note");
    await page.fill("#sim-name", "\u00e9".repeat(16)); // 32 bytes of UTF-8
    expect(await note.innerText()).toContain("Too long: this name is 32 bytes of UTF-8, and a name is at most 31");
    expect(await page.getAttribute("#sim-name", "aria-invalid")).toBe("true");
    expect(await page.isDisabled("#sim-rename")).toBe(true);
    expect(await page.isDisabled("#sim-hatch")).toBe(true);
    await page.fill("#sim-name", "");
    expect(await note.innerText()).toContain("Hatch with the box empty names the new pet Pip");
    expect(await page.isDisabled("#sim-rename")).toBe(true);
    expect(await page.isDisabled("#sim-hatch")).toBe(false);

    await page.fill("#sim-name", "Zo\u00eb");
    expect(await note.innerText()).toContain("The board's screen has no \u201c\u00eb\u201d: it shows this name as \u201cZoe\u201d");
    await page.click("#sim-rename");
    await page.waitForSelector("#sim-saved[data-name='Zo\u00eb']");
    expect(await page.locator("#sim-name-result").innerText()).toBe('pet.rename() answered "ok"');
    // The name itself, as typed (the status line follows on its own poll, so it is waited for).
    await page.waitForSelector("#sim-status[data-name='Zo\u00eb']", { timeout: 10_000 });
    // The simulated board's panel shows the name as the font can draw it: as if "Zoe" had been typed.
    await expect.poll(() => canvasRows(page, "sim-oled", NAME_ROWS)).toEqual(nameRows("Zoe"));
    expect(nameRows("Zoe")).not.toEqual(nameRows("Zo?")); // the comparison can tell them apart

    await page.fill("#sim-name", "Bo");
    page.once("dialog", (d) => {
      expect(d.message()).toContain("Hatch a new pet called Bo on the simulator? Zo\u00eb is replaced");
      void d.accept();
    });
    await page.click("#sim-hatch");
    await page.waitForSelector("#sim-saved[data-name=Bo]");
    expect(await page.locator("#sim-name-result").innerText()).toBe('pet.hatch() answered "ok"');
    await page.click("#tab-backups");
    expect(await page.locator("#backups-list tr", { hasText: "Zo\u00eb" }).filter({ hasText: "before hatching" }).count()).toBe(1);
    await page.click("#tab-sim");
  });

  it("had no page errors", () => {
    expect(errors).toEqual([]);
  });

  it("a second tab does not start a second board over the same flash: it says why, offers nothing that needs the board, and takes over once the first is closed", async () => {
    const second = await fx.browser.context.newPage();
    await second.goto(fx.url);
    await second.waitForSelector("body[data-sim=waiting]");
    expect(await second.locator("#sim-status").innerText()).toContain("already running in another tab");
    const notice = second.locator("#sim-elsewhere");
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.innerText()).toContain("running in another tab of this browser");
    expect(await notice.innerText()).toContain("takes over by itself as soon as that tab is closed");
    const boardControls = ["#sim-button", "#sim-speed", "#sim-eval-input", "#sim-eval button", "#sim-download-bin", "#sim-download-hex", "#sim-download-image", "#sim-restore", "#sim-load-image"];
    for (const id of boardControls) expect(await second.isDisabled(id), id).toBe(true);
    // The save line says what this browser keeps (the first tab's last save), not "no save yet".
    const savedName = await page.getAttribute("#sim-saved", "data-name");
    await expect.poll(() => second.getAttribute("#sim-saved", "data-name")).toBe(savedName);
    expect(await second.locator("#sim-saved").innerText()).toContain("last save kept in this browser: " + savedName);
    // Nothing elsewhere on the page offers to work the simulator from here either.
    await second.click("#tab-backups");
    const into = second.getByRole("button", { name: /^Into the simulator/ });
    expect(await into.count()).toBeGreaterThan(0);
    for (const b of await into.all()) expect(await b.isDisabled()).toBe(true);
    // Step 3's copies between a board and the simulator say where the simulator is (the step opens with a pet).
    expect(await second.locator("#dev-sim-elsewhere").evaluate((e) => (e as HTMLElement).hidden)).toBe(false);
    await second.click("#tab-sim");

    const name = await page.getAttribute("#sim-status", "data-name");
    await page.close();
    await second.waitForSelector("body[data-sim=running]");
    await expect.poll(() => second.getAttribute("#sim-status", "data-name")).toBe(name);
    expect(await notice.isVisible()).toBe(false);
    for (const id of boardControls) expect(await second.isDisabled(id), id).toBe(false);
    await second.click("#tab-backups");
    for (const b of await into.all()) expect(await b.isDisabled()).toBe(false);
    expect(await second.locator("#dev-sim-elsewhere").evaluate((e) => (e as HTMLElement).hidden)).toBe(true);
    await second.close();
  });
});
