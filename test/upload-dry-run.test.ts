/**
 * `npm run upload -- --dry-run` writes exactly what would be typed at a board's console: the pet
 * saved and paused, the built bundle (pretokenised), byte for byte, into Storage ".bootcde" (the file Espruino runs
 * at every boot) in acknowledged pieces, its CRC asked, then a restart into it; with
 * `--for-version 2v06` the bundle in its function form. The text is replayed here against a fake
 * Storage to prove it, without any board.
 */
import { blockFormCode } from "../src/boards/bundleForm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { BODY_FILE, functionForm } from "../src/boards/bundleForm";

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
function replay(text: string, before: Record<string, string> = {}): Replay {
  const r: Replay = { files: { ...before }, writes: [], loads: [], other: [] };
  const storage = {
    read: (name: string) => r.files[name],
    erase(name: string) {
      r.other.push("erase " + name);
      delete r.files[name];
    },
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
  // Echo-off bytes are the console's, not JavaScript; the pause and the CRC question are answered idly.
  runInNewContext(text.replace(/\x10/g, ""), {
    print() {},
    // The board's free JsVars, which the quiet line reports: an ESP32 without PSRAM, the pet running.
    process: { memory: () => ({ free: 600 }) },
    clearInterval() {},
    clearTimeout() {},
    clearWatch() {},
    E: { CRC32: () => 0 },
    atob: (b64: string) => Buffer.from(b64, "base64").toString("latin1"),
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

  it("sends the bundle, pretokenised, byte for byte into Storage .bootcde, in lines of ASCII", () => {
    const r = replay(sent);
    expect(bundle.length).toBeGreaterThan(1000);
    expect(Object.keys(r.files)).toEqual([".bootcde"]);
    expect(r.files[".bootcde"]).toBe(blockFormCode(bundle));
    // The token bytes travel as base64: nothing on the console line is above 0x7e.
    expect(/^[\x00-\x7e]*$/.test(sent)).toBe(true);
  });

  it("creates the file once at its full size, then appends", () => {
    const r = replay(sent);
    expect(r.writes[0]).toEqual({ name: ".bootcde", offset: 0, size: blockFormCode(bundle).length });
    for (const w of r.writes.slice(1)) expect(w.size).toBeUndefined();
  });

  it("then restarts into .bootcde and does nothing else but erase the function form's body", () => {
    const r = replay(sent);
    expect(r.loads).toEqual([[".bootcde"]]);
    expect(r.other).toEqual(["erase " + BODY_FILE]);
    expect(sent.trimEnd().endsWith('load(".bootcde")')).toBe(true);
  });

  it("pauses the pet before the first piece and asks the CRC before the load", () => {
    expect(sent.indexOf("clearInterval()")).toBeLessThan(sent.indexOf("Storage\").write"));
    expect(sent.indexOf("#pet-crc")).toBeLessThan(sent.indexOf('load(".bootcde")'));
  });

  it("erases the body a function form left (a board whose Espruino moved up from 2v06), after the CRC and before the load", () => {
    const r = replay(sent, { [BODY_FILE]: "old body", ".bootcde": "old head" });
    expect(Object.keys(r.files)).toEqual([".bootcde"]);
    expect(r.files[".bootcde"]).toBe(blockFormCode(bundle));
    const erase = sent.indexOf("#pet-erased");
    expect(erase).toBeGreaterThan(sent.lastIndexOf("#pet-crc"));
    expect(erase).toBeLessThan(sent.indexOf('load(".bootcde")'));
  });

  it("--for-version 2v06 writes the bundle's function form, which Espruino before 2v14 needs", async () => {
    const out = join(dir, "upload-2v06.js");
    const r = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(ROOT, "scripts", "upload.js"), "--dry-run", "--for-version", "2v06", "--out", out, "--bundle", join(dir, "firmware.js")],
        { cwd: ROOT, env: { ...process.env, BOARD: join(ROOT, "boards", "esp32.json") }, timeout: 60_000 },
        (error, stdout) => resolve({ code: error ? 1 : 0, stdout }),
      );
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/in its function form into Storage petfw\.js and \.bootcde/);
    const text = readFileSync(out, "latin1");
    const written = replay(text);
    const form = functionForm(bundle);
    expect(Object.keys(written.files)).toEqual([BODY_FILE, ".bootcde"]);
    expect(written.files[BODY_FILE]).toBe(form.body.code);
    expect(written.files[".bootcde"]).toBe(form.head);
    // The body goes first, so that a cut between the two leaves the old head; each file's CRC is asked before the load.
    expect(text.indexOf('write("' + BODY_FILE + '"')).toBeLessThan(text.indexOf('write(".bootcde"'));
    expect(text.indexOf('read("' + BODY_FILE + '")))')).toBeGreaterThan(text.lastIndexOf("Storage\").write"));
    expect(text.indexOf('read(".bootcde")))')).toBeLessThan(text.indexOf('load(".bootcde")'));
    // Nothing to erase: the function form reads both files it writes.
    expect(written.other).toEqual([]);
  });
});
