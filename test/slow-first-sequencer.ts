/**
 * The order test files start in. vitest sorts by the durations of the last run, which a fresh clone
 * (CI) does not have: it then starts the largest files first, and the files that spend the longest
 * waiting on other processes (the interpreter, Chromium, the uploader, a cold firmware build) could
 * start last and make the run's tail. So those start first here, in the order below (the longest
 * measured first), then everything else in vitest's own order. Projects keep vitest's order too:
 * "isolated" (the files with child processes) before "shared" (the in-process files, whose CPU
 * work fills the waits).
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
    // Projects in vitest's order; within each, the ranked files first (sort is stable, so files of
    // the same rank keep vitest's order).
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of await super.sort(files)) {
      const group = byProject.get(spec.project.name) ?? [];
      group.push(spec);
      byProject.set(spec.project.name, group);
    }
    return [...byProject.values()].flatMap((group) => group.sort((a, b) => rank(a) - rank(b)));
  }
}
