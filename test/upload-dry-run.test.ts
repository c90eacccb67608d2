/**
 * `npm run upload -- --dry-run` writes exactly what would be sent to a board: the built bundle,
 * byte for byte, into Storage ".bootcde" (the file Espruino runs at every boot), then a restart into
 * it. The text is replayed here against a fake Storage to prove it, without any board.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";

const ROOT = join(__dirname, "..");
let dir = "";
let run: { code: number; stdout: string; stderr: string };
let sent = "";
let bundle = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pet-upload-dry-"));
  run = await new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, "scripts", "upload.js"), "--dry-run", "--out", join(dir, "upload.js"), "--bundle", join(dir, "firmware.js")],
      { cwd: ROOT, env: { ...process.env, BOARD: join(ROOT, "boards", "esp32.json") }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
  if (run.code === 0) {
    sent = readFileSync(join(dir, "upload.js"), "latin1");
    bundle = readFileSync(join(dir, "firmware.js"), "latin1");
  }
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Replay {
  files: Record<string, string>;
  writes: { name: string; offset: number | undefined; size: number | undefined }[];
  loads: unknown[][];
  other: string[];
}

/** Runs the upload text with Storage.write and load() recorded (Espruino's semantics for write). */
function replay(text: string): Replay {
  const r: Replay = { files: {}, writes: [], loads: [], other: [] };
  const storage = {
    write(name: string, data: string, offset?: number, size?: number) {
      r.writes.push({ name, offset, size });
      // a write with a size creates the file (erased, 0xFF) at that size; later writes fill it in
      if (size !== undefined) r.files[name] = "\u00ff".repeat(size);
      const cur = r.files[name] ?? "";
      const at = offset ?? 0;
      r.files[name] = cur.slice(0, at) + data + cur.slice(at + data.length);
      return true;
    },
  };
  runInNewContext(text, {
    require(name: string) {
      if (name === "Storage") return storage;
      r.other.push("require " + name);
      return {};
    },
    load(...args: unknown[]) {
      r.loads.push(args);
    },
  });
  return r;
}

describe("upload --dry-run", () => {
  it("succeeds without a board and says what it wrote", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/dry run: wrote .*upload\.js/);
  });

  it("sends the bundle byte for byte into Storage .bootcde", () => {
    const r = replay(sent);
    expect(bundle.length).toBeGreaterThan(1000);
    expect(Object.keys(r.files)).toEqual([".bootcde"]);
    expect(r.files[".bootcde"]).toBe(bundle);
  });

  it("creates the file once at its full size, then appends", () => {
    const r = replay(sent);
    expect(r.writes[0]).toEqual({ name: ".bootcde", offset: 0, size: bundle.length });
    for (const w of r.writes.slice(1)) expect(w.size).toBeUndefined();
  });

  it("then restarts into .bootcde and does nothing else", () => {
    const r = replay(sent);
    expect(r.loads).toEqual([[".bootcde"]]);
    expect(r.other).toEqual([]);
    expect(sent.trimEnd().endsWith('load(".bootcde")')).toBe(true);
  });
});
