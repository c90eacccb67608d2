#!/usr/bin/env node
/** `npm run build:web`: the companion page as static files in dist/web/ (see scripts/lib/buildWeb.js). */
import { relative } from "node:path";
import { buildWeb, WEB_BUDGET_BYTES } from "./lib/buildWeb.js";

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
