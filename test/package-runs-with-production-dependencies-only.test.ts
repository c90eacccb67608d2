/**
 * What `npm pack` makes is a working `pet-save` with the production dependencies alone: the packed
 * files (as npm lists them) are laid out as `npm install --omit=dev` would lay them out, the package
 * under node_modules/espruino-pet and only its production dependencies beside it (every package the
 * lockfile does not mark dev-only), and the installed pet-save then answers --version, decodes and
 * inspects, and reaches the serial layer and the network for pull and push. No TypeScript,
 * tsx or other dev dependency is there for it to lean on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "../scripts/lib/build.js";
import { freshHostBundle } from "../scripts/lib/hostBuild.js";

let dir = "";
let bin = "";
let packed: string[] = [];

beforeAll(async () => {
  await freshHostBundle("pet-save"); // what `prepare` makes before npm packs
  dir = mkdtempSync(join(tmpdir(), "pet-package-"));
  const pkg = join(dir, "node_modules", "espruino-pet");
  const list = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8" })) as { files: { path: string }[] }[];
  packed = list[0]!.files.map((f) => f.path);
  for (const file of packed) {
    mkdirSync(dirname(join(pkg, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(pkg, file));
  }
  // The production dependencies, hoisted beside the package as npm installs them.
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean; version?: string }> };
  for (const [path, entry] of Object.entries(lock.packages)) {
    // Top-level installed packages only ("node_modules/x", "node_modules/@scope/x"; nested ones come with their parent).
    const name = /^node_modules\/((?:@[^/]+\/)?[^/@][^/]*)$/.exec(path)?.[1];
    if (name === undefined || entry.dev || entry.version === undefined) continue;
    mkdirSync(dirname(join(dir, "node_modules", name)), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), "dir");
  }
  bin = join(pkg, "bin", "pet-save.js");
  writeFileSync(join(dir, "pet.hex"), readFileSync(join(ROOT, "test", "golden", "valid-utf8-name.hex")));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function petSave(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: dir, timeout: 30000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe("the packed pet-save with production dependencies only", () => {
  it("ships the compiled tool, not its sources or the dev tools", () => {
    expect(packed).toContain("dist/host/pet-save.js");
    expect(packed).toContain("bin/pet-save.js");
    expect(packed.filter((f) => f.endsWith(".ts"))).toEqual([]);
    const deps = Object.keys(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies).sort();
    expect(deps).toEqual(["espruino", "serialport"]);
  });

  it("answers, decodes and inspects", async () => {
    const [version, decoded, help] = await Promise.all([petSave(["--version"]), petSave(["decode", "pet.hex", "--json"]), petSave(["inspect", "--help"])]);
    expect(version).toMatchObject({ code: 0, stderr: "" });
    expect(version.stdout).toMatch(/^pet-save \d+\.\d+\.\d+\n$/);
    expect(decoded.code).toBe(0);
    expect(JSON.parse(decoded.stdout).name).toBe("Zoë 🐾");
    expect(help.stdout).toMatch(/^usage: pet-save inspect/);
  });

  it("reaches the serial layer and the network for pull and push", async () => {
    const [pull, push] = await Promise.all([
      petSave(["pull", "--port", "/dev/null", "-o", "x.bin"]),
      // Nothing listens on port 1: the console connects, is refused, and says so in words.
      petSave(["push", "--port", "tcp://127.0.0.1:1", "pet.hex"]),
    ]);
    if (process.platform === "linux") expect(pull.stderr).toMatch(/^\/dev\/null is not a serial port/);
    expect(pull.code).toBe(1);
    expect(push.code).toBe(1);
    expect(push.stderr).toMatch(/^nothing listens at tcp:\/\/127\.0\.0\.1:1: is the board/);
  }, 60_000);
});
