#!/usr/bin/env node
/**
 * `npm run build`: bundles the firmware for the board profile named by env BOARD (a JSON path;
 * default boards/esp32.json) into dist/firmware.js. `--out FILE` writes elsewhere. The bundle checks
 * (docs/firmware.md) run too: on a finding the file is still written, for inspection, but the build
 * exits 1. An unchanged bundle comes from the build cache (scripts/lib/buildCache.js).
 */
import { parseArgs } from "node:util";
import { buildFirmware, boardFromEnv, shortPath, BoardProfileError, BUNDLE_BUDGET_BYTES } from "./lib/build.js";
import { checkBundle, formatFindings } from "./lib/bundleCheck.js";
import { guardOutput, versionLine, wantsVersion } from "./lib/processEdges.js";

const PROGRAM = "npm run build";
const USAGE = "usage: [BOARD=boards/NAME.json] npm run build -- [--out FILE]";
const HELP = `${USAGE}

Bundles the firmware (src/host/espruino/main.ts and what it imports) into one ES5 file that
Espruino runs, for the board profile BOARD names (default boards/esp32.json), and checks it for
what Espruino cannot run. An unchanged bundle is not rebuilt (the build cache; PET_BUILD_CACHE=0
turns it off).

options:
  --out FILE   where to write the bundle (default dist/firmware.js)
  --version    print the version
  -h, --help   this help

environment:
  BOARD        the board profile (a JSON file, relative to the repository root)

examples:
  npm run build
  BOARD=boards/linux.json npm run build -- --out /tmp/linux.js

exit status:
  0  built (a bundle over its size budget is a warning)
  1  the profile is bad, the build failed (a type error, a missing module), or the bundle uses
     something Espruino cannot run (the file is still written, for a look)
  2  bad usage
`;

guardOutput(PROGRAM);
const argv = process.argv.slice(2);
if (wantsVersion(argv)) {
  process.stdout.write(versionLine(PROGRAM) + "\n");
  process.exit(0);
}
let values;
try {
  values = parseArgs({ args: argv, options: { out: { type: "string" }, help: { type: "boolean", short: "h" }, version: { type: "boolean" } }, strict: true }).values;
} catch (e) {
  process.stderr.write((e instanceof Error ? e.message : String(e)) + "\n" + USAGE + "\n");
  process.exit(2);
}
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

try {
  const result = await buildFirmware({ board: boardFromEnv(), outFile: values.out });
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
