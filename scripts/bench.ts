/**
 * `npm run bench`: speed, wear and size figures, printed as text or, with `--json`, as one object;
 * `--out FILE` also writes that object to FILE (npm prints its own banner on stdout unless run as
 * `npm run -s bench`, so a file is the dependable way for scripts to get the figures).
 * Each section lives in scripts/bench/<section>.ts and returns flat figures; a section that cannot
 * run here (no interpreter, no bundle yet) returns `{ skipped: "<why>" }` instead of failing.
 * Timings are medians of many runs; nothing here is asserted by the tests.
 */
import { pathToFileURL } from "node:url";
import { existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writeFileAtomic } from "../src/host/node/atomicFile";

type Figures = Record<string, unknown>;

const SECTIONS = ["codec", "storage", "firmware"];

async function main(): Promise<void> {
  let options: { json?: boolean; out?: string };
  try {
    options = parseArgs({ args: process.argv.slice(2), options: { json: { type: "boolean" }, out: { type: "string" } }, strict: true }).values;
  } catch (e) {
    process.stderr.write((e instanceof Error ? e.message : String(e)) + "\nusage: npm run bench -- [--json] [--out FILE]\n");
    process.exit(2);
  }
  const json = options.json === true;
  const here = dirname(fileURLToPath(import.meta.url));
  const result: Record<string, Figures> = {};
  for (const name of SECTIONS) {
    const file = join(here, "bench", name + ".ts");
    if (!existsSync(file)) {
      result[name] = { skipped: "no bench section yet" };
      continue;
    }
    const mod = (await import(pathToFileURL(file).href)) as { run: () => Promise<Figures> };
    result[name] = await mod.run();
  }
  const text = JSON.stringify(result, null, 2) + "\n";
  if (options.out !== undefined) {
    const written = writeFileAtomic(options.out, new TextEncoder().encode(text));
    if (written.status !== "ok") throw new Error(written.message);
  }
  if (json) {
    process.stdout.write(text);
    return;
  }
  for (const name of SECTIONS) {
    process.stdout.write(name + "\n");
    const figures = result[name] ?? {};
    for (const key of Object.keys(figures)) {
      process.stdout.write("  " + key.padEnd(36) + " " + formatValue(figures[key]) + "\n");
    }
  }
}

function formatValue(v: unknown): string {
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

main().catch((e: unknown) => {
  process.stderr.write(String(e instanceof Error ? e.stack : e) + "\n");
  process.exit(1);
});
