/**
 * The firmware build emits each file on its own (ts.transpileModule, scripts/lib/tsTranspile.js)
 * rather than from one TypeScript program as @rollup/plugin-typescript did, so that the type check
 * can run beside it. That gives the same bundle only if every file's JavaScript is the same either
 * way, which the configuration's isolatedModules promises: this holds the two side by side, file
 * by file, for every file of the firmware's program (the entry, the firmware, the Core, save,
 * storage and platform code it imports), with the options the build uses (tsConfig.js).
 */
import { expect, it } from "vitest";
import { join } from "node:path";
import ts from "typescript";
import { ROOT } from "../scripts/lib/build.js";
import { readFirmwareConfig } from "../scripts/lib/tsConfig.js";

it("every file of the firmware transpiles alone to what the whole program emits for it", () => {
  const { options, fileNames, errors } = readFirmwareConfig(ts, join(ROOT, "tsconfig.firmware.json"));
  expect(errors).toEqual([]);
  expect(options.isolatedModules).toBe(true);
  const program = ts.createProgram({ rootNames: fileNames, options });
  const emitted = new Map<string, string>();
  const result = program.emit(undefined, (fileName, text) => emitted.set(fileName.replace(/\.js$/, ""), text));
  expect(result.emitSkipped).toBe(false);
  const sources = program.getSourceFiles().filter((f) => !f.isDeclarationFile && f.fileName.startsWith(ROOT));
  expect(sources.length).toBeGreaterThan(20);
  for (const f of sources) {
    const fromProgram = emitted.get(f.fileName.replace(/\.ts$/, ""));
    const alone = ts.transpileModule(f.text, { compilerOptions: options, fileName: f.fileName, reportDiagnostics: false }).outputText;
    expect(fromProgram, f.fileName).toBeDefined();
    expect(alone, f.fileName).toBe(fromProgram);
  }
});
