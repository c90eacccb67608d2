#!/usr/bin/env node
/** `npm run build:web`: the companion page as static files in dist/web/ (see scripts/lib/buildWeb.js). */
import { relative } from "node:path";
import { buildWeb, WEB_BUDGET_BYTES } from "./lib/buildWeb.js";
import { runCommand } from "./lib/command.js";

await runCommand({
  program: "npm run build:web",
  usage: "usage: npm run build:web",
  about: `
Writes the companion page as static files to dist/web/ (no CDN, no server code): any static host
serves it, or open dist/web/index.html from disk. \`npm run web\` builds and serves it in one go.`,
  examples: ["npm run build:web && ls dist/web"],
  exits: [
    [0, "built (sizes printed)"],
    [1, "the build failed"],
  ],
  async run() {
    const r = await buildWeb();
    for (const f of r.files) process.stdout.write("  " + f.name.padEnd(12) + String(f.bytes).padStart(8) + " bytes\n");
    process.stdout.write(
      "built " + relative(process.cwd(), r.outDir) + "/: " + r.totalBytes + " bytes (budget " + WEB_BUDGET_BYTES + "); open index.html from any static host\n",
    );
  },
});
