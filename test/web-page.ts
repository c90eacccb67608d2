/**
 * One built page, one static server and one browser for a web test file: the page is built into a
 * temporary folder (so parallel test files and `npm run web` never share dist/web) and served on an
 * ephemeral port by the same server `npm run web` uses.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { buildWeb } from "../scripts/lib/buildWeb.js";
import { serveStatic } from "../scripts/lib/staticServer.js";
import { launchBrowser, type TestBrowser } from "./web-browser";

export interface PageFixture {
  url: string;
  outDir: string;
  browser: TestBrowser;
  /** Stops the static server: the network is gone for the page. */
  stopServer(): Promise<void>;
  close(): Promise<void>;
}

export async function openPageFixture(): Promise<PageFixture> {
  const outDir = mkdtempSync(join(tmpdir(), "pet-web-"));
  await buildWeb({ outDir });
  const server = await serveStatic(outDir);
  let serving = true;
  const browser = await launchBrowser();
  return {
    url: server.url,
    outDir,
    browser,
    async stopServer() {
      if (serving) await server.close();
      serving = false;
    },
    async close() {
      await browser.close();
      if (serving) await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** Page errors and failed loads are collected so a test can insist there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push("pageerror: " + e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push("console error: " + m.text());
  });
  return errors;
}

/** Runs a line in the simulator's console box, as a person types it. */
export async function typeConsole(page: Page, text: string): Promise<void> {
  await page.fill("#sim-eval-input", text);
  await page.press("#sim-eval-input", "Enter");
}
