/**
 * The firmware's TypeScript settings, read the way @rollup/plugin-typescript reads them, so that the
 * type check (typeCheck.js) checks the very program the plugin emits the bundle from:
 * tsconfig.firmware.json under the plugin's defaults (module esnext, skipLibCheck), with
 * noEmitOnError as a checked build wants, and the options the plugin forces (helpers imported from
 * tslib rather than inlined, imports resolved, emit on).
 */
import { dirname } from "node:path";

const PLUGIN_DEFAULTS = { module: "esnext", skipLibCheck: true };
const PLUGIN_FORCED = { noEmitHelpers: true, importHelpers: true, noResolve: false, noEmit: false, emitDeclarationOnly: false };

/** `{ options, fileNames, errors }` of the tsconfig at `path` (absolute). */
export function readFirmwareConfig(ts, path) {
  const read = ts.readConfigFile(path, ts.sys.readFile);
  if (read.error) return { options: {}, fileNames: [], errors: [read.error] };
  const raw = read.config || {};
  const parsed = ts.parseJsonConfigFileContent(
    { ...raw, compilerOptions: { ...PLUGIN_DEFAULTS, ...(raw.compilerOptions || {}), noEmitOnError: true } },
    ts.sys,
    dirname(path),
    PLUGIN_FORCED,
    path,
  );
  // The plugin's fallback, which the configuration's own moduleResolution overrides.
  const options = { moduleResolution: ts.ModuleResolutionKind.NodeJs, ...parsed.options };
  if (typeof options.sourceMap !== "boolean") options.sourceMap = false;
  return { options, fileNames: parsed.fileNames, errors: parsed.errors };
}

/** Diagnostics as text without colours: "src/x.ts(3,10): error TS2304: Cannot find name 'Map'." */
export function formatDiagnostics(ts, diagnostics, root) {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  });
}
