/**
 * The layers point one way: core <- save <- storage <- platform (and boards) <- firmware <- hosts
 * (src/host/*, and the browser page in src/web).
 * A module may import from its own layer or a lower one, never from a higher one. Every .ts file of
 * src/ and firmware/ is read and each relative import resolved; tools, scripts and tests sit above
 * everything and are not checked. The checker is also run on a made-up upward import, so a green
 * result means something.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const ROOT = join(__dirname, "..");

/** Layer of a repository path, or null for paths the rule does not cover. */
const LAYERS: [string, number][] = [
  ["src/core/", 0],
  ["src/save/", 1],
  ["src/storage/", 2],
  ["src/platform/", 3],
  ["src/boards/", 3],
  ["firmware/", 4],
  ["src/host/", 5],
  ["src/web/", 5],
];

function layerOf(path: string): number | null {
  for (const [prefix, layer] of LAYERS) if (path.startsWith(prefix)) return layer;
  return null;
}

/** Relative module specifiers a file imports or re-exports (static, type-only and dynamic). */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1] as string);
  return out;
}

/** Every upward import among `files` (repository path -> source text), as "from -> to" lines. */
export function upwardImports(files: Record<string, string>): string[] {
  const bad: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    const from = layerOf(path);
    if (from === null) continue;
    for (const spec of specifiers(text)) {
      const target = normalize(join(dirname(path), spec)).replace(/\\/g, "/");
      const to = layerOf(target);
      if (to !== null && to > from) bad.push(path + " -> " + target);
    }
  }
  return bad;
}

function sources(dir: string, into: Record<string, string>): Record<string, string> {
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = dir + "/" + name;
    if (statSync(join(ROOT, path)).isDirectory()) sources(path, into);
    else if (name.endsWith(".ts")) into[relative(ROOT, join(ROOT, path)).replace(/\\/g, "/")] = readFileSync(join(ROOT, path), "utf8");
  }
  return into;
}

describe("imports point down the layers", () => {
  it("no module of src/ or firmware/ imports from a layer above its own", () => {
    const files = sources("firmware", sources("src", {}));
    expect(Object.keys(files).length).toBeGreaterThan(40);
    expect(upwardImports(files)).toEqual([]);
  });

  it("the check catches an upward import, a type-only one and a re-export", () => {
    expect(
      upwardImports({
        "src/core/a.ts": 'import { SlotLog } from "../storage/slotLog";',
        "src/platform/b.ts": 'import type { PetBoard } from "../../firmware/board";',
        "firmware/c.ts": 'export { espruinoEnv } from "../src/host/espruino/env";',
        "src/save/d.ts": 'import { u64 } from "../core/u64";', // downward: fine
      }),
    ).toEqual([
      "src/core/a.ts -> src/storage/slotLog",
      "src/platform/b.ts -> firmware/board",
      "firmware/c.ts -> src/host/espruino/env",
    ]);
  });
});
