/**
 * A console line that never yields (`while(1){}`) cannot hang the page: the simulated board runs in a
 * Worker, the page stays responsive while it spins, and the page's watchdog resets the board after a
 * few seconds. The reset is a power cut: the board boots from what IndexedDB holds, so a save the
 * page reported survives, and a change the board made just before it hung (never written to
 * IndexedDB, never reported as saved) is gone, as on a board whose power failed.
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

const consoleHas = (text: string): Promise<unknown> =>
  page.waitForFunction((t) => document.getElementById("sim-console")!.textContent!.includes(t), text, { timeout: 20_000 });

describe("web simulator watchdog", () => {
  it("a while(1){} typed in the console is ended by the watchdog while the page stays responsive; the reset is a power cut", async () => {
    await typeConsole(page, 'pet.rename("Wat")');
    await page.waitForSelector("#sim-saved[data-name=Wat]"); // in IndexedDB: reported as saved
    // The rename to Cut changes the board's flash, and the loop then keeps the board from ever
    // writing that change to IndexedDB.
    await typeConsole(page, 'pet.rename("Cut"); while(1){}');
    await consoleHas('> pet.rename("Cut"); while(1){}');

    // The page answers while the board spins: tabs switch, a file is checked, text can be typed.
    await page.click("#tab-files");
    expect(await page.getAttribute("#tab-files", "aria-selected")).toBe("true");
    await page.click("#tab-sim");
    await page.fill("#sim-eval-input", "still typing");
    expect(await page.inputValue("#sim-eval-input")).toBe("still typing");
    expect(await page.locator("#sim-console").innerText()).not.toContain("watchdog");

    await consoleHas("its watchdog reset it");
    await consoleHas("restored Wat");
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe("Wat");
    expect(await page.getAttribute("#sim-saved", "data-name")).toBe("Wat");
    expect(await page.locator("#sim-console").innerText()).not.toContain("Cut, sector"); // never reported saved

    // The board works again after the reset.
    await page.fill("#sim-eval-input", "");
    await typeConsole(page, "pet.status().name");
    await consoleHas('= "Wat"');
  });

  it("had no page errors", () => {
    expect(errors).toEqual([]);
  });
});
