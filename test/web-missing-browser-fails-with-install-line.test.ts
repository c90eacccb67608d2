/**
 * Without Chromium the web tests must fail, not skip, and say how to install it: launchChromium
 * (scripts/lib/chromium.js, which every web test and the screenshot go through) rejects with the
 * apt-get line when the browser is not where CHROMIUM points.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../scripts/lib/build.js";

describe("no browser", () => {
  it("launchChromium fails with the install line", async () => {
    const script = 'import("' + join(ROOT, "scripts", "lib", "chromium.js") + '").then((m) => m.launchChromium()).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(3); });';
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, ["-e", script], { env: { ...process.env, CHROMIUM: "/nonexistent/chromium" } }, (error, _out, stderr) =>
        resolve({ code: error ? (error as { code?: number }).code ?? 1 : 0, stderr }),
      );
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("no Chromium at /nonexistent/chromium");
    expect(r.stderr).toContain("apt-get update && apt-get install -y chromium");
  });
});
