#!/usr/bin/env node
/**
 * `npm run board-check`: a board running the pet checked against its profile, its region read and
 * the firmware timed there (docs/board.md; the code is src/host/node/boardCheck/, run compiled as
 * pet-save is: scripts/lib/hostBuild.js).
 */
import { pathToFileURL } from "node:url";
import { freshHostBundle } from "./lib/hostBuild.js";
import { failUnexpected } from "./lib/processEdges.js";

try {
  const { boardCheckMain } = await import(pathToFileURL(await freshHostBundle("board-check")).href);
  process.exitCode = await boardCheckMain(process.argv.slice(2));
} catch (e) {
  failUnexpected("npm run board-check", e);
}
// The board's console may still hold the loop open.
process.exit(process.exitCode);
