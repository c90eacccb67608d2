/**
 * TypeScript's emit for the firmware build, one file at a time (ts.transpileModule), as a rollup
 * plugin: the part of @rollup/plugin-typescript the bundle's bytes come from, without the type
 * check, which now runs beside the build in a worker (typeCheck.js) and still stops it.
 *
 * Why per file: the plugin built one TypeScript program and checked every file before rollup could
 * start, and only then emitted; transpiling file by file lets rollup and terser run while the
 * check does. It gives the same JavaScript because the firmware's configuration has isolatedModules
 * (every file must compile on its own; TypeScript rejects code where it would not), and the options
 * are the ones the plugin used (tsConfig.js). test/bundle-transpile-matches-program-emit.test.ts holds the
 * two emits side by side.
 *
 * Module resolution is TypeScript's own, with those options, as the plugin's was: `tslib` (the
 * helpers the ES5 emit imports) is tslib's ES module, a path that resolves to a declaration file
 * only is left to rollup (nothing in the firmware does that), files outside the repository are not
 * compiled (the plugin's filterRoot).
 */
import { createRequire } from "node:module";
import { join, normalize, sep } from "node:path";
import { readFirmwareConfig } from "./tsConfig.js";

const require = createRequire(import.meta.url);

/** tslib's ES module, as the plugin found it (`tslib/tslib.es6.js`). */
function tslibPath() {
  return join(require.resolve("tslib/package.json").replace(/package\.json$/, ""), "tslib.es6.js");
}

/**
 * @param {typeof import("typescript")} ts
 * @param {{ tsconfig: string, root: string }} o  the configuration file; the folder whose .ts files are compiled
 */
export function transpilePlugin(ts, { tsconfig, root }) {
  const { options, errors } = readFirmwareConfig(ts, tsconfig);
  const tslib = tslibPath();
  const cache = ts.createModuleResolutionCache(root, (f) => f, options);
  const inRoot = (file) => normalize(file).startsWith(normalize(root) + sep);
  const isSource = (id) => /\.(cts|mts|ts|tsx)$/.test(id) && !/\.d\.[cm]?ts$/.test(id) && inRoot(id);
  return {
    name: "typescript-transpile",
    buildStart() {
      if (errors.length > 0) this.error("bad TypeScript configuration " + tsconfig + ": " + ts.flattenDiagnosticMessageText(errors[0].messageText, "\n"));
    },
    resolveId(importee, importer) {
      if (importee === "tslib") return tslib;
      if (!importer) return null;
      const resolved = ts.resolveModuleName(importee, importer.split(sep).join("/"), options, ts.sys, cache).resolvedModule;
      if (!resolved || /\.d\.[cm]?ts$/.test(resolved.extension) || !isSource(resolved.resolvedFileName)) return null;
      return normalize(resolved.resolvedFileName);
    },
    transform(code, id) {
      if (!isSource(id)) return null;
      const out = ts.transpileModule(code, { compilerOptions: options, fileName: id, reportDiagnostics: false });
      return { code: out.outputText, map: null };
    },
  };
}
