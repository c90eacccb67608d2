#!/usr/bin/env node
/**
 * `npm run soak`: power cuts on a board that keeps saving, and a check after each that no confirmed
 * save was lost (docs/board-soak.md; the code is src/host/node/soak/). This launcher lets Node load
 * the TypeScript sources through tsx, as bin/pet-save.js does.
 *
 *   npm run soak -- [--port P] [--rounds N] [--cut-with CMD | --manual] [--json]
 *   npm run soak -- --espruino PATH [--rounds N] [--json]
 */
import { register } from "tsx/esm/api";

register();
const { soakMain } = await import(new URL("../src/host/node/soak/soakMain.ts", import.meta.url).href);
process.exitCode = await soakMain(process.argv.slice(2));
// The serial port or an interpreter's console may still hold the loop open.
process.exit(process.exitCode);
