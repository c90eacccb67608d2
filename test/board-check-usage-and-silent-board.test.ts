/**
 * `npm run board-check` without a board to check: --help (options, examples, exit statuses) and
 * --version, a usage error (status 2), a simulator's profile, and a port whose board never answers,
 * which fails within seconds having sent nothing but the question what it is (status 1). The check
 * itself, on the interpreter, is test/board-check-on-espruino-through-pty.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { portList, ROOT, startFakeBoard } from "./serial-fake-board";

const dir = mkdtempSync(join(tmpdir(), "pet-board-check-usage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function boardCheck(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, "scripts", "board-check.js"), ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe("board-check", () => {
  it("answers --help and --version, and a bad option is a usage error", async () => {
    const [help, version, bad] = await Promise.all([boardCheck(["--help"]), boardCheck(["--version"]), boardCheck(["--colour"])]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run board-check -- \[options\]\n/);
    for (const option of ["--port P", "--board FILE", "--baud N", "--json", "--version"]) expect(help.stdout).toContain(option);
    expect(help.stdout).toMatch(/\n {2}-h, --help +this help\n/);
    expect(help.stdout).toMatch(/examples:\n {2}npm run board-check\n/);
    expect(help.stdout).toMatch(/exit status:\n {2}0 [\s\S]*\n {2}1 [\s\S]*\n {2}2 {2}usage/);
    expect(version).toMatchObject({ code: 0, stdout: "npm run board-check " + JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version + "\n" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^npm run board-check: unknown option --colour\nusage: /);
  });

  it("refuses a simulator's profile", async () => {
    const r = await boardCheck(["--board", join(ROOT, "boards", "desktop.json"), "--port", "tcp://127.0.0.1:1"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^board-check failed: boards\/desktop\.json is a simulator's profile/);
  });

  it("gives up on a board that never answers within seconds, having asked it only what it is", async () => {
    const board = await startFakeBoard("silent", join(dir, "silent.bin"));
    try {
      const r = await boardCheck(["--port", board.path, "--json"], { PET_SERIAL_LIST: portList(join(dir, "none.json"), []) });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("board-check failed: the board at " + board.path + " did not answer within 3 s");
      expect(board.received().split("\n").filter((l) => l.trim() !== "" && !l.includes("#pet-id "))).toEqual([]);
    } finally {
      await board.stop();
    }
  });
});
