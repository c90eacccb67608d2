/**
 * One built page, one static server and one browser for a web test file: the page is built into a
 * temporary folder (never dist/web, which `npm run web` owns), once per test run, and served on an
 * ephemeral port by the same server `npm run web` uses.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { buildWeb } from "../scripts/lib/buildWeb.js";
import { serveStatic } from "../scripts/lib/staticServer.js";
import { launchBrowser, type TestBrowser } from "./web-browser";

export interface PageFixture {
  url: string;
  /** The same server under the `lanHost` name, when one was asked for (a plain-http, not secure page). */
  lanUrl: string;
  outDir: string;
  browser: TestBrowser;
  /** Stops the static server: the network is gone for the page. */
  stopServer(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The page built once per test run: in the folder test/web-global-setup.ts named, by whichever file
 * gets there first (mkdir of a lock folder is atomic); the others wait for its "ready" mark. Run
 * without the global setup (a single file through another config), each file builds its own.
 */
export async function sharedBuild(): Promise<{ dir: string; own: boolean }> {
  const shared = process.env.PET_WEB_SHARED_BUILD;
  if (!shared || !existsSync(shared)) {
    const dir = mkdtempSync(join(tmpdir(), "pet-web-"));
    await buildWeb({ outDir: dir });
    return { dir, own: true };
  }
  const dir = join(shared, "page");
  const ready = join(shared, "ready");
  const failed = join(shared, "failed");
  try {
    mkdirSync(join(shared, "lock"));
  } catch {
    while (!existsSync(ready)) {
      if (existsSync(failed)) throw new Error("the shared build of the page failed: " + readFileSync(failed, "utf8"));
      await new Promise((r) => setTimeout(r, 200));
    }
    return { dir, own: false };
  }
  try {
    await buildWeb({ outDir: dir });
  } catch (e) {
    writeFileSync(failed, String(e));
    throw e;
  }
  writeFileSync(ready, "");
  return { dir, own: false };
}

export async function openPageFixture(o: { lanHost?: string } = {}): Promise<PageFixture> {
  const { dir: outDir, own } = await sharedBuild();
  const server = await serveStatic(outDir);
  let serving = true;
  const browser = await launchBrowser(o);
  return {
    url: server.url,
    lanUrl: o.lanHost === undefined ? "" : server.url.replace("127.0.0.1", o.lanHost),
    outDir,
    browser,
    async stopServer() {
      if (serving) await server.close();
      serving = false;
    },
    async close() {
      await browser.close();
      if (serving) await server.close();
      if (own) rmSync(outDir, { recursive: true, force: true });
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

/** Every dialog the page opens is accepted, as a person clicking OK, and its text kept for the test. */
export function acceptDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.accept();
  });
  return dialogs;
}

/** A new page of the fixture with its errors watched, once the simulator is running in it. */
export async function openSimulatorPage(fx: PageFixture): Promise<{ page: Page; errors: string[] }> {
  const page = await fx.browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(fx.url);
  await page.waitForSelector("body[data-sim=running]");
  return { page, errors };
}

/** Runs a line in the simulator's console box, as a person types it. */
export async function typeConsole(page: Page, text: string): Promise<void> {
  await page.fill("#sim-eval-input", text);
  await page.press("#sim-eval-input", "Enter");
}

/** The lit pixels of the top `rows` rows of a 128x64 OLED canvas, one "#"/"." string per row. */
export function canvasRows(page: Page, canvasId: string, rows: number): Promise<string[]> {
  return page.evaluate(
    ({ id, n }) => {
      const c = document.getElementById(id) as HTMLCanvasElement;
      const d = (c.getContext("2d") as CanvasRenderingContext2D).getImageData(0, 0, c.width, n).data;
      const out: string[] = [];
      for (let y = 0; y < n; y++) {
        let row = "";
        for (let x = 0; x < c.width; x++) row += (d[(y * c.width + x) * 4 + 2] as number) > 128 ? "#" : ".";
        out.push(row);
      }
      return out;
    },
    { id: canvasId, n: rows },
  );
}

/**
 * Picks files in a file input as a person does: a click opens the chooser (the page clears the
 * previous choice then, so the same file picked again still counts), and the files are chosen in it.
 */
export async function pickFiles(page: Page, selector: string, files: string | string[]): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.click(selector)]);
  await chooser.setFiles(files);
}
