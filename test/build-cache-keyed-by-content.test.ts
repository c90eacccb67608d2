/**
 * The firmware build's cache (scripts/lib/buildCache.js) hands back a bundle only when nothing it is
 * built from changed: the key moves with the content of any source, the profile's text, the build's
 * scripts and the lockfile, and stays put for files the build does not read and for dates. Two
 * processes that want the same bundle build it once; a hit is the bundle that build made; a damaged
 * entry is a miss, never a wrong bundle.
 */
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { buildKey, onceAcrossProcesses, readCached, writeCached } from "../scripts/lib/buildCache.js";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/** A miniature repository: the files the key reads, plus one it must not. */
function fakeRoot(): string {
  const root = tempDir("pet-cache-root-");
  const files: Record<string, string> = {
    "src/core/world.ts": "export const a = 1;\n",
    "src/host/espruino/main.ts": "import './x';\n",
    "firmware/app.ts": "export const b = 2;\n",
    "scripts/lib/build.js": "// build\n",
    "scripts/lib/hoist.js": "// hoist\n",
    "package-lock.json": '{"lockfileVersion":3}\n',
    "tsconfig.firmware.json": "{}\n",
    "README.md": "# not an input\n",
    "docs/storage.md": "# not an input either\n",
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

describe("the build cache's key", () => {
  const key = (root: string, boardText = '{"name":"x"}') => buildKey(root, { entry: join(root, "src/host/espruino/main.ts"), boardText });

  it("changes with any source, the build's scripts, the lockfile and the profile's text", () => {
    const root = fakeRoot();
    const base = key(root);
    expect(key(root)).toBe(base);
    for (const [name, text] of [
      ["src/core/world.ts", "export const a = 2;\n"],
      ["firmware/app.ts", "export const b = 3;\n"],
      ["scripts/lib/hoist.js", "// hoist, changed\n"],
      ["package-lock.json", '{"lockfileVersion":3,"x":1}\n'],
      ["tsconfig.firmware.json", '{"compilerOptions":{}}\n'],
      ["src/core/new-file.ts", "export {};\n"],
    ] as const) {
      const r = fakeRoot();
      writeFileSync(join(r, name), text);
      expect(key(r), name).not.toBe(base);
    }
    expect(key(root, '{"name":"y"}')).not.toBe(base);
  });

  it("stays put for files the build does not read and for modification times", () => {
    const root = fakeRoot();
    const base = key(root);
    writeFileSync(join(root, "README.md"), "# edited\n");
    writeFileSync(join(root, "docs/storage.md"), "# edited too\n");
    utimesSync(join(root, "src/core/world.ts"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(key(root)).toBe(base);
  });

  it("depends on content, not on where the repository is", () => {
    expect(key(fakeRoot())).toBe(key(fakeRoot()));
  });
});

/** A stand-in firmware of one line: what is measured here is the cache, so the cheapest build serves. */
const TINY_ENTRY = join(ROOT, "test", "fixtures", "upload-tiny-entry.ts");

/** buildFirmware of TINY_ENTRY in a child process with the cache in `dir`: whether it was a hit, and the bundle's hash. */
function buildInChild(dir: string, board: string): Promise<{ cached: boolean; sha: string }> {
  const script =
    "import(" + JSON.stringify(pathToFileURL(join(ROOT, "scripts", "lib", "build.js")).href) + ")" +
    ".then((m) => m.buildFirmware({ board: " + JSON.stringify(board) + ", entry: " + JSON.stringify(TINY_ENTRY) + ", outFile: null }))" +
    ".then((r) => process.stdout.write(JSON.stringify({ cached: r.cached, sha: require('node:crypto').createHash('sha256').update(r.code).digest('hex') })));";
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["-e", script], { env: { ...process.env, PET_BUILD_CACHE_DIR: dir } }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout)),
    );
  });
}

describe("buildFirmware with the cache", () => {
  it("builds once for processes that ask together, then hands back the same bundle", async () => {
    const dir = tempDir("pet-cache-dir-");
    const board = join(ROOT, "boards", "linux.json");
    // Two processes asking at once: one builds, the other waits for its entry.
    const racers = await Promise.all([buildInChild(dir, board), buildInChild(dir, board)]);
    expect(racers.map((r) => r.cached).sort()).toEqual([false, true]);
    expect(racers[0]!.sha).toBe(racers[1]!.sha);
    // The entry and the mark of its passed type check; no lock left behind.
    expect(readdirSync(dir).filter((n) => !/^check-[0-9a-f]{64}\.ok$/.test(n))).toHaveLength(1);
    expect(readdirSync(dir).filter((n) => n.endsWith(".lock"))).toEqual([]);
    process.env.PET_BUILD_CACHE_DIR = dir;
    try {
      const hit = await buildFirmware({ board, entry: TINY_ENTRY, outFile: null });
      expect(hit.cached).toBe(true);
      expect(createHash("sha256").update(hit.code).digest("hex")).toBe(racers[0]!.sha);
      expect(hit.profile).toEqual(JSON.parse(readFileSync(board, "utf8")));
    } finally {
      delete process.env.PET_BUILD_CACHE_DIR;
    }
  }, 120_000);

  it("looks for the result again once it holds the lock: a holder that stored it and let go meanwhile is not redone", async () => {
    // The race CI met: the first look finds nothing (another process is still building), that
    // process stores its result and lets the lock go, and this one then takes the free lock.
    const lock = join(tempDir("pet-cache-race-"), "k.lock");
    let looks = 0;
    let works = 0;
    const got = await onceAcrossProcesses(
      lock,
      () => (++looks === 1 ? null : "stored by the other"),
      () => {
        works++;
        return "built again";
      },
      1000,
    );
    expect(got).toBe("stored by the other");
    expect(works).toBe(0);
    expect(existsSync(lock)).toBe(false);
    // With nothing stored, the lock's holder does the work, once.
    const built = await onceAcrossProcesses(lock, () => null, () => (works++, "built"), 1000);
    expect([built, works, existsSync(lock)]).toEqual(["built", 1, false]);
  });

  it("takes a damaged or foreign entry for a miss", () => {
    const dir = tempDir("pet-cache-bad-");
    writeCached(dir, "k", { code: "x", unminified: "y", warnings: [] });
    expect(readCached(dir, "k")).toMatchObject({ code: "x", unminified: "y" });
    for (const text of ['{"format":"firmware-cache-1","code":', '{"format":"firmware-cache-0","code":"x","unminified":"y"}', '{"format":"firmware-cache-1","code":1}', ""]) {
      writeFileSync(join(dir, "k.json"), text);
      expect(readCached(dir, "k"), text).toBeNull();
    }
    expect(readCached(dir, "absent")).toBeNull();
  });
});
