/**
 * The page on a plain-http address (a LAN name, as `npm run web` served to another machine), where
 * the browser offers no Web Locks, no Web Serial and no service worker. One simulator per region
 * still holds: a lease in IndexedDB keeps a second tab waiting with the same words as elsewhere; a
 * tab that dies (its renderer crashed: no goodbye) lets go within seconds, and one closed normally
 * lets go at once. The Device tab says the page is not secure, not that the browser lacks Web Serial,
 * and offers nothing it cannot do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openPageFixture, watchErrors, type PageFixture } from "./web-page";

const LAN_HOST = "pet-lan.test";
let fx: PageFixture;

beforeAll(async () => {
  fx = await openPageFixture({ lanHost: LAN_HOST });
});
afterAll(async () => {
  if (fx) await fx.close();
});

/** A tab of the page at the LAN address, recording every state its simulator went through. */
async function lanTab(): Promise<{ page: Page; errors: string[] }> {
  const page = await fx.browser.context.newPage();
  const errors = watchErrors(page);
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __simStates: string[] }).__simStates = seen;
    new MutationObserver(() => {
      const s = document.body && document.body.getAttribute("data-sim");
      if (s && seen[seen.length - 1] !== s) seen.push(s);
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-sim"] });
  });
  await page.goto(fx.lanUrl);
  return { page, errors };
}
const states = (p: Page): Promise<string[]> => p.evaluate(() => (window as unknown as { __simStates: string[] }).__simStates);

describe("the page on a plain-http LAN address", () => {
  let first: Page;
  let second: Page;
  let errors: string[];

  it("is really a page without Web Locks, Web Serial or service workers", async () => {
    ({ page: first, errors } = await lanTab());
    await first.waitForSelector("body[data-sim=running]");
    expect(await first.evaluate(() => [window.isSecureContext, "locks" in navigator, "serial" in navigator, "serviceWorker" in navigator])).toEqual([false, false, false, false]);
    expect(await first.getAttribute("body", "data-offline")).toBe("unavailable");
    await first.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes("hatched Pip"));
  });

  it("a second tab waits, saying why, while the first runs", async () => {
    ({ page: second } = await lanTab());
    await second.waitForSelector("body[data-sim=waiting]");
    expect(await second.locator("#sim-status").innerText()).toContain("already running in another tab");
  });

  it("a first tab that dies without a goodbye lets go within seconds: the second starts, with the same pet", async () => {
    const cdp = await fx.browser.context.newCDPSession(first);
    const crashed = new Promise((r) => first.once("crash", r));
    void cdp.send("Page.crash").catch(() => undefined);
    await crashed;
    await second.waitForSelector("body[data-sim=running]", { timeout: 15_000 });
    await second.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes("restored Pip"));
    await first.close();
  });

  it("a tab closed normally lets go at once: the next tab never waits", async () => {
    await second.close(); // pagehide: the lease is given back
    const { page: third } = await lanTab();
    await third.waitForSelector("body[data-sim=running]");
    expect(await states(third)).toEqual(["starting", "running"]);
    await third.close();
  });

  it("the Device tab says the page is not secure, not that the browser lacks Web Serial, and offers nothing it cannot do", async () => {
    const { page } = await lanTab();
    await page.click("#tab-device");
    const text = await page.locator("#dev-support").innerText();
    expect(text).toContain("plain http");
    expect(text).toContain("http://localhost");
    expect(text).not.toContain("This browser has no Web Serial");
    expect(text).toContain("Run “npm run web” on that computer");
    expect(await page.locator("body").innerText()).not.toContain("`"); // no Markdown left in the page's words
    for (const id of ["#dev-connect", "#esp-files", "#esp-erase", "#esp-install"]) expect(await page.isDisabled(id)).toBe(true);
    await page.close();
  });

  it("had no page errors", () => {
    expect(errors).toEqual([]);
  });
});
