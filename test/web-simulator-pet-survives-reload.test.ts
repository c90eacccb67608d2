/**
 * The Simulator tab in a real browser (Debian's Chromium): the firmware bundle boots in the page,
 * the button plays with the pet, a 5 s hold hatches a new one with the LED lit as on the board, and a
 * reload (the power cut) brings back the same pet from IndexedDB through the slot log.
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

describe("web simulator", () => {
  it("boots the firmware on an empty browser: hatches Pip and draws it on the canvas OLED", async () => {
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes("hatched Pip"));
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe("Pip");
    expect(await page.getAttribute("#sim-oled", "width")).toBe("128");
    // The face (a circle of radius 22, the name, the activity) lights a few hundred pixels, not all.
    const lit = await litPixels();
    expect(lit).toBeGreaterThan(100);
    expect(lit).toBeLessThan(128 * 64 / 2);
  });

  it("a short press of the space key makes the pet play", async () => {
    await page.focus("body");
    await page.keyboard.down(" ");
    await page.keyboard.up(" ");
    await page.waitForFunction(() => document.getElementById("sim-status")!.textContent!.includes("playing"));
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

  it("holding the button 5 s lights the LED, and letting go hatches a new pet", async () => {
    expect(await page.getAttribute("#sim-led", "class")).not.toContain("on");
    const box = (await page.locator("#sim-button").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.waitForSelector("#sim-led.on", { timeout: 15_000 });
    expect(await page.getAttribute("#sim-status", "data-name")).toBe("Rex");
    await page.mouse.up();
    await expect.poll(() => page.getAttribute("#sim-status", "data-name"), { timeout: 10_000 }).toBe("Pip");
    await page.waitForSelector("#sim-saved[data-name=Pip]");
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

  it("the console box answers pet.* calls with the firmware's result", async () => {
    await typeConsole(page, "pet.status().name");
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes('= "Pip"'));
    await typeConsole(page, "pet.nosuch()");
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes("Uncaught TypeError"));
  });

  it("a second tab does not start a second board over the same flash, and says why", async () => {
    const second = await fx.browser.context.newPage();
    await second.goto(fx.url);
    await second.waitForSelector("body[data-sim=failed]");
    expect(await second.locator("#sim-status").innerText()).toContain("already running in another tab");
    await second.close();
  });

  it("had no page errors", () => {
    expect(errors).toEqual([]);
  });
});
