/**
 * The installed entry point works as a real process: bin/pet-save.js runs the command line compiled
 * to plain JavaScript (dist/host/pet-save.js, no TypeScript at run time), reads stdin, writes stdout,
 * and its exit status is the command's. Its output's edges behave as in any Unix tool: a reader that
 * goes away ends it quietly, a full disk is one line and status 1, never a stack trace.
 */
import { spawn as spawnChild, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/pet-save.js", import.meta.url));
const BUNDLE = fileURLToPath(new URL("../dist/host/pet-save.js", import.meta.url));
const golden = (name: string): Buffer =>
  Buffer.from(readFileSync(fileURLToPath(new URL("./golden/" + name + ".hex", import.meta.url)), "utf8").trim(), "hex");

function spawn(args: string[], input: Buffer) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: "buffer", timeout: 30000 });
  return { code: r.status, stdout: r.stdout.toString("utf8"), stderr: r.stderr.toString("utf8") };
}

describe("bin/pet-save.js as a process", () => {
  it("is executable with a node shebang", () => {
    expect(readFileSync(BIN, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(statSync(BIN).mode & 0o111).not.toBe(0);
  });

  it("decodes a payload from stdin to JSON and exits 0", () => {
    const r = spawn(["decode", "-", "--json"], golden("valid-utf8-name"));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).name).toBe("Zoë 🐾");
  });

  it("exits 1 with the status for a damaged payload, without a stack trace", () => {
    const r = spawn(["verify", "-"], golden("reject-bad-checksum"));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")[0]).toBe("rejected: bad-checksum");
    expect(r.stderr).not.toMatch(/\bat .*:\d+/);
  });

  it("runs the compiled bundle, which imports nothing but Node's own modules", () => {
    const r = spawn(["--version"], Buffer.alloc(0));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("pet-save " + JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8")).version + "\n");
    const code = readFileSync(BUNDLE, "utf8");
    const imports = [...code.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((i) => !i!.startsWith("node:"))).toEqual([]);
    expect(readFileSync(BIN, "utf8")).not.toMatch(/tsx|typescript/);
  });

  it("ends quietly with status 0 when the reader of its output has gone (| head)", async () => {
    const child = spawnChild(process.execPath, [BIN, "decode", "-"], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.destroy(); // the reader is gone before the first line is written
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdin.end(golden("valid-utf8-name"));
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it.runIf(process.platform === "linux")("says in one line that the disk is full (> /dev/full), status 1", () => {
    const full = spawnSync("sh", ["-c", '"$0" "$1" decode - > /dev/full', process.execPath, BIN], { input: golden("valid-minimal"), encoding: "utf8", timeout: 30000 });
    expect(full.status).toBe(1);
    expect(full.stderr).toBe("pet-save: cannot write to standard output: no space left on the device (ENOSPC); free some space or write somewhere else\n");
  });
});
