#!/usr/bin/env node
/**
 * `npm run build`: bundles the firmware for the board profile named by env BOARD (a JSON path;
 * default boards/esp32.json) into dist/firmware.js. `--out FILE` writes elsewhere.
 */
import { buildFirmware, boardFromEnv, shortPath, BoardProfileError } from "./lib/build.js";

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

try {
  const result = await buildFirmware({ board: boardFromEnv(), outFile: argValue("--out") });
  for (const w of result.warnings) process.stderr.write("warning: " + w + "\n");
  process.stdout.write(
    "built " + shortPath(result.outFile) + ": " + result.bytes + " bytes for " + result.profile.name +
      " (" + shortPath(result.board) + ")\n",
  );
} catch (e) {
  if (e instanceof BoardProfileError) process.stderr.write("build failed: " + e.message + "\n");
  else process.stderr.write("build failed: " + (e instanceof Error ? e.message : String(e)) + "\n");
  process.exit(1);
}
