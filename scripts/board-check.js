#!/usr/bin/env node
/**
 * `npm run board-check`: a board running the pet checked against its profile, its region read and
 * the firmware timed there (docs/board.md; the code is src/host/node/boardCheck/, run compiled as
 * pet-save is: scripts/lib/hostBuild.js).
 */
import { runHostCommand } from "./lib/command.js";

// exitWhenDone: the board's console may still hold the loop open.
await runHostCommand({ program: "npm run board-check", bundle: "board-check", guard: false, exitWhenDone: true, main: (m, argv) => m.boardCheckMain(argv) });
