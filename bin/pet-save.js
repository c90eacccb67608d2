#!/usr/bin/env node
// Launcher for `pet-save`: lets Node load the TypeScript sources through tsx, then runs the CLI.
import { register } from "tsx/esm/api";

register();
const { main } = await import(new URL("../src/host/node/cli.ts", import.meta.url).href);
process.exitCode = await main(process.argv.slice(2));
