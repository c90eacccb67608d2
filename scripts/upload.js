#!/usr/bin/env node
/**
 * `npm run upload`: the upload of the firmware to a board (src/host/node/upload/upload.ts, run
 * compiled as pet-save is: scripts/lib/hostBuild.js). This entry hands it the build tooling it must
 * not import itself (scripts/ sits above src/): the firmware build with its bundle check.
 *
 * `npm run flash` is this command's old name (package.json keeps it as an alias): run under it, it
 * says so in one line on stderr, then does the upload all the same. "flash" now names only the pet's
 * own region of flash memory.
 */
import { buildFirmware } from "./lib/build.js";
import { checkBundle, formatFindings } from "./lib/bundleCheck.js";
import { runHostCommand } from "./lib/command.js";

/** The build the upload asks for: built, then checked; an unsafe bundle is an error and goes nowhere. */
async function build({ board, outFile, entry }) {
  const built = await buildFirmware({ board, outFile, entry });
  const findings = checkBundle(built.code);
  if (findings.length > 0) throw new Error("the bundle uses things Espruino cannot run; not uploading:\n" + formatFindings(built.code, findings));
  return { outFile: built.outFile, bytes: built.bytes, profileName: built.profile.name, board: built.board };
}

if (process.env.npm_lifecycle_event === "flash") process.stderr.write("`npm run flash` is now `npm run upload`\n");
await runHostCommand({ program: "npm run upload", bundle: "upload", guard: false, main: (m, argv) => m.uploadMain(argv, { build }) });
