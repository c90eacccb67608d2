import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Test files that run everything in their own process share their workers' module graph
 * (isolate: false): vitest then transforms and imports the sources once per worker instead of once
 * per file, which on two cores was about a third of a second of CPU for each of these files. A file
 * keeps a fresh module graph of its own when it starts other processes (child_process, the
 * interpreter, the desktop, a pty board, Chromium), mocks or fakes globals and timers, or sets
 * environment variables: told from its text, so a new test file is placed without a list to keep.
 */
const OWN_GRAPH_WHEN = [
  /from "node:child_process"/,
  /espruino-interpreter|espruinoLinux|interpreterBoard/,
  /desktop-process|serial-fake-board|web-page|web-browser|chromium|playwright|soak-fixtures/,
  /\bvi\.(mock|spyOn|stubGlobal|stubEnv|useFakeTimers)\b/,
  /process\.env\.\w+\s*=[^=]|delete process\.env/,
  /process\.chdir/,
];
const TEST_DIR = new URL("./test/", import.meta.url);
/** The emulated-ESP32 tier's files run only in their own run (vitest.chip.config.ts, `npm run test:chip`). */
const CHIP_TIER = "test/chip-*.test.ts";
const shared = readdirSync(TEST_DIR)
  .filter((f) => f.endsWith(".test.ts") && !f.startsWith("chip-"))
  .filter((f) => !OWN_GRAPH_WHEN.some((re) => re.test(readFileSync(new URL(f, TEST_DIR), "utf8"))))
  .map((f) => "test/" + f);

/**
 * The order test files start in. vitest sorts by the durations of the last run, which a fresh clone
 * (CI) does not have, and runs one project's files after the other's. Here: first the files that
 * spend the longest waiting on other processes (the interpreter, Chromium, the uploader, a cold
 * firmware build), in the order below, longest measured first, so that none of them starts late
 * and makes the run's tail; then the in-process files ("shared"), whose CPU work fills those waits;
 * then every other file, in vitest's own order. The list: the files whose wall time was mostly
 * waiting, measured on a fresh clone, longest first.
 */
const LONG_WAITS_FIRST = [
  "firmware-on-espruino-linux.test.ts",
  "upload-serial-pty-espruino.test.ts",
  "web-espruino-install-real-esptool.test.ts",
  "web-device-upload-over-fake-serial.test.ts",
  "bundle-build-from-any-directory.test.ts",
  "web-simulator-pet-survives-reload.test.ts",
  "upload-serial-auto-pick.test.ts",
  "build-cache-keyed-by-content.test.ts",
  "web-backups-and-file-view-offline.test.ts",
  "bundle-transpile-matches-program-emit.test.ts",
  "bundle-type-errors-stop-the-build.test.ts",
  "cli-pull-push-pty.test.ts",
  "package-runs-with-production-dependencies-only.test.ts",
];

function rank(spec: TestSpecification): number {
  const i = LONG_WAITS_FIRST.findIndex((name) => spec.moduleId.endsWith("/" + name));
  return i < 0 ? LONG_WAITS_FIRST.length : i;
}

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = sorted.filter((s) => rank(s) < LONG_WAITS_FIRST.length).sort((a, b) => rank(a) - rank(b));
    const rest = sorted.filter((s) => rank(s) === LONG_WAITS_FIRST.length);
    const shared = rest.filter((s) => s.project.config.isolate === false);
    return [...waits, ...shared, ...rest.filter((s) => s.project.config.isolate !== false)];
  }
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits, in the web tests, for a page whose simulated board boots in a new worker
    // (after a reload, an image loaded, a watchdog reset). On an idle machine that takes tens of
    // milliseconds; with the whole suite on two cores it has taken over vitest's default second, and
    // a poll that gives up then fails a page that was only slow. A poll that never succeeds still fails.
    expect: { poll: { timeout: 15_000 } },
    // Most test files spend their time waiting on child processes (the interpreter, the uploader,
    // `npm start`, Chromium), not on the CPU, so they run four at a time even on two cores, where
    // vitest's default (cores - 1) would run them one by one.
    maxWorkers: Math.max(4, availableParallelism()),
    // The files that mostly wait start first, the in-process ones fill their waits (see above).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      { extends: true, test: { name: "shared", include: shared, isolate: false } },
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["test/**/*.test.ts"],
          exclude: [...shared, CHIP_TIER],
          // Set up once for the run (a project's global setup runs once per project): what the
          // in-process files need none of.
          globalSetup: [
            // Says how to get an interpreter when ESPRUINO is not set (see the file).
            "test/espruino-global-setup.ts",
            // Web tests share one build of the page (see the file).
            "test/web-global-setup.ts",
            // pet-save and npm start compiled once, before the tests that run them (see the file).
            "test/host-global-setup.ts",
          ],
        },
      },
    ],
  },
});
