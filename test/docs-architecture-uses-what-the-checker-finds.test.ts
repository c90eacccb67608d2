/**
 * docs/architecture.md's table of which units use which ("| unit | uses |") is what the layer checker
 * (test/layer-rule.ts) reads in the tree: every unit that uses another has its row, and each row
 * names exactly the units its files use. A new use, or one that went away, fails here until the
 * page says so.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { productFiles, UNITS, unitUses } from "./layer-rule";

const ROOT = join(__dirname, "..");

/** The table's rows: unit -> the units it names as used, sorted (words in brackets are reasons). */
function usesTable(markdown: string): Record<string, string[]> {
  const at = markdown.indexOf("\n| unit | uses |");
  if (at < 0) throw new Error("no \"| unit | uses |\" table");
  const names = new Set(UNITS.map((u) => u.name));
  const rows: Record<string, string[]> = {};
  for (const line of markdown.slice(at + 1).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    const [, unitCell, usesCell] = line.split("|").map((c) => c.trim());
    const unit = (/`([^`]+)`/.exec(unitCell ?? "") ?? [])[1] as string;
    const used = [...(usesCell ?? "").replace(/\([^)]*\)/g, "").matchAll(/`([^`]+)`/g)].map((m) => m[1] as string).filter((n) => names.has(n));
    rows[unit] = [...new Set(used)].sort();
  }
  return rows;
}

describe("architecture.md's uses table", () => {
  it("is what the layer checker finds in the tree", () => {
    const table = usesTable(readFileSync(join(ROOT, "docs", "architecture.md"), "utf8"));
    const found = unitUses(productFiles(ROOT));
    expect(Object.keys(found).length).toBeGreaterThan(8);
    expect(table).toEqual(found);
  });

  it("is read as written: a row's units, its reasons in brackets left out, `scripts`, `bin` as one unit", () => {
    const page =
      "intro\n| unit | uses |\n| --- | --- |\n" +
      "| `src/save` | `src/core` |\n" +
      "| `src/storage` | `src/core`; `src/save` (the CRC, not `src/web`) |\n" +
      "| `scripts`, `bin` | `src/host/node`, `firmware` |\n\nafter\n| `src/web` | `src/core` |\n";
    expect(usesTable(page)).toEqual({ "src/save": ["src/core"], "src/storage": ["src/core", "src/save"], scripts: ["firmware", "src/host/node"] });
  });
});
