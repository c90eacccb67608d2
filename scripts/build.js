#!/usr/bin/env node
/**
 * `npm run build`: bundles the firmware for the board profile named by env BOARD (a JSON path;
 * default boards/esp32.json) into dist/firmware.js. `--out FILE` writes elsewhere. The bundle checks
 * (docs/firmware.md) run too: on a finding the file is still written, for inspection, but the build
 * exits 1. An unchanged bundle comes from the build cache (scripts/lib/buildCache.js).
 */
import { buildFirmware, boardFromEnv, shortPath, BUNDLE_BUDGET_BYTES } from "./lib/build.js";
import { checkBundle, formatFindings } from "./lib/bundleCheck.js";
import { CommandFailure, runCommand } from "./lib/command.js";

await runCommand({
  program: "npm run build",
  usage: "usage: [BOARD=boards/NAME.json] npm run build -- [--out FILE]",
  about: `
Bundles the firmware (src/host/espruino/main.ts and what it imports) into one ES5 file that
Espruino runs, for the board profile BOARD names (default boards/esp32.json), and checks it for
what Espruino cannot run. An unchanged bundle is not rebuilt (the build cache; PET_BUILD_CACHE=0
turns it off).`,
  options: [{ name: "out", value: "FILE", help: "where to write the bundle (default dist/firmware.js)" }],
  sections: [["environment", [["BOARD", "the board profile (a JSON file, relative to the repository root)"]]]],
  examples: ["npm run build", "BOARD=boards/linux.json npm run build -- --out /tmp/linux.js"],
  exits: [
    [0, "built (a bundle over its size budget is a warning)"],
    [1, "the profile is bad, the build failed (a type error, a missing module), or the bundle uses\nsomething Espruino cannot run (the file is still written, for a look)"],
  ],
  failurePrefix: "build failed: ",
  async run(values) {
    const result = await buildFirmware({ board: boardFromEnv(), outFile: values.out });
    for (const w of result.warnings) process.stderr.write("warning: " + w + "\n");
    process.stdout.write(
      "built " + shortPath(result.outFile) + ": " + result.bytes + " bytes for " + result.profile.name +
        " (" + shortPath(result.board) + "), budget " + BUNDLE_BUDGET_BYTES + "\n",
    );
    const findings = checkBundle(result.code);
    if (findings.length > 0) throw new CommandFailure("build failed: the bundle uses things Espruino cannot run:\n" + formatFindings(result.code, findings));
    if (result.bytes > BUNDLE_BUDGET_BYTES) process.stderr.write("warning: the bundle is over its size budget (docs/firmware.md, \"Size budget\")\n");
  },
});
