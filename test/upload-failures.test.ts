/**
 * `npm run upload` fails loudly, with exit status 1 and a reason in one line, when there is nothing
 * to upload to or nothing to build from, and with status 2 on a usage error; it answers --help and
 * --version; `npm run flash`, its old name, says so in one line and then does the same.
 * test/upload-over-serial-pty.test.ts has the serial failures.
 */
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(__dirname, "..");

function upload(args: string[], board = join(ROOT, "boards", "esp32.json"), env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, "scripts", "upload.js")].concat(args),
      { cwd: ROOT, env: { ...process.env, BOARD: board, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, out: stdout + stderr }),
    );
  });
}

describe("the upload refuses", () => {
  it("without a port or --dry-run when no ESP32 board is plugged in (the list stubbed empty)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pet-upload-fail-"));
    try {
      writeFileSync(join(dir, "ports.json"), "[]");
      const r = await upload([], undefined, { PET_SERIAL_LIST: join(dir, "ports.json") });
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/no ESP32 board found[\s\S]*Name the port with --port P/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a board that does not answer (nothing listens on the port), before building", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pet-upload-fail-"));
    try {
      const r = await upload(["--port", "tcp://127.0.0.1:1", "--bundle", join(dir, "firmware.js")]);
      expect(r.code).toBe(1);
      expect(r.out.trim()).toBe("upload failed: nothing listens at tcp://127.0.0.1:1: is the board (or `espruino --telnet`) running there?");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a board profile file that does not exist", async () => {
    const r = await upload(["--dry-run"], join(ROOT, "boards", "no-such-board.json"));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/bad board profile .*no-such-board\.json:\n {2}- cannot read the file/);
  });

  it("an unknown option, as a usage error", async () => {
    const r = await upload(["--dry-run", "--colour", "red"]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^npm run upload: unknown option --colour\nusage: npm run upload -- /);
  });

  it("a simulator's profile, which has no board to go to", async () => {
    const r = await upload(["--port", "tcp://127.0.0.1:1"], join(ROOT, "boards", "desktop.json"));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^upload failed: boards\/desktop\.json is a simulator's profile \(host desktop\)/);
  });
});

describe("the upload answers", () => {
  it("--help with its options, an example and its exit statuses, and --version", async () => {
    const help = await upload(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^usage: npm run upload -- \[options\]\n/);
    for (const option of ["--port P", "--baud N", "--list", "--dry-run", "--out FILE", "--bundle FILE", "--entry FILE", "--monitor", "--verbose", "--version"]) expect(help.out).toContain(option);
    expect(help.out).toMatch(/\n {2}-h, --help +this help\n/);
    expect(help.out).toMatch(/examples:\n {2}npm run upload\n/);
    expect(help.out).toMatch(/exit status:\n {2}0 {2}uploaded[\s\S]*\n {2}1 {2}not uploaded[\s\S]*\n {2}2 {2}usage/);
    const version = await upload(["--version"]);
    expect(version).toEqual({ code: 0, out: "npm run upload " + JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version + "\n" });
  });

  it("under its old name, npm run flash, with one line saying it is now npm run upload", async () => {
    const npm = (script: string): Promise<{ code: number; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        execFile("npm", ["run", "-s", script, "--", "--version"], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
        );
      });
    const [old, now] = await Promise.all([npm("flash"), npm("upload")]);
    const version = "npm run upload " + JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version + "\n";
    expect(old).toEqual({ code: 0, stdout: version, stderr: "`npm run flash` is now `npm run upload`\n" });
    expect(now).toEqual({ code: 0, stdout: version, stderr: "" });
  });
});
