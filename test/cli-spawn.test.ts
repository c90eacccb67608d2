/**
 * The installed entry point works as a real process: bin/pet-save.js starts through tsx, reads stdin,
 * writes stdout, and its exit status is the command's.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/pet-save.js", import.meta.url));
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
});
