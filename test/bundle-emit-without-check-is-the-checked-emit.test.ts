/**
 * The firmware build lets @rollup/plugin-typescript emit with `noCheck` (scripts/lib/build.js) and
 * runs the type check beside it (scripts/lib/typeCheck.js), so that the check can overlap terser.
 * That gives the bundle a checked build would give only if skipping the check changes no file's
 * JavaScript, which the configuration's isolatedModules promises (every file compiles on its own,
 * so nothing in its output can depend on types from elsewhere: a const enum from another file, say,
 * is refused). This holds the two emits side by side, file by file, for every file of the firmware's
 * program, with the options the plugin uses (tsConfig.js).
 */
import { expect, it } from "vitest";
import { join } from "node:path";
import ts from "typescript";
import { ROOT } from "../scripts/lib/build.js";
import { readFirmwareConfig } from "../scripts/lib/tsConfig.js";

function emit(options: ts.CompilerOptions, rootNames: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const result = ts.createProgram({ rootNames, options }).emit(undefined, (fileName, text) => {
    if (fileName.endsWith(".js")) out.set(fileName, text);
  });
  expect(result.emitSkipped).toBe(false);
  return out;
}

it("every file of the firmware emits the same JavaScript with the type check skipped", () => {
  const { options, fileNames, errors } = readFirmwareConfig(ts, join(ROOT, "tsconfig.firmware.json"));
  expect(errors).toEqual([]);
  expect(options.isolatedModules).toBe(true);
  const checked = emit(options, fileNames);
  const unchecked = emit({ ...options, noCheck: true }, fileNames);
  expect(checked.size).toBeGreaterThan(20);
  expect([...unchecked.keys()].sort()).toEqual([...checked.keys()].sort());
  for (const [file, text] of checked) expect(unchecked.get(file), file).toBe(text);
});
