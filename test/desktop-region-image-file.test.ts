/**
 * The region image file: created erased, refused when it is not an image of this region, and kept
 * in step with the simulated flash so that `kill -9` at any moment leaves a file the next boot
 * restores the last completed save (or the one in flight) from.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { buildSync } from "esbuild";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openRegionImage } from "../src/host/node/regionImage";
import { createSlotLog } from "../src/storage/slotLog";
import { ESP32, SMALL, crcValid, makePayload, sameBytes } from "./storage-fixtures";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pet-region-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("region image file", () => {
  it("is created erased, follows every write, and reopens with the same save", () => {
    const path = join(dir, "pet.region");
    const a = openRegionImage({ path, ...ESP32, pageSize: ESP32.sectorSize });
    expect(a.status).toBe("created");
    expect(readFileSync(path).every((b) => b === 0xff)).toBe(true);
    const log = createSlotLog({ ...ESP32, flash: a.image!.flash, isValidPayload: crcValid }).log!;
    for (let i = 0; i < 100; i++) expect(log.save(makePayload(i)).status).toBe("ok");
    expect(sameBytes(new Uint8Array(readFileSync(path)), a.image!.sim.image())).toBe(true);
    a.image!.close();
    const b = openRegionImage({ path, ...ESP32, pageSize: ESP32.sectorSize });
    expect(b.status).toBe("ok");
    const boot = createSlotLog({ ...ESP32, flash: b.image!.flash, isValidPayload: crcValid }).log!.load();
    expect(sameBytes(boot.payload, makePayload(99))).toBe(true);
    b.image!.close();
    // a closed image reports statuses, not exceptions
    expect(b.image!.flash.read(4, ESP32.address).status).toBe("read-failed");
  });

  it("refuses a file of another size, and a missing file when asked not to create", () => {
    const path = join(dir, "other.bin");
    writeFileSync(path, new Uint8Array(1000));
    const r = openRegionImage({ path, ...ESP32, pageSize: 4096 });
    expect(r.status).toBe("wrong-size");
    expect(r.message).toMatch(/1000 bytes/);
    expect(readFileSync(path).length).toBe(1000);
    const m = openRegionImage({ path: join(dir, "none.bin"), ...ESP32, pageSize: 4096, create: false });
    expect(m.status).toBe("missing");
    const d = openRegionImage({ path: join(dir, "no", "such", "dir.bin"), ...ESP32, pageSize: 4096 });
    expect(d.status).toBe("cannot-open");
    expect(d.message).toMatch(/does not exist/);
  });

  it("kill -9 in the middle of saving leaves the last completed save or the one in flight", async () => {
    const path = join(dir, "pet.region");
    // The child compiled to one plain JavaScript file first: three starts through a TypeScript
    // loader cost more than the whole test.
    const child = join(dir, "child.mjs");
    buildSync({ entryPoints: [join(__dirname, "storage-region-image-child.ts")], bundle: true, platform: "node", format: "esm", outfile: child, logLevel: "silent" });
    let first = 1;
    for (const killAfter of [40, 173, 301]) {
      const last = await new Promise<number>((resolve, reject) => {
        const p = spawn(process.execPath, [child, path, String(SMALL.address), String(SMALL.size), String(SMALL.sectorSize), String(first)], {
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        let err = "";
        let killed = false;
        p.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (!killed && out.split("\n").length > killAfter) {
            killed = true;
            p.kill("SIGKILL");
          }
        });
        p.stderr.on("data", (d: Buffer) => (err += d.toString()));
        p.on("close", () => {
          if (!killed) return reject(new Error("child ended by itself: " + err));
          const ids = out.split("\n").filter((s) => s.length > 0).map(Number);
          resolve(ids[ids.length - 1] as number);
        });
      });
      const img = openRegionImage({ path, ...SMALL, pageSize: SMALL.sectorSize });
      const boot = createSlotLog({ ...SMALL, flash: img.image!.flash, isValidPayload: crcValid }).log!.load();
      img.image!.close();
      expect(boot.status).toBe("ok");
      const ok = sameBytes(boot.payload, makePayload(last)) || sameBytes(boot.payload, makePayload(last + 1));
      expect(ok).toBe(true);
      first = last + 10;
    }
  }, 30_000);
});
