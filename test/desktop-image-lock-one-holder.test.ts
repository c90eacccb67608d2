/**
 * The image lock (src/host/node/imageLock.ts, docs/adr/0008-one-writer-per-image.md), in both of the
 * forms this machine can run: the abstract-namespace socket Linux uses, and the socket file macOS
 * and the BSDs use. One holder at a time, across processes; the refusal names the holder; a holder
 * killed with SIGKILL never blocks the next taker; readers are waited for, writers are not; a reader
 * gets the writer's copy of the image rather than the file.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSync } from "esbuild";
import { acquireImageLock, describeThisProcess, lockAddress, lockKey, readImageConsistent, type LockKind } from "../src/host/node/imageLock";

const dir = mkdtempSync(join(tmpdir(), "pet-image-lock-"));
const lockDir = join(dir, "locks");
/** The child, bundled to plain JavaScript once: a holder starts in tens of milliseconds, not seconds. */
const child = join(dir, "lock-child.mjs");
beforeAll(() => {
  buildSync({ entryPoints: [join(__dirname, "desktop-image-lock-child.ts")], bundle: true, platform: "node", format: "esm", outfile: child, logLevel: "error" });
});
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface ChildAnswer {
  status: string;
  holder?: { pid: number; command: string; role: string };
  message?: string;
}

/** A holder in another process; resolves once it has said whether it got the lock. */
async function holder(path: string, kind: LockKind, role: string, snapshot?: string): Promise<{ child: ChildProcessWithoutNullStreams; answer: ChildAnswer }> {
  const args = [child, path, kind, lockDir, role];
  if (snapshot !== undefined) args.push(snapshot);
  const proc = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
  children.push(proc);
  let out = "";
  const answer = await new Promise<ChildAnswer>((done, fail) => {
    proc.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) done(JSON.parse(out.slice(0, nl)) as ChildAnswer);
    });
    proc.on("exit", () => fail(new Error("lock child exited without an answer: " + out)));
  });
  return { child: proc, answer };
}

function killed(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGKILL");
  });
}

for (const kind of ["abstract", "file"] as LockKind[]) {
  describe("image lock (" + kind + ")", () => {
    it("one holder: another process is refused with the holder's pid and command; a nested take in the holder works", async () => {
      const image = join(dir, kind + "-one.bin");
      const first = await acquireImageLock(image, { role: "write", kind, lockDir, command: "npm start -- --image one.bin" });
      expect(first.status).toBe("ok");
      const other = await holder(image, kind, "write");
      expect(other.answer.status).toBe("held");
      expect(other.answer.message).toContain("in use by process " + process.pid + " (npm start -- --image one.bin), which is writing it");
      // The same process may take it again (pull holds it and its atomic write takes it once more).
      const nested = await acquireImageLock(image, { role: "write", kind, lockDir });
      expect(nested.status).toBe("ok");
      if (nested.status === "ok") nested.lock.release();
      // Still held after the nested release: the outer hold counts.
      expect((await holder(image, kind, "write")).answer.status).toBe("held");
      if (first.status === "ok") first.lock.release();
      const after = await holder(image, kind, "write");
      expect(after.answer.status).toBe("ok");
      after.child.stdin.end();
    });

    it("a holder killed with SIGKILL never blocks the next one", async () => {
      const image = join(dir, kind + "-killed.bin");
      for (let i = 0; i < 2; i++) {
        const h = await holder(image, kind, "write");
        expect(h.answer.status).toBe("ok");
        expect((await acquireImageLock(image, { role: "write", kind, lockDir })).status).toBe("held");
        await killed(h.child);
        const next = await acquireImageLock(image, { role: "write", kind, lockDir });
        expect(next.status).toBe("ok");
        if (next.status === "ok") next.lock.release();
      }
      // A socket file left by the killed holder was taken over and removed at the release.
      if (kind === "file") expect(existsSync(lockAddress(lockKey(image), "file", lockDir))).toBe(false);
    });

    it("a writer waits for a reader's hold, but never for a writer's", async () => {
      const image = join(dir, kind + "-reader.bin");
      const reader = await holder(image, kind, "read");
      expect(reader.answer.status).toBe("ok");
      // A reader holding the lock makes a writer wait; once it leaves, the writer gets the lock.
      const waiting = acquireImageLock(image, { role: "write", kind, lockDir, waitForReadersMs: 30_000 });
      setTimeout(() => reader.child.stdin.end(), 300);
      const got = await waiting;
      expect(got.status).toBe("ok");
      // Now a writer holds it: a writer in another process is refused (it waits only for readers).
      const refused = await holder(image, kind, "write");
      expect(refused.answer.status).toBe("held");
      expect(refused.answer.message).toContain("in use by process " + process.pid);
      if (got.status === "ok") got.lock.release();
    });

    it("a reader gets the writer's copy of the image, not the file; without a writer, the file", async () => {
      const image = join(dir, kind + "-copy.bin");
      writeFileSync(image, "the file on disk");
      const readFile = async (): Promise<Uint8Array> => new TextEncoder().encode("the file on disk");
      const alone = await readImageConsistent(image, readFile, { maxBytes: 1000, kind, lockDir });
      expect(new TextDecoder().decode(alone.bytes)).toBe("the file on disk");
      expect(alone.note).toBeNull();
      const writer = await holder(image, kind, "write", "the writer's flash");
      expect(writer.answer.status).toBe("ok");
      const copy = await readImageConsistent(image, readFile, { maxBytes: 1000, kind, lockDir });
      expect(new TextDecoder().decode(copy.bytes)).toBe("the writer's flash");
      expect(copy.note).toContain("from process " + writer.child.pid);
      // A copy larger than the reader's limit is not taken: the file is read instead.
      const small = await readImageConsistent(image, readFile, { maxBytes: 5, kind, lockDir });
      expect(new TextDecoder().decode(small.bytes)).toBe("the file on disk");
      writer.child.stdin.end();
    });
  });
}

describe("image lock keys and names", () => {
  it("is keyed on the real path: a symbolic link and a relative path name the same lock", async () => {
    const image = join(dir, "real.bin");
    writeFileSync(image, "x");
    const link = join(dir, "link.bin");
    symlinkSync(image, link);
    expect(lockKey(link)).toBe(lockKey(image));
    expect(lockKey(join(dir, "sub", "..", "real.bin"))).toBe(lockKey(image));
    expect(lockKey(join(dir, "not-yet.bin"))).toBe(join(lockKey(dir), "not-yet.bin"));
    expect(existsSync(join(dir, "not-yet.bin"))).toBe(false);
  });

  it("names the command as a person typed it", () => {
    expect(describeThisProcess(["/usr/bin/node", "/home/u/pet/scripts/start.js", "--image", "my pet.bin"])).toBe("npm start -- --image 'my pet.bin'");
    expect(describeThisProcess(["/usr/bin/node", "/home/u/pet/bin/pet-save.js", "pull", "-o", "b.bin"])).toBe("pet-save pull -o b.bin");
  });
});
