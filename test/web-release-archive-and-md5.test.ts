/**
 * The page's own small readers for installing Espruino, held to the outside tools: the release
 * archive reader (src/web/device/releaseArchive.ts: gzip through DecompressionStream, tar read by
 * hand) against archives made by GNU tar in its three formats (GNU long names, pax path records,
 * ustar prefixes), and the MD5 that esptool-js checks written images with (src/web/device/md5.ts)
 * against node:crypto.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { md5Hex } from "../src/web/device/md5";
import { RELEASE_FILES, releaseFiles, untar } from "../src/web/device/releaseArchive";
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
      const ours = untar(new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer())).map((f) => f.name);
      expect(ours.sort()).toEqual(listed.sort());
    });
  }

  it("refuses what is not a gzipped tar with a sentence, and takes every .bin of a release that names its files otherwise", async () => {
    await expect(releaseFiles({ name: "x.tgz", bytes: new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]) })).rejects.toThrow("x.tgz could not be unpacked");
    await expect(releaseFiles({ name: "y.tgz", bytes: gzipSync(Buffer.alloc(1024, 0x41)) })).rejects.toThrow("not a tar archive");
    const other = tempDir("pet-tar2-");
    mkdirSync(join(other, "rel"));
    writeFileSync(join(other, "rel", "boot.bin"), "b");
    writeFileSync(join(other, "rel", "app.bin"), "a");
    writeFileSync(join(other, "rel", "notes.txt"), "n");
    execFileSync("tar", ["-czf", join(other, "r.tgz"), "-C", other, "rel"]);
    const r = await releaseFiles({ name: "r.tgz", bytes: new Uint8Array(readFileSync(join(other, "r.tgz"))) });
    expect(r.files.map((f) => f.name).sort()).toEqual(["app.bin", "boot.bin"]);
  });
});
