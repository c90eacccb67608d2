/**
 * `npm run flash` fails loudly, with exit status 1 and a reason, when there is nothing to upload to
 * or nothing to build from. (The espruino tool itself exits 0 after "Unable to connect!", so the
 * script has to read its output.) test/flash-serial-upload-pty.test.ts has the serial failures.
 */
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(__dirname, "..");

function flash(args: string[], board = join(ROOT, "boards", "esp32.json"), env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, "scripts", "flash.js")].concat(args),
      { cwd: ROOT, env: { ...process.env, BOARD: board, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, out: stdout + stderr }),
    );
  });
}

describe("flash refuses", () => {
  it("without a port or --dry-run when no ESP32 board is plugged in (the list stubbed empty)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pet-flash-fail-"));
    try {
      writeFileSync(join(dir, "ports.json"), "[]");
      const r = await flash([], undefined, { PET_SERIAL_LIST: join(dir, "ports.json") });
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/no ESP32 board found[\s\S]*Name the port with --port P/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a board that does not answer (nothing listens on the port)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pet-flash-fail-"));
    try {
      const r = await flash(["--port", "tcp://127.0.0.1:1", "--bundle", join(dir, "firmware.js")]);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/upload failed: could not connect to the board/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a board profile file that does not exist", async () => {
    const r = await flash(["--dry-run"], join(ROOT, "boards", "no-such-board.json"));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/bad board profile .*no-such-board\.json:\n {2}- cannot read the file/);
  });

  it("an unknown option", async () => {
    const r = await flash(["--dry-run", "--colour", "red"]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/unknown option --colour/);
  });
});
