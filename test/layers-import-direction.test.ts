/**
 * The layer rule (test/layer-rule.ts says it whole) holds over every product file: src/, firmware/,
 * scripts/, bin/ and tools/, their .ts, .js, .cjs and .mjs files, imports and paths built at run
 * time alike. No file uses a unit above its own or beside it, and none reaches into test/. The checker
 * is also run on made-up files, one for each way a file can break the rule, so that a green result
 * means something.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { layerBreaks, productFiles, usedPaths } from "./layer-rule";

const ROOT = join(__dirname, "..");

describe("the layers hold everywhere", () => {
  const files = productFiles(ROOT);

  it("no product file uses a unit above its own or beside it, or anything in test/", () => {
    expect(Object.keys(files).length).toBeGreaterThan(150);
    expect(layerBreaks(files)).toEqual([]);
  });

  it("the checker sees the paths the tree builds at run time", () => {
    // Two that must be found for the first test to mean something: an entry point naming src/ and a
    // product module finding a file of its own from the package's root.
    expect(usedPaths("scripts/lib/hostBuild.js", files["scripts/lib/hostBuild.js"] as string)).toContain("src/host/node/cli.ts");
    expect(usedPaths("src/host/node/upload/espruinoTool.ts", files["src/host/node/upload/espruinoTool.ts"] as string)).toContain(
      "src/host/node/upload/uploaderShim.cjs",
    );
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

  it("sideways: one host reaching into another, the firmware into src/inspect", () => {
    expect(
      layerBreaks({
        "src/host/node/a.ts": 'import { judgePayload } from "../../web/checkFile/judgePayload";',
        "src/web/b.ts": 'import type { CliIo } from "../host/node/cli/io";',
        "src/host/espruino/c.ts": 'import { deviceConsole } from "../node/cli/deviceConsole";',
        "firmware/d.ts": 'import { regionText } from "../src/inspect/regionReport";',
        "src/web/e.ts": 'import { installEspruinoGlobals } from "../host/emulator/espruinoGlobals";', // a lower layer: fine
      }),
    ).toEqual([
      "src/host/node/a.ts -> src/web/checkFile/judgePayload (sideways)",
      "src/web/b.ts -> src/host/node/cli/io (sideways)",
      "src/host/espruino/c.ts -> src/host/node/cli/deviceConsole (sideways)",
      "firmware/d.ts -> src/inspect/regionReport (sideways)",
    ]);
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
