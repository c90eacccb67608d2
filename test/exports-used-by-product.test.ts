/**
 * No dead code behind an export: every export of a product file is used by a product file (its own
 * included), and every product file is used by another or run from outside (package.json's scripts
 * and bin). test/export-use.ts says what counts as a use; the checker is also run on made-up files,
 * one for each way an export is used or left unused, so that a green run means something.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { exportUse } from "./export-use";
import { productFiles } from "./layer-rule";

const ROOT = join(__dirname, "..");

/**
 * Exports only the tests use, on purpose, each with the reason. Nothing else may be here: an export
 * that no product file uses is removed, or the product uses it.
 */
const FOR_THE_TESTS: Record<string, string> = {
  "src/boards/boardFit.ts: regionVerdict":
    "the original of the fast form src/boards/regionFit.ts, which test/boards-region-fit-fast-agrees.test.ts holds it equal to (docs/architecture.md, fast forms)",
  "src/boards/pretokenise.ts: untokenise":
    "spells the sent bytes out again, so that test/bundle-pretokenised-tokens-agree.test.ts can hold them to acorn's reading of the bundle as built",
  "src/core/world.ts: sinceStampsWithin":
    "the since-stamp rule, which validateWorld, loadWorld and the firmware's store carry written out (src/core/world.ts says why); test/core-world-rules-agree.test.ts holds validateWorld's copy to it",
  "src/storage/slotLog.ts: HEADER_WORDS":
    "the rule SEQ_WORDS (the boot's table of sequence-word positions) is written out from; test/storage-quick-scan-agrees.test.ts holds the table to it",
  "src/web/backups/backupStore.ts: getBackup":
    "src/web is being reworked by another engineer in parallel (issue 26); left for that change, which owns the file",
  // firmware/ is being changed by another engineer in parallel (issue 26): these re-exports, which
  // nothing takes (the tests import them from firmware/runningPet.ts), are left for that change.
  "firmware/app.ts: FALLBACK_PET_NAME": "firmware/ is another engineer's in issue 26; unused re-export left for that change",
  "firmware/app.ts: RESTORE_RETRY_MS": "firmware/ is another engineer's in issue 26; unused re-export left for that change",
  "firmware/app.ts: SAVING_PAUSED": "firmware/ is another engineer's in issue 26; unused re-export left for that change",
};

/** Files no product file uses yet, each with the reason; nothing else may be here. */
const NOT_YET_USED: Record<string, string> = {};

/** The files run from outside the product: package.json's bin and the files its scripts run. */
function entries(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string>; scripts: Record<string, string> };
  const out = Object.values(pkg.bin);
  for (const command of Object.values(pkg.scripts)) {
    for (const word of command.split(/\s+/)) if (/^(scripts|bin)\/[\w./-]+\.(js|ts)$/.test(word)) out.push(word);
  }
  return out;
}

describe("the tree has no export and no file that nothing uses", () => {
  const files = productFiles(ROOT);
  const found = exportUse(files, entries());

  it("every export is used by a product file, or listed with the reason the tests need it", () => {
    expect(Object.keys(files).length).toBeGreaterThan(150);
    expect(found.unusedExports.filter((e) => !(e in FOR_THE_TESTS))).toEqual([]);
  });

  it("every listed export is still there and still used by no product file (the list does not go stale)", () => {
    expect(Object.keys(FOR_THE_TESTS).filter((e) => !found.unusedExports.includes(e))).toEqual([]);
  });

  it("every product file is used by another or run by npm, or listed with the reason", () => {
    expect(entries()).toContain("scripts/start.js");
    expect(found.unusedFiles.filter((f) => !(f in NOT_YET_USED))).toEqual([]);
    expect(Object.keys(NOT_YET_USED).filter((f) => !found.unusedFiles.includes(f))).toEqual([]);
  });
});

describe("the checker tells a used export from an unused one", () => {
  it("named, default, type-only and type-import uses count; an export no file names does not", () => {
    expect(
      exportUse({
        "src/core/a.ts": "export const A = 1;\nexport function unusedFn() {}\nexport interface Shape { x: number }\nexport default 3;",
        "src/core/b.ts": 'import dflt, { A } from "./a";\nlet s: import("./a").Shape;\nexport const B = A + dflt;',
        "src/save/c.ts": 'import type { Shape } from "../core/a";\nimport { B } from "../core/b";\nconst x: Shape = { x: B };',
      }).unusedExports,
    ).toEqual(["src/core/a.ts: unusedFn"]);
  });

  it("an export its own file uses is live (a constant a test pins, a type in a signature)", () => {
    expect(
      exportUse({
        "src/core/a.ts": "export const GAP = 5;\nexport interface Opts { n: number }\nexport function f(o: Opts) { return o.n + GAP; }\nexport const LONE = 1;",
        "src/core/b.ts": 'import { f } from "./a";\nf({ n: 1 });',
      }).unusedExports,
    ).toEqual(["src/core/a.ts: LONE"]);
  });

  it("re-exports count when the re-export is used, and an unused re-export is itself unused", () => {
    expect(
      exportUse({
        "src/core/a.ts": "export const A = 1;\nexport const B = 2;\nexport const C = 3;",
        "src/core/index.ts": 'export * from "./a";\nexport { C as SEE } from "./a";',
        "src/save/x.ts": 'import { A } from "../core/index";\nA;',
      }).unusedExports,
    ).toEqual(["src/core/a.ts: B", "src/core/a.ts: C", "src/core/index.ts: SEE"]);
  });

  it("a namespace import counts the members it names; handed on whole, every export", () => {
    const named = exportUse({
      "src/core/a.ts": "export const A = 1;\nexport const B = 2;",
      "src/save/x.ts": 'import * as core from "../core/a";\ncore.A;',
    });
    expect(named.unusedExports).toEqual(["src/core/a.ts: B"]);
    const whole = exportUse({
      "src/core/a.ts": "export const A = 1;\nexport const B = 2;",
      "src/save/x.ts": 'import * as core from "../core/a";\nconsole.log(core);',
    });
    expect(whole.unusedExports).toEqual([]);
  });

  it("a dynamic import or a require counts what is taken from it", () => {
    expect(
      exportUse({
        "src/core/a.ts": "export const A = 1;\nexport const B = 2;\nexport const C = 3;\nexport const D = 4;",
        "scripts/x.js": 'const { A } = await import("../src/core/a.ts");\nconst c = (await import("../src/core/a.ts")).C;',
      }).unusedExports,
    ).toEqual(["src/core/a.ts: B", "src/core/a.ts: D"]);
    expect(
      exportUse({
        "src/core/a.cjs": "exports.A = 1;",
        "src/core/b.ts": "export const A = 1;\nexport const B = 2;",
        "scripts/y.cjs": 'const { A } = require("../src/core/b");',
      }).unusedExports,
    ).toEqual(["src/core/b.ts: B"]);
  });

  it("a file loaded by a path built at run time counts whole; a computed tail reaches its folder", () => {
    const found = exportUse(
      {
        "src/host/node/cli.ts": "export function main() {}\nexport const HELP = 1;",
        "scripts/bench/a.ts": "export function run() {}",
        "scripts/bench/b.ts": "export function run() {}",
        "scripts/lib/hostBuild.js": 'await esbuild.build({ entryPoints: ["src/host/node/cli.ts"] });',
        "scripts/bench.ts": 'for (const name of ["a", "b"]) await import(join(ROOT, "scripts", "bench", name + ".ts"));',
      },
      ["scripts/bench.ts", "scripts/lib/hostBuild.js"],
    );
    expect(found.unusedExports).toEqual([]);
    expect(found.unusedFiles).toEqual([]);
    // A folder only read (the build cache hashes every source) uses no export of it.
    expect(
      exportUse({ "scripts/lib/a.js": "export function helper() {}", "scripts/lib/cache.js": 'for (const f of filesUnder(join(ROOT, "scripts", "lib"))) hash(readFileSync(f));' }, ["scripts/lib/cache.js"])
        .unusedExports,
    ).toEqual(["scripts/lib/a.js: helper"]);
  });

  it("a file nothing uses is found, unless it is run from outside; a declaration file never is", () => {
    expect(
      exportUse(
        {
          "src/core/index.ts": 'export * from "./a";',
          "src/core/a.ts": "export const A = 1;",
          "src/core/b.d.ts": 'declare module "virtual:thing" { const x: number; export default x; }',
          "scripts/start.js": 'import { A } from "../src/core/a.ts";\nA;',
          "scripts/old.js": "console.log(1);",
        },
        ["scripts/start.js"],
      ).unusedFiles,
    ).toEqual(["scripts/old.js", "src/core/index.ts"]);
  });
});
