/**
 * The browser the web tests drive: Debian's Chromium through playwright-core (scripts/lib/chromium.js).
 * A missing browser makes launchBrowser throw with the install line, so the web tests fail rather
 * than skip on a machine without it.
 *
 * `lanHost` makes that name resolve to 127.0.0.1 inside this browser only: the page served there is
 * a plain-http page of a non-local name, as on a LAN address, which the browser treats as not secure
 * (no Web Locks, no Web Serial, no service worker), unlike http://127.0.0.1 or localhost.
 */
import { launchChromium, CHROMIUM_ARGS } from "../scripts/lib/chromium.js";

export type TestBrowser = Awaited<ReturnType<typeof launchChromium>>;

export function launchBrowser(o: { lanHost?: string } = {}): Promise<TestBrowser> {
  if (o.lanHost === undefined) return launchChromium();
  return launchChromium({ args: [...CHROMIUM_ARGS, "--host-resolver-rules=MAP " + o.lanHost + " 127.0.0.1"] });
}
