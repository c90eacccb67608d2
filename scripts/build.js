#!/usr/bin/env node
/**
 * `npm run build`: bundles the firmware for the board profile named by env BOARD (a JSON path;
 * default boards/esp32.json) into dist/firmware.js. `--out FILE` writes elsewhere. The bundle checks
 * (docs/firmware.md) run too: on a finding the file is still written, for inspection, but the build
 * exits 1.
 */
import { buildFirmware, boardFromEnv, shortPath, BoardProfileError, BUNDLE_BUDGET_BYTES } from "./lib/build.js";
import { checkBundle, formatFindings } from "./lib/bundleCheck.js";

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

try {
  const result = await buildFirmware({ board: boardFromEnv(), outFile: argValue("--out") });
  for (const w of result.warnings) process.stderr.write("warning: " + w + "\n");
  process.stdout.write(
    "built " + shortPath(result.outFile) + ": " + result.bytes + " bytes for " + result.profile.name +
      " (" + shortPath(result.board) + "), budget " + BUNDLE_BUDGET_BYTES + "\n",
  );
  const findings = checkBundle(result.code);
  if (findings.length > 0) {
    process.stderr.write("build failed: the bundle uses things Espruino cannot run:\n" + formatFindings(result.code, findings) + "\n");
    process.exit(1);
  }
  if (result.bytes > BUNDLE_BUDGET_BYTES) {
    process.stderr.write("warning: the bundle is over its size budget (docs/firmware.md, \"Size budget\")\n");
  }
} catch (e) {
  if (e instanceof BoardProfileError) process.stderr.write("build failed: " + e.message + "\n");
  else process.stderr.write("build failed: " + (e instanceof Error ? e.message : String(e)) + "\n");
  process.exit(1);
}
