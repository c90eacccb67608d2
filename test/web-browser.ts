/**
 * The browser the web tests drive: Debian's Chromium through playwright-core (scripts/lib/chromium.js).
 * A missing browser makes launchBrowser throw with the install line, so the web tests fail rather
 * than skip on a machine without it.
 */
import { launchChromium } from "../scripts/lib/chromium.js";

export type TestBrowser = Awaited<ReturnType<typeof launchChromium>>;

export function launchBrowser(): Promise<TestBrowser> {
  return launchChromium();
}
