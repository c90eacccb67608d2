/**
 * `pet-save` run in-process through main(argv, io): decode, encode and verify on the golden payloads,
 * exit codes 0/1/2, "rejected: <status>" messages, stdin/stdout via "-", and that a rejection never
 * writes OUT.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS, main, type CliIo } from "../src/host/node/cli";
import { describeStatus, type LoadStatus } from "../src/save/status";

const GOLDEN = fileURLToPath(new URL("./golden", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pet-save-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a golden vector as a binary payload file and returns its path. */
function goldenFile(name: string): string {
  const path = join(dir, name + ".bin");
  writeFileSync(path, Buffer.from(readFileSync(join(GOLDEN, name + ".hex"), "utf8").trim(), "hex"));
  return path;
}

interface Run {
  code: number;
  stdout: string;
  stdoutBytes: Buffer;
  stderr: string;
}

async function run(argv: string[], stdin: Uint8Array = new Uint8Array(0)): Promise<Run> {
  const out: Buffer[] = [];
  let err = "";
  const io: CliIo = {
    readStdin: async () => stdin,
    writeStdout: (d) => void out.push(Buffer.from(typeof d === "string" ? Buffer.from(d, "utf8") : d)),
    writeStderr: (t) => void (err += t),
  };
  const code = await main(argv, io);
  const bytes = Buffer.concat(out);
  return { code, stdout: bytes.toString("utf8"), stdoutBytes: bytes, stderr: err };
}

const JSON_KEYS = [
  "formatVersion",
  "elapsedMs",
  "updateCount",
  "savedAtMs",
  "activity",
  "activityName",
  "expression",
  "expressionName",
  "activitySinceMs",
  "expressionSinceMs",
  "name",
  "nameHex",
];

describe("pet-save decode", () => {
  it("prints the fields readably", async () => {
    const r = await run(["decode", goldenFile("valid-utf8-name")]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain('"Zoë 🐾"');
    expect(r.stdout).toContain("3600000 ms");
    expect(r.stdout).toContain("2026-01-01T00:00:00.000Z");
    expect(r.stdout).toContain("4 (sleeping)");
    expect(r.stdout).toContain("2 (sleepy)");
  });

  it("--json prints exactly one object with exactly the agreed keys", async () => {
    const r = await run(["decode", goldenFile("valid-utf8-name"), "--json"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(JSON_KEYS);
    expect(j).toEqual({
      formatVersion: 1,
      elapsedMs: "3600000",
      updateCount: "3600",
      savedAtMs: "1767225600000",
      activity: 4,
      activityName: "sleeping",
      expression: 2,
      expressionName: "sleepy",
      activitySinceMs: "3000000",
      expressionSinceMs: "3000000",
      name: "Zoë 🐾",
      nameHex: "5a6fc3ab20f09f90be",
    });
  });

  it("keeps u64 values exact as decimal strings", async () => {
    const j = JSON.parse((await run(["decode", goldenFile("valid-maximal"), "--json"])).stdout);
    for (const k of ["elapsedMs", "updateCount", "savedAtMs", "activitySinceMs", "expressionSinceMs"]) {
      expect(j[k]).toBe("18446744073709551615");
    }
    expect(j.nameHex).toBe("ff".repeat(31));
  });

  it("--now adds the time away to elapsedMs only", async () => {
    const j = JSON.parse((await run(["decode", goldenFile("valid-utf8-name"), "--now", "1767225605000", "--json"])).stdout);
    expect(j.elapsedMs).toBe("3605000");
    expect(j.activitySinceMs).toBe("3000000");
    expect(j.savedAtMs).toBe("1767225600000");
  });

  it("reads stdin for -", async () => {
    const bytes = readFileSync(goldenFile("valid-minimal"));
    const r = await run(["decode", "-", "--json"], bytes);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).name).toBe("A");
  });

  const REJECTED: Array<[string, LoadStatus, string[]]> = [
    ["reject-too-short-empty", "too-short", []],
    ["reject-bad-magic", "bad-magic", []],
    ["reject-unsupported-version-2-length-10", "unsupported-version", []],
    ["reject-bad-length-85", "bad-length", []],
    ["reject-bad-checksum", "bad-checksum", []],
    ["reject-unknown-activity", "unknown-activity", []],
    ["reject-unknown-expression", "unknown-expression", []],
    ["reject-bad-name-nonzero-padding", "bad-name", []],
    ["reject-clock-overflow", "clock-overflow", ["--now", "1767225601000"]],
    ["reject-invalid-world-activity-since", "invalid-world", []],
  ];
  for (const [file, status, extra] of REJECTED) {
    it(file + ": exit 1, rejected: " + status, async () => {
      for (const command of ["decode", "verify"]) {
        const r = await run([command, goldenFile(file), ...extra]);
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toBe("rejected: " + status + "\n" + describeStatus(status) + "\n");
      }
    });
  }
});

describe("pet-save verify", () => {
  it('prints "ok" and exits 0 for an accepted payload', async () => {
    expect(await run(["verify", goldenFile("valid-maximal")])).toMatchObject({ code: 0, stdout: "ok\n", stderr: "" });
  });

  it("honours --now (the overflow vector is fine without a clock)", async () => {
    expect((await run(["verify", goldenFile("reject-clock-overflow")])).code).toBe(0);
  });
});

describe("pet-save encode", () => {
  for (const name of ["valid-minimal", "valid-maximal", "valid-utf8-name"]) {
    it(name + ": decode --json then encode gives the same bytes", async () => {
      const source = goldenFile(name);
      const jsonPath = join(dir, name + ".json");
      writeFileSync(jsonPath, (await run(["decode", source, "--json"])).stdout);
      const outPath = join(dir, name + ".out.bin");
      const r = await run(["encode", jsonPath, "-o", outPath]);
      expect(r).toMatchObject({ code: 0, stderr: "" });
      expect(readFileSync(outPath).equals(readFileSync(source))).toBe(true);
    });
  }

  it("accepts name instead of nameHex, numbers for u64 fields, and writes to stdout for -o -", async () => {
    const input = {
      name: "A",
      activity: 0,
      expression: 0,
      elapsedMs: 0,
      updateCount: "0",
      savedAtMs: 0,
      activitySinceMs: 0,
      expressionSinceMs: "0",
    };
    const r = await run(["encode", "-", "-o", "-"], Buffer.from(JSON.stringify(input)));
    expect(r.code).toBe(0);
    expect(r.stdoutBytes.equals(readFileSync(goldenFile("valid-minimal")))).toBe(true);
  });

  it("leaves no temporary file behind", async () => {
    const sub = mkdtempSync(join(dir, "atomic-"));
    const jsonPath = join(dir, "atomic.json");
    writeFileSync(jsonPath, (await run(["decode", goldenFile("valid-minimal"), "--json"])).stdout);
    expect((await run(["encode", jsonPath, "-o", join(sub, "pet.bin")])).code).toBe(0);
    expect(readdirSync(sub)).toEqual(["pet.bin"]);
  });

  const base = {
    formatVersion: 1,
    elapsedMs: "1000",
    updateCount: "1",
    savedAtMs: "0",
    activity: 0,
    expression: 0,
    activitySinceMs: "0",
    expressionSinceMs: "0",
    name: "Rex",
  };
  const BAD: Array<[string, unknown, RegExp]> = [
    ["an unknown activity", { ...base, activity: 9 }, /^rejected: unknown-activity\n/],
    ["an empty name", { ...base, name: "" }, /^rejected: bad-name\n/],
    ["a 32-byte name", { ...base, name: "x".repeat(32) }, /^rejected: bad-name\n/],
    ["a since stamp after the clock", { ...base, activitySinceMs: "1001" }, /^rejected: invalid-world\n/],
    ["a missing field", { ...base, updateCount: undefined }, /^bad field updateCount: missing/],
    ["an unknown field", { ...base, colour: "red" }, /^bad field colour: unknown field/],
    ["a u64 above 2^64 - 1", { ...base, elapsedMs: "18446744073709551616" }, /^bad field elapsedMs/],
    ["an unsafe number", { ...base, elapsedMs: 2 ** 60 }, /^bad field elapsedMs/],
    ["disagreeing name and nameHex", { ...base, nameHex: "4142" }, /^bad field name: name and nameHex disagree/],
    ["disagreeing activity and activityName", { ...base, activityName: "eating" }, /^bad field activityName/],
    ["format version 2", { ...base, formatVersion: 2 }, /^bad field formatVersion/],
    ["not an object", [1, 2], /^expected one JSON object/],
  ];
  for (const [title, input, message] of BAD) {
    it("refuses " + title + " with exit 1 and leaves OUT untouched", async () => {
      const jsonPath = join(dir, "bad.json");
      writeFileSync(jsonPath, JSON.stringify(input));
      const outPath = join(dir, "untouched.bin");
      writeFileSync(outPath, "previous content");
      const r = await run(["encode", jsonPath, "-o", outPath]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(readFileSync(outPath, "utf8")).toBe("previous content");
      const fresh = join(dir, "never-created.bin");
      expect((await run(["encode", jsonPath, "-o", fresh])).code).toBe(1);
      expect(existsSync(fresh)).toBe(false);
    });
  }

  it("refuses text that is not JSON with a clear message", async () => {
    const jsonPath = join(dir, "not.json");
    writeFileSync(jsonPath, "{ nope");
    const r = await run(["encode", jsonPath, "-o", "-"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not\.json is not valid JSON/);
    expect(r.stdout).toBe("");
  });
});

describe("usage and user errors", () => {
  it.each([
    [[]],
    [["frobnicate"]],
    [["decode"]],
    [["decode", "a", "b"]],
    [["decode", "a", "--bogus"]],
    [["decode", "a", "--now", "soon"]],
    [["decode", "a", "--now", "-5"]],
    [["encode", "in.json"]],
    [["verify"]],
  ])("exit 2 with usage text for %j", async (argv) => {
    const r = await run(argv as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage: pet-save/);
    expect(r.stdout).toBe("");
  });

  it("--help prints the command list and exits 0", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["decode", "encode", "verify"]) expect(r.stdout).toContain("pet-save " + c);
  });

  it.each(COMMANDS.map((c) => c.name))("%s --help shows its synopsis, options, an example and exit statuses, and exits 0", async (name) => {
    const command = COMMANDS.find((c) => c.name === name)!;
    for (const argv of [[name, "--help"], [name, "-h"], [name, "some-file", "--help"], ["help", name]]) {
      const r = await run(argv);
      expect(r.code, argv.join(" ")).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout.startsWith("usage: pet-save " + command.usage + "\n")).toBe(true);
      expect(r.stdout).toMatch(/\noptions:\n(  .+\n)+/);
      expect(r.stdout).toContain("  -h, --help");
      expect(r.stdout).toMatch(/\nexamples?:\n {2}pet-save \S/);
      expect(r.stdout).toMatch(/\nexit status:\n {2}0 +\S.*\n {2}1 +\S.*\n {2}2 +bad usage/);
    }
  });

  it("--version anywhere prints the version, not an error", async () => {
    const version = "pet-save " + JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8")).version + "\n";
    for (const argv of [["--version"], ["decode", "--version"], ["push", "--port", "x", "--version"]]) {
      const r = await run(argv);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(version);
    }
    // After `--`, it is a file name like any other.
    const r = await run(["decode", "--", "--version"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^cannot read --version: no such file/);
  });

  it("a usage error points at the command's --help", async () => {
    const r = await run(["decode"]);
    expect(r.stderr).toMatch(/\(pet-save decode --help for more\)\n$/);
  });

  it("a missing file is a one-line message, exit 1, no stack trace", async () => {
    const r = await run(["decode", join(dir, "does-not-exist.bin")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("cannot read " + join(dir, "does-not-exist.bin") + ": no such file\n");
  });

  it("a directory is refused the same way", async () => {
    const r = await run(["verify", dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^cannot read .*: is a directory\n$/);
  });
});
