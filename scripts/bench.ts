/**
 * `npm run bench`: speed, wear and size figures, printed as text or, with `--json`, as one object.
 * Each section lives in scripts/bench/<section>.ts and returns flat figures; a section that cannot
 * run here (no interpreter, no bundle yet) returns `{ skipped: "<why>" }` instead of failing.
 * Timings are medians of many runs; nothing here is asserted by the tests.
 */
import { pathToFileURL } from "node:url";
import { existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

type Figures = Record<string, unknown>;

const SECTIONS = ["codec", "storage", "firmware"];

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
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
  if (json) {
    process.stdout.write(JSON.stringify(result, null, 2) + "\n");
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
