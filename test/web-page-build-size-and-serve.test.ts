/**
 * `npm run build:web` writes a self-contained page within its size budget (no CDN, no URL it would
 * fetch; the simulated board's Worker travels inside app.js; a service worker that keeps exactly the
 * page's own files), and `npm run web` serves it on localhost and prints the address.
 */
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEB_BUDGET_BYTES } from "../scripts/lib/buildWeb.js";
import { ROOT } from "../scripts/lib/build.js";
import { sharedBuild } from "./web-page";

let outDir: string;
let own = false;
beforeAll(async () => {
  ({ dir: outDir, own } = await sharedBuild());
});
afterAll(() => {
  if (own) rmSync(outDir, { recursive: true, force: true });
});

describe("web page build", () => {
  it("writes index.html, style.css, app.js, sw.js, the manifest and its icon, together within the size budget", () => {
    expect(readdirSync(outDir).sort()).toEqual(["app.js", "icon.svg", "index.html", "manifest.webmanifest", "style.css", "sw.js"]);
    const total = readdirSync(outDir).reduce((n, f) => n + readFileSync(join(outDir, f)).length, 0);
    expect(total).toBeGreaterThan(60_000); // both firmware bundles at least: the page was really built
    expect(total).toBeLessThanOrEqual(WEB_BUDGET_BYTES);
  });

  it("refers to nothing outside its own folder: relative script and style, no http(s) URL in the HTML", () => {
    const html = readFileSync(join(outDir, "index.html"), "utf8");
    expect(html).toContain('src="app.js"');
    expect(html).toContain('href="style.css"');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("the service worker keeps the page's own files and nothing else, under a version made of their bytes", () => {
    const sw = readFileSync(join(outDir, "sw.js"), "utf8");
    const files = JSON.parse(/const FILES = (\[[^\]]*\]);/.exec(sw)![1]!);
    expect(files).toEqual(["./", "index.html", "style.css", "manifest.webmanifest", "icon.svg", "app.js"]);
    expect(sw).toMatch(/const VERSION = "[0-9a-f]{16}";/);
    expect(sw).not.toContain("__PAGE_");
  });

  it("has a web app manifest whose icons are files of the page", () => {
    const manifest = JSON.parse(readFileSync(join(outDir, "manifest.webmanifest"), "utf8")) as { name: string; start_url: string; display: string; icons: { src: string }[] };
    expect(manifest.name).toContain("espruino-pet");
    expect(manifest.start_url).toBe("./");
    expect(manifest.display).toBe("standalone");
    expect(manifest.icons.length).toBeGreaterThan(0);
    for (const icon of manifest.icons) expect(readdirSync(outDir)).toContain(icon.src);
  });

  it("carries both firmware bundles: the simulator's (boards/web.json) and the ESP32's", () => {
    const app = readFileSync(join(outDir, "app.js"), "utf8");
    expect(app).toContain("Web page simulator");
    expect(app).toContain("ESP32 (Espruino 2v06 or later)");
  });

  it("npm run web serves the page and prints its address", async () => {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "web.js"), "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d) => {
          out += String(d);
          const m = /(http:\/\/localhost:\d+\/)/.exec(out);
          if (m) resolve(m[1] as string);
        });
        child.on("exit", (code) => reject(new Error("npm run web exited " + code + ": " + out)));
      });
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("<canvas id=\"sim-oled\"");
    } finally {
      child.kill("SIGTERM");
    }
  });
});
