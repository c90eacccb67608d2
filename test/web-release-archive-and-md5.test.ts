/**
 * The page's own small readers for installing Espruino, held to the outside tools: the release
 * archive reader (src/web/device/releaseArchive.ts: gzip through DecompressionStream, tar read by
 * hand) against archives made by GNU tar in its three formats (GNU long names, pax path records,
 * ustar prefixes), with what it says of a file that is not a usable release (not gzip, cut short,
 * damaged, no tar inside, not an ESP32 release, files missing), and the MD5 that esptool-js checks
 * written images with (src/web/device/md5.ts) against node:crypto.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { md5Hex } from "../src/web/device/md5";
import { RELEASE_FILES, ReleaseProblem, releaseFiles, untar } from "../src/web/device/releaseArchive";
import { tempDir } from "./region-tools-fixtures";

describe("md5Hex", () => {
  it("agrees with node:crypto on every length around the block edges and on a large random input", () => {
    for (let n = 0; n <= 200; n++) {
      const b = randomBytes(n);
      expect(md5Hex(b)).toBe(createHash("md5").update(b).digest("hex"));
    }
    const big = randomBytes(1 << 20);
    expect(md5Hex(big)).toBe(createHash("md5").update(big).digest("hex"));
    expect(md5Hex(new TextEncoder().encode("abc"))).toBe("900150983cd24fb0d6963f7d28e17f72"); // RFC 1321's test suite
  });
});

describe("the Espruino release archive", () => {
  const dir = tempDir("pet-tar-");
  const deep = "espruino_2v29_esp32/" + "a-folder-name-long-enough-to-need-more-than-a-hundred-bytes-of-path-in-the-tar-header/";
  mkdirSync(join(dir, deep), { recursive: true });
  const contents = RELEASE_FILES.map((name, k) => ({ name, bytes: randomBytes(1000 + k * 777) }));
  for (const f of contents) writeFileSync(join(dir, deep, f.name), f.bytes);
  writeFileSync(join(dir, deep, "README_flash.txt"), "notes\n");

  for (const format of ["gnu", "pax", "ustar"]) {
    it("reads what GNU tar writes in " + format + " format, long paths included, and takes the three files", async () => {
      const tgz = join(dir, format + ".tgz");
      execFileSync("tar", ["--format=" + format, "-czf", tgz, "-C", dir, "espruino_2v29_esp32"]);
      const bytes = new Uint8Array(readFileSync(tgz));
      const r = await releaseFiles({ name: "espruino_2v29_esp32.tgz", bytes });
      expect(r.files.map((f) => f.name)).toEqual(RELEASE_FILES);
      r.files.forEach((f, k) => expect(Buffer.from(f.bytes).equals(contents[k]!.bytes)).toBe(true));
      expect(r.note).toContain("from espruino_2v29_esp32.tgz");
      const listed = execFileSync("tar", ["-tzf", tgz], { encoding: "utf8" }).split("\n").filter((l) => l !== "" && !l.endsWith("/"));
      const ours = untar(new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer())).files.map((f) => f.name);
      expect(ours.sort()).toEqual(listed.sort());
    });
  }

  it("takes every .bin of a release that names its three files otherwise, and a release as a plain .tar", async () => {
    const other = tempDir("pet-tar2-");
    mkdirSync(join(other, "rel"));
    writeFileSync(join(other, "rel", "boot.bin"), "b");
    writeFileSync(join(other, "rel", "table.bin"), "t");
    writeFileSync(join(other, "rel", "app.bin"), "a");
    writeFileSync(join(other, "rel", "notes.txt"), "n");
    execFileSync("tar", ["-czf", join(other, "r.tgz"), "-C", other, "rel"]);
    const r = await releaseFiles({ name: "r.tgz", bytes: new Uint8Array(readFileSync(join(other, "r.tgz"))) });
    expect(r.files.map((f) => f.name).sort()).toEqual(["app.bin", "boot.bin", "table.bin"]);
    execFileSync("tar", ["-cf", join(dir, "plain.tar"), "-C", dir, "espruino_2v29_esp32"]);
    const plain = await releaseFiles({ name: "plain.tar", bytes: new Uint8Array(readFileSync(join(dir, "plain.tar"))) });
    expect(plain.files.map((f) => f.name)).toEqual(RELEASE_FILES);
  });
});

describe("a file that is not a usable release says what is wrong with it, and what to do", () => {
  const dir = tempDir("pet-tar3-");
  const release = join(dir, "espruino_2v29_esp32");
  mkdirSync(release);
  RELEASE_FILES.forEach((name, k) => writeFileSync(join(release, name), randomBytes(20_000 + k * 7777)));
  execFileSync("tar", ["-czf", join(dir, "whole.tgz"), "-C", dir, "espruino_2v29_esp32"]);
  const whole = new Uint8Array(readFileSync(join(dir, "whole.tgz")));
  /** A tgz of the named files (random content), made by GNU tar. */
  const tgzOf = (names: string[]): Uint8Array => {
    const d = tempDir("pet-tar4-");
    mkdirSync(join(d, "rel"));
    for (const n of names) writeFileSync(join(d, "rel", n), randomBytes(3000));
    execFileSync("tar", ["-czf", join(d, "r.tgz"), "-C", d, "rel"]);
    return new Uint8Array(readFileSync(join(d, "r.tgz")));
  };
  const problem = async (bytes: Uint8Array): Promise<ReleaseProblem> => {
    const e = await releaseFiles({ name: "espruino_2v29_esp32.tgz", bytes }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ReleaseProblem);
    expect((e as ReleaseProblem).message).toContain("Download the ESP32 release again from espruino.com");
    return e as ReleaseProblem;
  };
  const damaged = whole.slice();
  for (let i = 2000; i < 2100; i++) damaged[i] = (damaged[i] as number) ^ 0x5a;

  it.each([
    ["an empty file", new Uint8Array(0), "empty", "is empty (0 bytes)"],
    ["a web page saved by a failed download", new TextEncoder().encode("\n<!DOCTYPE html><title>404</title>"), "not-gzip", "is a web page (HTML), not the release"],
    ["a zip archive", new Uint8Array([0x50, 0x4b, 3, 4, 20, 0, 0, 0]), "not-gzip", "is a zip archive"],
    ["other bytes", new Uint8Array([1, 2, 3, 4, 5]), "not-gzip", "is not a gzip file (it starts with the bytes 01 02 03 04)"],
    ["a download cut short, half-way", whole.subarray(0, whole.length >> 1), "cut-short", "is cut short"],
    ["a download cut short by its last 4 bytes", whole.subarray(0, whole.length - 4), "cut-short", "is cut short"],
    ["a gzip stream with bytes changed", damaged, "damaged", "is damaged"],
    ["a gzip file of something else than a tar", new Uint8Array(gzipSync(Buffer.alloc(1024, 0x41))), "not-tar", "is not a tar archive"],
    ["an archive of something else", tgzOf(["notes.txt", "a.bin"]), "not-esp32-release", "is not an Espruino release for the ESP32: it holds "],
    ["a release with files missing", tgzOf(["espruino_esp32.bin"]), "files-missing", "bootloader.bin and partitions_espruino.bin are not in it"],
  ] as const)("%s", async (_what, bytes, kind, words) => {
    const e = await problem(bytes);
    expect(e.kind).toBe(kind);
    expect(e.message.startsWith("espruino_2v29_esp32.tgz ")).toBe(true);
    expect(e.message).toContain(words);
  });

  it("the whole archive it was cut from is taken", async () => {
    expect((await releaseFiles({ name: "whole.tgz", bytes: whole })).files.map((f) => f.name)).toEqual(RELEASE_FILES);
  });
});
