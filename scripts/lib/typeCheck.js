/**
 * The firmware's type check: the TypeScript program of the firmware's configuration (read as the
 * emit reads it, tsConfig.js) and its diagnostics before emit (options, syntax, globals, semantics).
 * Type errors fail the build: the ES5 lib typings are what catch Map, Set, padStart and friends.
 *
 * It runs while terser minifies the bundle in a worker (terserWorker.js), so on two cores the two
 * (about 1.5 s and 1.3 s) overlap instead of adding up. It does not depend on the board profile (the
 * firmware sees the profile through a declaration file), so a passing check is remembered in the
 * build cache under a key of the sources alone: building the other profiles skips it. And while one
 * process checks, the others that want the same check (several profiles built at once by test files
 * starting together) wait for its answer rather than check too, as the cache does for bundles.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { onceAcrossProcesses } from "./buildCache.js";
import { formatDiagnostics, readFirmwareConfig } from "./tsConfig.js";

/** Thrown when the firmware does not type-check; the message lists every error. */
export class TypeCheckError extends Error {
  constructor(errors) {
    super("type errors in the firmware:\n" + errors.join(""));
    this.name = "TypeCheckError";
  }
}

/** The check of the program `tsconfig` describes: `{ errors, warnings }`, each diagnostic as text. */
export function typeCheck(ts, tsconfig, root) {
  const { options, fileNames, errors: configErrors } = readFirmwareConfig(ts, tsconfig);
  const diagnostics = configErrors.length > 0 ? configErrors : ts.getPreEmitDiagnostics(ts.createProgram({ rootNames: fileNames, options }));
  const errors = [];
  const warnings = [];
  for (const d of diagnostics) (d.category === ts.DiagnosticCategory.Error ? errors : warnings).push(formatDiagnostics(ts, [d], root));
  return { errors, warnings };
}

/** Whether a check of the sources keyed `key` has passed before (in the build cache `dir`). */
export function checkPassed(dir, key) {
  return existsSync(join(dir, "check-" + key + ".ok"));
}

/** Remembers a passing check; a failure to write costs only the next check. */
export function rememberCheck(dir, key) {
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "check-" + key + ".ok"), "");
  } catch {
    // read-only or full disk: the next build checks again
  }
}

/**
 * The check of the sources keyed `key` (the build cache `dir`), by `run()` unless it passed before
 * or another process is running it now, in which case its answer is awaited (at most `waitMs`, then
 * this one checks anyway; buildCache.js, onceAcrossProcesses). A pass is remembered; a failure leaves
 * no mark, so a process that waited for it checks (and fails) itself.
 * Answers `run()`'s `{ errors, warnings }`, or no errors for a check that passed before.
 */
export function sharedCheck(dir, key, run, waitMs = 120000) {
  return onceAcrossProcesses(
    join(dir, "check-" + key + ".lock"),
    () => (checkPassed(dir, key) ? { errors: [], warnings: [] } : null),
    () => {
      const result = run();
      if (result.errors.length === 0) rememberCheck(dir, key);
      return result;
    },
    waitMs,
  );
}
