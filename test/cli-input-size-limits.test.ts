/**
 * `pet-save` never reads more than it could use: a regular file larger than the biggest input a
 * command accepts is refused by its size before it is read, and a device or a stream (stdin) that
 * never ends is read only until it passes the limit. Either way: exit 1, a message naming the
 * input and the limit, and the command ends.
 */
import { closeSync, openSync, ftruncateSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { main, nodeIo, type CliIo } from "../src/host/node/cli";
import { INPUT_LIMITS } from "../src/host/node/cli/io";
import { memoryIo, tempDir } from "./region-tools-fixtures";

const dir = tempDir("pet-save-limits-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stdin that yields 64 KiB chunks of zeros forever, counting how many were pulled. */
function endlessStdin(): { io: CliIo & { err: string; out: string }; pulled: () => number } {
  let pulled = 0;
  function* zeros(): Generator<Uint8Array> {
    for (;;) {
      pulled++;
      yield new Uint8Array(64 * 1024);
    }
  }
  const base = nodeIo(Readable.from(zeros()));
  const io = memoryIo();
  io.readStdin = base.readStdin;
  return { io, pulled: () => pulled };
}

/** A sparse file of `size` bytes (no disk space used). */
function sparseFile(name: string, size: number): string {
  const path = join(dir, name);
  const fd = openSync(path, "w");
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}

describe("pet-save input limits", () => {
  it("decode - on a stdin that never ends stops past the payload limit", async () => {
    const { io, pulled } = endlessStdin();
    expect(await main(["decode", "-"], io)).toBe(1);
    expect(io.err).toBe(
      "cannot read standard input: more than " + INPUT_LIMITS.payload.maxBytes + " bytes, larger than " + INPUT_LIMITS.payload.what + "; nothing read\n",
    );
    expect(pulled()).toBeLessThanOrEqual(2);
  });

  it("inspect - on a stdin that never ends stops just past 16 MiB", async () => {
    const { io, pulled } = endlessStdin();
    expect(await main(["inspect", "-"], io)).toBe(1);
    expect(io.err).toMatch(/^cannot read standard input: more than 16777216 bytes, larger than any pet region image/);
    expect(pulled()).toBeLessThanOrEqual(16 * 16 + 2);
  });

  it("decode /dev/zero (a device without an end) stops past the payload limit", async () => {
    const io = memoryIo();
    expect(await main(["decode", "/dev/zero"], io)).toBe(1);
    expect(io.err).toMatch(/^cannot read \/dev\/zero: more than 4096 bytes, larger than a save payload/);
  });

  it("a 300 MB file is refused by its size, without being read", async () => {
    const big = sparseFile("big.bin", 300 * 1024 * 1024);
    for (const command of ["inspect", "extract", "decode", "verify"]) {
      const io = memoryIo();
      const argv = command === "extract" ? [command, big, "-o", join(dir, "out.pay")] : [command, big];
      const heapBefore = process.memoryUsage().arrayBuffers;
      expect(await main(argv, io)).toBe(1);
      expect(io.err).toMatch(new RegExp("^cannot read " + big.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + ": 314572800 bytes, larger than "));
      // Nothing close to the file's size was allocated.
      expect(process.memoryUsage().arrayBuffers - heapBefore).toBeLessThan(32 * 1024 * 1024);
    }
  });

  it("encode refuses a JSON file beyond its limit", async () => {
    const io = memoryIo();
    expect(await main(["encode", sparseFile("big.json", 1024 * 1024), "-o", "-"], io)).toBe(1);
    expect(io.err).toMatch(/1048576 bytes, larger than a payload's JSON form/);
  });
});
