/**
 * Debian's Chromium driven by playwright-core, for the web tests and the README screenshot. Never a
 * downloaded browser (`npx playwright install` fails offline): /usr/bin/chromium from the Debian
 * package, or CHROMIUM=path. A missing browser is an error that gives the install line.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
export const INSTALL_LINE = "apt-get update && apt-get install -y chromium";

/** Headless and quiet: no sandbox (CI runs as root), no GPU, no background network of its own. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Chromium with a fresh user-data-dir (so IndexedDB starts empty); close() removes it. */
export async function launchChromium(contextOptions = {}) {
  if (!existsSync(CHROMIUM)) {
    throw new Error("no Chromium at " + CHROMIUM + ": the web tests and the screenshot need Debian's chromium; install it with: " + INSTALL_LINE);
  }
  const dataDir = mkdtempSync(join(tmpdir(), "pet-chromium-"));
  const context = await chromium.launchPersistentContext(dataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    acceptDownloads: true,
    ...contextOptions,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
