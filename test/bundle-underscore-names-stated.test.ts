/**
 * The trailing "_" convention (names the build shortens: scripts/lib/build.js, TERSER_OPTIONS) is
 * stated at the top of every file that uses it, in the same words, so a reader meets the rule where
 * they meet the names; and only the firmware's own code uses it, since anywhere else a trailing "_"
 * would be a name the build never sees, read as "private" by mistake.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..");
/** The convention's words, as scripts/lib/build.js gives them. */
const STATEMENT = (() => {
  const build = readFileSync(join(ROOT, "scripts", "lib", "build.js"), "utf8");
  const at = build.indexOf(' * Names ending in "_" are names the build shortens');
  return build.slice(at, build.indexOf('ends in "_".\n', at) + 'ends in "_".\n'.length);
})();
/** A member named with a trailing "_": declared (`name_(`, `name_:`, `private name_`) or used (`.name_`). */
const UNDERSCORE_MEMBER = /(?:\.|^\s+(?:(?:private|readonly|static)\s+)*)[a-z][A-Za-z0-9]*_\b(?!\s*\*)/m;

function sources(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = dir + "/" + name;
    if (statSync(join(ROOT, path)).isDirectory()) sources(path, into);
    else if (/\.(ts|js|cjs)$/.test(name)) into.push(path);
  }
  return into;
}

/** The code of a file without its comments (a comment may name RunningPet.tick_). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
}

describe('the trailing "_" convention', () => {
  const files = [...sources("src"), ...sources("firmware"), ...sources("scripts"), ...sources("bin")];
  const users = files.filter((f) => UNDERSCORE_MEMBER.test(code(readFileSync(join(ROOT, f), "utf8"))));

  it("is stated, in the same words, at the top of every file that uses it", () => {
    expect(STATEMENT.length).toBeGreaterThan(200);
    expect(users.length).toBeGreaterThan(3);
    for (const f of users) {
      const text = readFileSync(join(ROOT, f), "utf8");
      const head = text.slice(0, text.indexOf("*/"));
      expect(head.includes(STATEMENT), f + " uses names ending in _ without the convention's words at its top").toBe(true);
    }
  });

  it("is used only by the firmware's bundle (the firmware and the storage, save and core layers it carries)", () => {
    expect(users.filter((f) => !/^(firmware|src\/(core|save|storage|platform|boards))\//.test(f))).toEqual([]);
  });
});
