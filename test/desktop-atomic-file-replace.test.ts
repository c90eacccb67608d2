/**
 * writeFileAtomic: a failure at any step leaves the old file or the new one (never a torn or
 * missing file), errors come back as clear statuses, and no temporary file of ours outlives the
 * next successful save.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AtomicFs, AtomicStep, isOurTempName, nodeFs, writeFileAtomic } from "../src/host/node/atomicFile";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pet-atomic-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const OLD = new Uint8Array(84).fill(0x11);
const NEW = new Uint8Array(84).fill(0x22);

function fsError(code: string): Error {
  return Object.assign(new Error(code + ": injected"), { code });
}

type Call = keyof AtomicFs;

/** Real fs, except that the `nth` call of `call` throws `code` (and, optionally, unlink always fails). */
function failingFs(call: Call, nth: number, code: string, unlinkFails = false): AtomicFs {
  let seen = 0;
  const wrap = <K extends Call>(k: K): AtomicFs[K] =>
    ((...args: unknown[]) => {
      if (k === "unlinkSync" && unlinkFails) throw fsError("EBUSY");
      if (k === call) {
        seen++;
        if (seen === nth) throw fsError(code);
      }
      return (nodeFs[k] as (...a: unknown[]) => unknown)(...args);
    }) as AtomicFs[K];
  return {
    openSync: wrap("openSync"),
    writeSync: wrap("writeSync"),
    fsyncSync: wrap("fsyncSync"),
    closeSync: wrap("closeSync"),
    renameSync: wrap("renameSync"),
    unlinkSync: wrap("unlinkSync"),
    readdirSync: wrap("readdirSync"),
  };
}

function temps(): string[] {
  return readdirSync(dir).filter((n) => isOurTempName(n, "pet.sav"));
}

describe("writeFileAtomic", () => {
  it("creates, then replaces, the target; no temporary file remains", () => {
    const target = join(dir, "pet.sav");
    expect(writeFileAtomic(target, OLD).status).toBe("ok");
    expect(new Uint8Array(readFileSync(target))).toEqual(OLD);
    const r = writeFileAtomic(target, NEW);
    expect(r.status).toBe("ok");
    expect(r.message).toContain(target);
    expect(new Uint8Array(readFileSync(target))).toEqual(NEW);
    expect(readdirSync(dir)).toEqual(["pet.sav"]);
  });

  // Each step, in order: open(temp), write, fsync(temp), close, rename, open(dir), fsync(dir).
  const steps: [Call, number, AtomicStep][] = [
    ["openSync", 1, "open-temp"],
    ["writeSync", 1, "write-temp"],
    ["fsyncSync", 1, "fsync-temp"],
    ["closeSync", 1, "close-temp"],
    ["renameSync", 1, "rename"],
    ["openSync", 2, "fsync-dir"],
    ["fsyncSync", 2, "fsync-dir"],
  ];
  for (const [call, nth, step] of steps) {
    for (const unlinkFails of [false, true]) {
      it("a failure at " + step + " (" + call + " #" + nth + ")" + (unlinkFails ? ", temp not removable" : "") + " keeps old or new", () => {
        const target = join(dir, "pet.sav");
        writeFileSync(target, OLD);
        const r = writeFileAtomic(target, NEW, failingFs(call, nth, "EIO", unlinkFails));
        expect(r.status).toBe("io-error");
        expect(r.step).toBe(step);
        expect(r.code).toBe("EIO");
        expect(r.message).toContain(target);
        expect(existsSync(target)).toBe(true);
        const now = new Uint8Array(readFileSync(target));
        // before the rename the old file stays; after it the new one is in place
        expect(now).toEqual(step === "fsync-dir" ? NEW : OLD);
        if (!unlinkFails) expect(temps()).toEqual([]);
        // the next successful save replaces the file and removes any temp of ours left behind
        const again = writeFileAtomic(target, NEW);
        expect(again.status).toBe("ok");
        expect(new Uint8Array(readFileSync(target))).toEqual(NEW);
        expect(temps()).toEqual([]);
        expect(readdirSync(dir)).toEqual(["pet.sav"]);
      });
    }
  }

  it("a disk that fills up part way through the write: disk-full, old file intact", () => {
    const target = join(dir, "pet.sav");
    writeFileSync(target, OLD);
    let first = true;
    const fs: AtomicFs = {
      ...nodeFs,
      writeSync: (fd, b, o, _l, p) => {
        if (first) {
          first = false;
          return nodeFs.writeSync(fd, b, o, 40, p); // a short write
        }
        throw fsError("ENOSPC");
      },
    };
    const r = writeFileAtomic(target, NEW, fs);
    expect(r.status).toBe("disk-full");
    expect(r.message).toMatch(/disk is full/);
    expect(new Uint8Array(readFileSync(target))).toEqual(OLD);
    expect(temps()).toEqual([]);
  });

  it("short writes are continued until every byte is written", () => {
    const target = join(dir, "pet.sav");
    const fs: AtomicFs = { ...nodeFs, writeSync: (fd, b, o, l, p) => nodeFs.writeSync(fd, b, o, Math.min(l, 10), p) };
    expect(writeFileAtomic(target, NEW, fs).status).toBe("ok");
    expect(new Uint8Array(readFileSync(target))).toEqual(NEW);
  });

  it("maps error codes to clear statuses", () => {
    const target = join(dir, "pet.sav");
    const cases: [string, string, RegExp][] = [
      ["ENOENT", "no-such-directory", /does not exist/],
      ["EACCES", "permission-denied", /no permission/],
      ["EPERM", "permission-denied", /no permission/],
      ["EROFS", "read-only", /read-only/],
      ["ENOSPC", "disk-full", /disk is full/],
    ];
    for (const [code, status, text] of cases) {
      const r = writeFileAtomic(target, NEW, failingFs("openSync", 1, code));
      expect(r.status).toBe(status);
      expect(r.message).toMatch(text);
      expect(r.message).toContain(dir);
    }
  });

  it("a directory that does not exist, for real", () => {
    const target = join(dir, "missing", "pet.sav");
    const r = writeFileAtomic(target, NEW);
    expect(r.status).toBe("no-such-directory");
    expect(r.message).toContain(join(dir, "missing"));
  });

  it("a target that is a directory, for real", () => {
    const target = join(dir, "pet.sav");
    mkdirSync(target);
    const r = writeFileAtomic(target, NEW);
    expect(["is-a-directory", "io-error"]).toContain(r.status);
    expect(existsSync(target)).toBe(true);
    expect(readdirSync(dir).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("stale temps of our own pattern are removed, other files are left alone", () => {
    const target = join(dir, "pet.sav");
    writeFileSync(join(dir, ".pet.sav.tmp-123-4"), OLD);
    writeFileSync(join(dir, ".pet.sav.tmp-999-1"), OLD);
    writeFileSync(join(dir, ".other.sav.tmp-1-1"), OLD);
    writeFileSync(join(dir, "pet.sav.bak"), OLD);
    writeFileSync(join(dir, ".pet.sav.tmp-notours"), OLD);
    const r = writeFileAtomic(target, NEW);
    expect(r.removedTemps).toBe(2);
    expect(readdirSync(dir).sort()).toEqual([".other.sav.tmp-1-1", ".pet.sav.tmp-notours", "pet.sav", "pet.sav.bak"]);
  });
});
