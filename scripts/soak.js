#!/usr/bin/env node
/**
 * `npm run soak`: power cuts on a board that keeps saving, and a check after each that no confirmed
 * save was lost (docs/board.md, "Cut the power, many times"; the code is src/host/node/soak/, run
 * compiled as pet-save is: scripts/lib/hostBuild.js). This entry hands it the firmware build for
 * --espruino, build tooling that src/ does not import (scripts/ sits above it).
 *
 *   npm run soak -- [--port P] [--rounds N] [--cut-with CMD | --manual] [--json]
 *   npm run soak -- --espruino PATH [--rounds N] [--json]
 */
import { join } from "node:path";
import { buildFirmware } from "./lib/build.js";
import { checkBundle, formatFindings } from "./lib/bundleCheck.js";
import { runHostCommand } from "./lib/command.js";

/** The firmware for the profile file `profile`, built into `dir` and checked as an upload checks it. */
async function firmwareFor(profile, dir) {
  const built = await buildFirmware({ board: profile, outFile: join(dir, "firmware.js") });
  const findings = checkBundle(built.code);
  if (findings.length > 0) throw new Error("the bundle uses things Espruino cannot run:\n" + formatFindings(built.code, findings));
  return built.outFile;
}

// exitWhenDone: the serial port or an interpreter's console may still hold the loop open.
await runHostCommand({ program: "npm run soak", bundle: "soak", guard: false, exitWhenDone: true, main: (m, argv) => m.soakMain(argv, undefined, { firmwareFor }) });
