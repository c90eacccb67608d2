#!/usr/bin/env node
/** `npm run build:web`: the companion page as static files in dist/web/ (see scripts/lib/buildWeb.js). */
import { relative } from "node:path";
import { buildWeb, WEB_BUDGET_BYTES } from "./lib/buildWeb.js";
import { guardOutput, versionLine, wantsHelp, wantsVersion } from "./lib/processEdges.js";

const PROGRAM = "npm run build:web";
guardOutput(PROGRAM);
const args = process.argv.slice(2);
if (wantsVersion(args)) {
  process.stdout.write(versionLine(PROGRAM) + "\n");
  process.exit(0);
}
if (wantsHelp(args) || args.length > 0) {
  const help =
    "usage: npm run build:web\n\n" +
    "Writes the companion page as static files to dist/web/ (no CDN, no server code): any static host\n" +
    "serves it, or open dist/web/index.html from disk. `npm run web` builds and serves it in one go.\n\n" +
    "options:\n  --version    print the version\n  -h, --help   this help\n\n" +
    "example:\n  npm run build:web && ls dist/web\n\n" +
    "exit status:\n  0  built (sizes printed)\n  1  the build failed\n  2  bad usage\n";
  if (wantsHelp(args)) {
    process.stdout.write(help);
    process.exit(0);
  }
  process.stderr.write("unknown argument " + args[0] + "\nusage: npm run build:web\n");
  process.exit(2);
}

try {
  const r = await buildWeb();
  for (const f of r.files) process.stdout.write("  " + f.name.padEnd(12) + String(f.bytes).padStart(8) + " bytes\n");
  process.stdout.write(
    "built " + relative(process.cwd(), r.outDir) + "/: " + r.totalBytes + " bytes (budget " + WEB_BUDGET_BYTES + "); open index.html from any static host\n",
  );
} catch (e) {
  process.stderr.write((e instanceof Error ? e.message : String(e)) + "\n");
  process.exit(1);
}
