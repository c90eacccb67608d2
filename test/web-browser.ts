/**
 * The browser the web tests drive: Debian's Chromium through playwright-core (never a downloaded
 * browser: this machine has no internet). A missing browser is a failure that says how to install
 * it, not a skip, so a machine without it cannot pass by testing nothing.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
export const INSTALL_LINE = "apt-get update && apt-get install -y chromium";

const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh user-data-dir (so IndexedDB starts empty). */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error("no Chromium at " + CHROMIUM + ": the web tests need Debian's chromium; install it with: " + INSTALL_LINE);
  }
  const dataDir = mkdtempSync(join(tmpdir(), "pet-chromium-"));
  const context = await chromium.launchPersistentContext(dataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type { Browser };
