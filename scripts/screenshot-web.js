#!/usr/bin/env node
/**
 * `npm run screenshot:web`: builds the page, opens it in headless Chromium on a fresh profile, plays
 * with the pet once and writes docs/web-page.png, the README's picture, so it always shows the page
 * as it is built now.
 *
 *   npm run screenshot:web -- [--out FILE] [--phone]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ROOT } from "./lib/build.js";
import { runCommand } from "./lib/command.js";

await runCommand({
  program: "npm run screenshot:web",
  usage: "usage: npm run screenshot:web -- [--out FILE] [--phone]",
  about: `
Builds the companion page, opens it in headless Chromium on a fresh profile, presses the button once
and writes the picture the README shows (docs/web-page.png). Needs Chromium (/usr/bin/chromium, or
CHROMIUM=path).`,
  options: [
    { name: "out", value: "FILE", help: "where to write the PNG (default docs/web-page.png)" },
    { name: "phone", help: "a phone-sized window (390 x 844) instead of 1280 x 760" },
  ],
  examples: ["npm run screenshot:web -- --phone --out /tmp/phone.png"],
  exits: [
    [0, "written"],
    [1, "the page, the browser or the picture failed"],
  ],
  run: shoot,
});

async function shoot(values) {
  // Loaded only now: Chromium's driver takes a second to load, which --help and --version need not wait for.
  const [{ buildWeb }, { serveStatic }, { launchChromium }] = await Promise.all([import("./lib/buildWeb.js"), import("./lib/staticServer.js"), import("./lib/chromium.js")]);
  const out = resolve(values.out || join(ROOT, "docs", "web-page.png"));
  const viewport = values.phone ? { width: 390, height: 844 } : { width: 1280, height: 760 };
  const dir = mkdtempSync(join(tmpdir(), "pet-shot-"));
  let server = null;
  let browser = null;
  try {
    await buildWeb({ outDir: dir });
    server = await serveStatic(dir);
    browser = await launchChromium({ viewport, deviceScaleFactor: 1 });
    const page = await browser.context.newPage();
    await page.goto(server.url);
    await page.waitForSelector("body[data-sim=running]");
    await page.waitForSelector("#sim-saved[data-name]");
    // One press, as a person would (Space on the focused button): the pet starts playing and the
    // picture shows a changed face.
    await page.focus("#sim-button");
    await page.keyboard.press(" ", { delay: 150 });
    await page.waitForFunction(() => (document.getElementById("sim-status")?.textContent || "").includes("playing"));
    await page.waitForTimeout(300); // let the next redraw (every 100 ms) paint the new face
    await page.screenshot({ path: out, fullPage: false });
    process.stdout.write("wrote " + out + "\n");
  } finally {
    if (browser) await browser.close();
    if (server) await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
