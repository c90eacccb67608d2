/**
 * `npm start --image FILE` never formats a file that is not a pet region: an existing file with
 * foreign data (no pet log, not erased) or of the wrong size is refused with exit status 1 and a
 * message naming it, and is left byte for byte as it was; `--reset` erases it and hatches a new
 * pet; a missing file is still created erased; an erased file or one with a pet log is used.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { checkRegionImage } from "../src/host/node/sim/imageGuard";
import { buildDesktopBundle, ROOT, START, startDesktop } from "./desktop-process";
import { cleanImage, foreignImage, otherLayoutImage, tempDir, writeImage } from "./region-tools-fixtures";
import { ESP32_REGION } from "./storage-fixtures";

const REGION = ESP32_REGION;
let dir = "";
let bundle = "";

beforeAll(async () => {
  dir = tempDir("pet-desktop-guard-");
  bundle = await buildDesktopBundle(join(dir, "firmware.js"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startAndWait(image: string, extra: string[] = []): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [START, "--bundle", bundle, "--image", image, ...extra], {
    cwd: ROOT,
    input: "",
    encoding: "utf8",
    timeout: 30000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("checkRegionImage", () => {
  it("tells a pet region from anything else", () => {
    expect(checkRegionImage(join(dir, "nope.bin"), REGION).verdict).toBe("absent");
    const erased = join(dir, "erased.bin");
    writeFileSync(erased, Buffer.alloc(65536, 0xff));
    expect(checkRegionImage(erased, REGION).verdict).toBe("pet-region");
    expect(checkRegionImage(writeImage(dir, "clean.bin", cleanImage().sim), REGION).verdict).toBe("pet-region");
    expect(checkRegionImage(writeImage(dir, "random.bin", foreignImage()), REGION).verdict).toBe("foreign");
    expect(checkRegionImage(writeImage(dir, "other-layout.bin", otherLayoutImage()), REGION).verdict).toBe("foreign");
    const zeros = join(dir, "zeros.bin");
    writeFileSync(zeros, Buffer.alloc(65536, 0));
    expect(checkRegionImage(zeros, REGION).verdict).toBe("foreign");
    const short = join(dir, "short.bin");
    writeFileSync(short, Buffer.alloc(1000, 0xff));
    expect(checkRegionImage(short, REGION)).toEqual({
      verdict: "wrong-size",
      reason: "it is 1000 bytes, but a region image of this board is 65536 bytes",
    });
  });
});

describe("npm start on a file that is not a pet region", () => {
  it("refuses a 64 KiB random file with status 1 and leaves it untouched", () => {
    const path = writeImage(dir, "user-data.bin", foreignImage());
    const before = readFileSync(path);
    const r = startAndWait(path);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("refusing to use " + path + " as the pet region: it holds data but no pet save log (16 of 16 sectors");
    expect(r.stderr).toContain("start with --reset to erase it");
    expect(r.stdout).not.toMatch(/hatched/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("refuses a file of the wrong size the same way", () => {
    const path = join(dir, "notes.txt");
    writeFileSync(path, "my notes\n");
    const r = startAndWait(path);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("refusing to use " + path + " as the pet region: it is 9 bytes, but a region image of this board is 65536 bytes");
    expect(readFileSync(path, "utf8")).toBe("my notes\n");
  });

  it("--reset erases it and hatches a new pet", async () => {
    const path = writeImage(dir, "reset-me.bin", foreignImage());
    const d = startDesktop(bundle, path, ["--reset"]);
    await d.waitFor(/^desktop: region image .* \(reset: erased, the foreign data it held discarded\)/);
    await d.waitFor(/^no save found: region empty, hatched Pip$/);
    await d.waitFor(/^saved: updates 0 \(Pip/);
    d.send("q");
    expect((await d.exited).code).toBe(0);
    expect(checkRegionImage(path, REGION).verdict).toBe("pet-region");
    expect(readFileSync(path).length).toBe(65536);
  });

  it("a missing file is still created erased, and an existing pet is restored", async () => {
    const path = join(dir, "new.bin");
    const d = startDesktop(bundle, path);
    await d.waitFor(/^desktop: region image .* \(new, erased\)/);
    await d.waitFor(/^saved: updates 0 \(Pip/);
    d.send("q");
    expect((await d.exited).code).toBe(0);
    const again = startDesktop(bundle, path);
    await again.waitFor(/^restored Pip/);
    again.send("q");
    expect((await again.exited).code).toBe(0);
  });
});
