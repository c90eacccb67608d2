/**
 * The order test files start in. vitest sorts by the durations of the last run, which a fresh clone
 * (CI) does not have, and runs one project's files after the other's. Here: first the files that
 * spend the longest waiting on other processes (the interpreter, Chromium, the uploader, a cold
 * firmware build), in the order below, longest measured first, so that none of them starts late
 * and makes the run's tail; then the in-process files ("shared"), whose CPU work fills those waits;
 * then every other file, in vitest's own order.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Measured on a fresh clone: the files whose wall time is mostly waiting, longest first. */
export const LONG_WAITS_FIRST = [
  "firmware-on-espruino-linux.test.ts",
  "flash-serial-pty-espruino.test.ts",
  "web-espruino-write-esptool-boundary.test.ts",
  "web-device-upload-over-fake-serial.test.ts",
  "bundle-build-from-any-directory.test.ts",
  "web-simulator-pet-survives-reload.test.ts",
  "flash-serial-auto-pick.test.ts",
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

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = sorted.filter((s) => rank(s) < LONG_WAITS_FIRST.length).sort((a, b) => rank(a) - rank(b));
    const rest = sorted.filter((s) => rank(s) === LONG_WAITS_FIRST.length);
    const shared = rest.filter((s) => s.project.config.isolate === false);
    return [...waits, ...shared, ...rest.filter((s) => s.project.config.isolate !== false)];
  }
}
