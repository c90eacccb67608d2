/**
 * buildFirmware finds everything from the repository root, not from the current directory: a build
 * started elsewhere (here a child process in the temp directory) gives the same bundle as one
 * started at the root, and a relative BOARD is read from the root too. It used to fail with `Could not resolve "../src/host/espruino/env"`.
 */
import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";

const BOARD = join(ROOT, "boards", "esp32.json");

/** Builds in a child whose cwd is `cwd`; resolves with the bundle it printed. */
function buildIn(cwd: string): Promise<string> {
  const script =
    "import(" + JSON.stringify(pathToFileURL(join(ROOT, "scripts", "lib", "build.js")).href) + ")" +
    // Not from the cache: the point is that the build itself finds its files from elsewhere.
    ".then((m) => m.buildFirmware({ outFile: null, cache: false }))" +
    ".then((r) => process.stdout.write(r.code));";
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["-e", script],
      // A relative BOARD names a file under the repository root, wherever the build runs.
      { cwd, env: { ...process.env, BOARD: "boards/esp32.json" }, maxBuffer: 1 << 24 },
      (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(stdout)),
    );
  });
}

// A whole build with its own type check, in a child, in the suite's busiest minute (it starts among
// the first: vitest.config.ts, LONG_WAITS_FIRST): 36 s in a whole suite on this 2-core machine, and
// past a minute with the host's two cores also busy with other work (two busy loops and an emulated
// ESP32). The limit catches a build that hangs; it is not a measure of the build's speed.
it("builds the same bundle when the current directory is not the repository root", async () => {
  const elsewhere = tmpdir();
  expect(elsewhere.startsWith(ROOT)).toBe(false);
  const [fromElsewhere, fromRoot] = await Promise.all([buildIn(elsewhere), buildFirmware({ board: BOARD, outFile: null })]);
  expect(fromElsewhere.length).toBeGreaterThan(1000);
  expect(fromElsewhere).toBe(fromRoot.code);
}, 180_000);
