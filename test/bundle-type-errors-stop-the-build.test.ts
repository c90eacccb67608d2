/**
 * The type check still stops the build now that it runs beside the emit rather than before it
 * (scripts/lib/typeCheck.js): an entry using what the ES5 library does not have (Map) fails with
 * TypeScript's error naming the file and line, and nothing is cached; the same entry without the
 * error builds, and its passing check is remembered (for the other profiles of the same sources).
 * A check that another process is running is awaited rather than done twice, unless its owner is
 * gone; a failed check leaves no mark.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";
import { checkPassed, sharedCheck } from "../scripts/lib/typeCheck.js";

let probeDir = "";
let cacheDir = "";
beforeAll(() => {
  // Entries must sit inside the repository (only its files are compiled); tmp/ is ignored by git.
  mkdirSync(join(ROOT, "tmp"), { recursive: true });
  probeDir = mkdtempSync(join(ROOT, "tmp", "type-check-"));
  cacheDir = mkdtempSync(join(tmpdir(), "pet-check-cache-"));
});
afterAll(() => {
  if (probeDir) rmSync(probeDir, { recursive: true, force: true });
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  // tmp/ itself goes too when nothing else is in it.
  try {
    rmdirSync(join(ROOT, "tmp"));
  } catch {
    // not empty, or gone: leave it
  }
});

const PROBE = (body: string): string =>
  'import { bytesEqual } from "../../src/core/bytes";\n' +
  "declare const print: (...args: unknown[]) => void;\n" +
  body +
  "print(bytesEqual(new Uint8Array([1]), new Uint8Array([1])));\n";

it("fails on a type error with TypeScript's message, and builds once it is fixed", async () => {
  const entry = join(probeDir, "probe.ts");
  writeFileSync(entry, PROBE("const seen = new Map<string, number>();\nseen.set(\"a\", 1);\n"));
  process.env.PET_BUILD_CACHE_DIR = cacheDir;
  try {
    const failed = await buildFirmware({ entry, board: join(ROOT, "boards", "linux.json"), outFile: null }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(failed).not.toBeNull();
    expect(failed!.message).toMatch(/^type errors in the firmware:/);
    expect(failed!.message).toMatch(/probe\.ts\(3,\d+\): error TS2583: Cannot find name 'Map'/);
    expect(readdirSync(cacheDir)).toEqual([]); // neither a bundle nor a passed check remembered

    writeFileSync(entry, PROBE(""));
    let builds = 0;
    const fixed = await buildFirmware({ entry, board: join(ROOT, "boards", "linux.json"), outFile: null, onBuild: () => builds++ });
    expect(fixed.code).toMatch(/print\(/);
    expect(builds).toBe(1);
    const names = readdirSync(cacheDir);
    expect(names.filter((n) => n.startsWith("check-") && n.endsWith(".ok"))).toHaveLength(1);
    expect(names.filter((n) => n.endsWith(".json"))).toHaveLength(1);
  } finally {
    delete process.env.PET_BUILD_CACHE_DIR;
  }
}, 180_000);

it("waits for a check another process is running, takes over a dead one's, and remembers only passes", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pet-check-lock-"));
  try {
    let runs = 0;
    const pass = () => (runs++, { errors: [], warnings: [] });
    // A live owner (this very process stands in for it): its pass lands while we wait.
    writeFileSync(join(dir, "check-a.lock"), String(process.pid));
    setTimeout(() => {
      writeFileSync(join(dir, "check-a.ok"), "");
      rmSync(join(dir, "check-a.lock"));
    }, 300);
    expect(await sharedCheck(dir, "a", pass)).toEqual({ errors: [], warnings: [] });
    expect(runs).toBe(0);
    // A lock whose owner has exited is taken over.
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    writeFileSync(join(dir, "check-b.lock"), gone);
    expect(await sharedCheck(dir, "b", pass)).toEqual({ errors: [], warnings: [] });
    expect(runs).toBe(1);
    expect(checkPassed(dir, "b")).toBe(true);
    expect(existsSync(join(dir, "check-b.lock"))).toBe(false);
    // A failure is answered, and neither remembered nor left locked.
    expect(await sharedCheck(dir, "c", () => ({ errors: ["x.ts(1,1): error TS1: no"], warnings: [] }))).toEqual({ errors: ["x.ts(1,1): error TS1: no"], warnings: [] });
    expect(readdirSync(dir).filter((n) => n.startsWith("check-c"))).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
