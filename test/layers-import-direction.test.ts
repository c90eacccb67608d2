/**
 * The layer rule (test/layer-rule.ts says it whole) holds over every product file: src/, firmware/,
 * scripts/, bin/ and tools/, their .ts, .js, .cjs and .mjs files, imports and paths built at run
 * time alike. No file uses a unit above its own or beside it, and none reaches into test/. The checker
 * is also run on made-up files, one for each way a file can break the rule, so that a green result
 * means something. docs/architecture.md's table of which units use which is held to what it finds.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { layerBreaks, productFiles, unitUses, unresolvedUses, UNITS, usedPaths } from "./layer-rule";

const ROOT = join(__dirname, "..");

/**
 * The expressions the checker cannot follow that the tree may keep, each with the reason it reaches
 * no unit it should not ("file: expression" -> why). Anything else it cannot follow is a break.
 */
const UNRESOLVED_ALLOWED: Record<string, string> = {
  "src/host/node/profileFile.js: resolve(root, option || env.BOARD || DEFAULT_PROFILE)": "the board profile named by --board or BOARD, else boards/esp32.json: a JSON file, read as data",
  "src/host/node/profileFile.js: resolve(root, file)": "a board profile file the caller names: a JSON file, read as data",
  "scripts/lib/build.js: resolve(ROOT, DEFAULT_PROFILE)": "the default board profile, boards/esp32.json (profileFile.js's DEFAULT_PROFILE): a JSON file, read as data",
  'scripts/start.js: resolve(ROOT, args.board || "boards/desktop.json")': "the board profile named by --board, else boards/desktop.json: a JSON file, read as data",
  "scripts/lib/build.js: resolve(ROOT, p)": "fromRoot: the entry module and the board profile the caller names (by default src/host/espruino/main.ts and boards/, both written out in this file)",
  "scripts/lib/buildCache.js: join(root, f)": "the build's own files (BUILD_FILES, written out in this file), read to hash them",
  "scripts/lib/buildCache.js: join(root, dir)": "the source folders (SOURCE_DIRS: src/ and firmware/), read to hash them",
  "scripts/lib/hostBuild.js: join(root, file)": "a file of the manifest of the last host build: one of its inputs, read to hash them",
  "scripts/lib/hostBuild.js: join(root, entry)": "an entry of HOST_ENTRIES, whose paths are written out in this file (each one a use)",
  "scripts/lib/hostBuild.js: resolve(root, file)": "an input esbuild reported for the host bundles, read to hash it",
  "scripts/lib/hostBuild.js: join(root, rel)": "the same input, by its path from the root",
  "scripts/lib/hostBuild.js: join(root, HOST_ENTRIES[name] || name)": "an entry of HOST_ENTRIES (written out in this file), or a path the caller names",
  "scripts/lib/command.js: pathToFileURL(await freshHostBundle(bundle)).href": "dist/host/<bundle>.js, a compiled desktop tool (built from HOST_ENTRIES) that an entry runs",
  'scripts/start.js: pathToFileURL(await freshHostBundle("desktop")).href': "dist/host/desktop.js, the compiled desktop host (built from HOST_ENTRIES)",
};

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

describe("the layers hold everywhere", () => {
  const files = productFiles(ROOT);

  it("no product file uses a unit above its own or beside it, or anything in test/, or a path the checker cannot follow", () => {
    expect(Object.keys(files).length).toBeGreaterThan(150);
    expect(layerBreaks(files, UNRESOLVED_ALLOWED)).toEqual([]);
  });

  it("docs/architecture.md's uses table is what the checker finds: a new use, or one gone, fails until the page says so", () => {
    const table = usesTable(readFileSync(join(ROOT, "docs", "architecture.md"), "utf8"));
    const found = unitUses(files);
    expect(Object.keys(found).length).toBeGreaterThan(8);
    expect(table).toEqual(found);
  });

  it("every expression allowed unresolved is still there (the list does not go stale)", () => {
    const found = unresolvedUses(files);
    expect(Object.keys(UNRESOLVED_ALLOWED).filter((e) => !found.includes(e))).toEqual([]);
  });

  it("the checker sees the paths the tree builds at run time", () => {
    // Two that must be found for the first test to mean something: an entry point naming src/ and a
    // product module finding a file of its own from the package's root.
    expect(usedPaths("scripts/lib/hostBuild.js", files["scripts/lib/hostBuild.js"] as string)).toContain("src/host/node/cli.ts");
    expect(usedPaths("src/host/node/upload/espruinoTool.ts", files["src/host/node/upload/espruinoTool.ts"] as string)).toContain(
      "src/host/node/upload/uploaderShim.cjs",
    );
    // The page carries the device host's bundle (virtual:firmware), built from its entry point.
    expect(usedPaths("src/web/main.ts", files["src/web/main.ts"] as string)).toContain("src/host/espruino/main.ts");
  });
});

describe("architecture.md's uses table is read as written", () => {
  it("a row's units, its reasons in brackets left out, `scripts`, `bin` as one unit, and nothing after the table", () => {
    const page =
      "intro\n| unit | uses |\n| --- | --- |\n" +
      "| `src/save` | `src/core` |\n" +
      "| `src/storage` | `src/core`; `src/save` (the CRC, not `src/web`) |\n" +
      "| `scripts`, `bin` | `src/host/node`, `firmware` |\n\nafter\n| `src/web` | `src/core` |\n";
    expect(usesTable(page)).toEqual({ "src/save": ["src/core"], "src/storage": ["src/core", "src/save"], scripts: ["firmware", "src/host/node"] });
  });
});

describe("the checker catches every way a file can break the rule", () => {
  it("imports that point up: static, type-only, a re-export, dynamic, a type's import(), require", () => {
    expect(
      layerBreaks({
        "src/core/a.ts": 'import { SlotLog } from "../storage/slotLog";',
        "src/platform/b.ts": 'import type { PetBoard } from "../../firmware/board";',
        "firmware/c.ts": 'export { espruinoEnv } from "../src/host/espruino/env";',
        "src/save/d.ts": 'const m = await import("../storage/slotLog");',
        "src/boards/e.d.ts": 'declare const p: import("../host/node/cli").Cli;',
        "src/storage/f.cjs": 'const x = require("../boards/boardFit");',
        "src/save/g.ts": 'import { u64 } from "../core/u64";', // downward: fine
      }),
    ).toEqual([
      "src/core/a.ts -> src/storage/slotLog (up)",
      "src/platform/b.ts -> firmware/board (up)",
      "firmware/c.ts -> src/host/espruino/env (up)",
      "src/save/d.ts -> src/storage/slotLog (up)",
      "src/boards/e.d.ts -> src/host/node/cli (up)",
      "src/storage/f.cjs -> src/boards/boardFit (up)",
    ]);
  });

  it("paths built at run time: new URL, join from the root, a computed tail, tsImport, spawn, an entry point", () => {
    expect(
      layerBreaks({
        "src/host/node/a.ts": 'const m = await import(new URL("../../../scripts/lib/upload.js", import.meta.url).href);',
        "src/host/node/b.ts": 'import { packageRoot } from "./packageRoot";\nconst lib = (name: string) => import(join(packageRoot(), "scripts", "lib", name));',
        "src/host/node/c.ts": 'const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");\nconst m = await tsImport(join(ROOT, "test", "storage-fixtures.ts"), import.meta.url);',
        "firmware/d.ts": 'spawn(process.execPath, [join(ROOT, "scripts", "upload.js"), "--port", port]);',
        "src/web/e.ts": 'await esbuild.build({ entryPoints: ["src/host/node/cli.ts"] });',
        "src/host/node/f.ts": 'const shim = join(packageRoot(), "src", "host", "node", "upload", "uploaderShim.cjs");', // its own unit: fine
      }),
    ).toEqual([
      "src/host/node/a.ts -> scripts/lib/upload.js (up)",
      "src/host/node/b.ts -> scripts/lib (up)",
      "src/host/node/c.ts -> test/storage-fixtures.ts (into test/)",
      "firmware/d.ts -> scripts/upload.js (up)",
      "src/web/e.ts -> src/host/node/cli.ts (sideways)",
    ]);
  });

  it("sideways: one host reaching into another, the device host into the emulator, the firmware into src/inspect", () => {
    expect(
      layerBreaks({
        "src/host/node/a.ts": 'import { judgePayload } from "../../web/checkFile/judgePayload";',
        "src/web/b.ts": 'import type { CliIo } from "../host/node/cli/io";',
        "src/host/espruino/c.ts": 'import { createEspruinoE } from "../emulator/espruinoE";',
        "firmware/d.ts": 'import { regionText } from "../src/inspect/regionReport";',
        "src/web/e.ts": 'import { installEspruinoGlobals } from "../host/emulator/espruinoGlobals";', // a lower layer: fine
      }),
    ).toEqual([
      "src/host/node/a.ts -> src/web/checkFile/judgePayload (sideways)",
      "src/web/b.ts -> src/host/node/cli/io (sideways)",
      "src/host/espruino/c.ts -> src/host/emulator/espruinoE (sideways)",
      "firmware/d.ts -> src/inspect/regionReport (sideways)",
    ]);
  });

  it("paths built by template literals, + and import.meta.dirname, and modules found by require.resolve", () => {
    expect(
      layerBreaks({
        "src/core/a.ts": "const m = await import(`../storage/${name}`);",
        "src/save/b.ts": 'const p = join(import.meta.dirname, "..", "boards", "boardFit.ts");',
        "src/storage/c.ts": 'const m = require(__dirname + "/../inspect/regionReport");',
        "src/platform/d.ts": 'const m = await import(ROOT + "/src/host/node/cli.ts");',
        "firmware/e.cjs": 'const shim = require.resolve("../src/host/node/upload/uploaderShim.cjs");',
        "src/boards/f.ts": 'const p = require.resolve("espruino/package.json");', // a package: fine
        "src/inspect/g.ts": "const p = `${import.meta.dirname}/regionPull.ts`;", // its own unit: fine
      }),
    ).toEqual([
      "src/core/a.ts -> src/storage (up)",
      "src/save/b.ts -> src/boards/boardFit.ts (up)",
      "src/storage/c.ts -> src/inspect/regionReport (up)",
      "src/platform/d.ts -> src/host/node/cli.ts (up)",
      "firmware/e.cjs -> src/host/node/upload/uploaderShim.cjs (up)",
    ]);
  });

  it("paths from process.cwd() (npm runs every script from the root), and the modules the build makes up", () => {
    expect(
      layerBreaks({
        "src/core/a.ts": 'const bin = join(process.cwd(), "scripts", "upload.js");',
        "firmware/b.ts": 'import { deviceFirmware } from "virtual:firmware";', // the device host's bundle: up
        "src/host/node/c.ts": 'import { deviceFirmware } from "virtual:firmware";', // a lower layer: fine
        "src/host/espruino/d.ts": 'import board from "virtual:board-profile";', // boards/*.json: no unit
        "src/web/e.d.ts": 'declare module "virtual:thing" { const x: string; export default x; }', // declared, not used
      }),
    ).toEqual(["src/core/a.ts -> scripts/upload.js (up)", "firmware/b.ts -> src/host/espruino/main.ts (up)"]);
  });

  it("what it cannot follow is a break: an unknown name loaded, a computed tail above a unit, an unknown virtual module", () => {
    const files = {
      "src/core/a.ts": "const m = await import(moduleName);",
      "src/save/b.ts": 'const m = await import(join(ROOT, "src", which, "x.ts"));',
      "firmware/c.ts": "const m = require(`${ROOT}/${where}`);",
      "src/storage/d.ts": 'import x from "virtual:elsewhere";',
      "src/web/e.ts": 'const p = join(ROOT, "src", "web", part);', // its own unit, tail computed: fine
      "scripts/f.js": 'const p = join(ROOT, "boards", name);', // boards/ is no unit: fine
    };
    const breaks = [
      "src/core/a.ts -> [moduleName] (unresolved)",
      'src/save/b.ts -> [join(ROOT, "src", which, "x.ts")] (unresolved)',
      "firmware/c.ts -> [`${ROOT}/${where}`] (unresolved)",
      'src/storage/d.ts -> ["virtual:elsewhere"] (unresolved)',
    ];
    expect(layerBreaks(files)).toEqual(breaks);
    // Listed with a reason, one is allowed; the rest still break.
    expect(layerBreaks(files, { "src/core/a.ts: moduleName": "a made-up reason" })).toEqual(breaks.slice(1));
  });

  it("any product file reaching into test/, scripts/ and bin/ included", () => {
    expect(
      layerBreaks({
        "scripts/bench/storage.ts": 'import { cutStorm } from "../../test/storage-cut-storm";',
        "bin/pet-save.js": 'import { x } from "../test/fixtures/thing.js";',
        "src/core/a.ts": 'const fixtures = require("../../test/core-arbitraries");',
        "scripts/bench/codec.ts": 'import { crc32 } from "../../src/save/crc32";', // scripts above src: fine
      }),
    ).toEqual([
      "scripts/bench/storage.ts -> test/storage-cut-storm (into test/)",
      "bin/pet-save.js -> test/fixtures/thing.js (into test/)",
      "src/core/a.ts -> test/core-arbitraries (into test/)",
    ]);
  });
});
