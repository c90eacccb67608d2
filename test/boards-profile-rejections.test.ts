/**
 * checkBoardProfile refuses regions the save log cannot use safely, and the build refuses such a
 * profile with a message that names the problem.
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkBoardProfile, type BoardProfile } from "../src/boards/boardProfile";
import { buildFirmware } from "../scripts/lib/build.js";
import { BoardProfileError } from "../src/host/node/profileFile";

const STORAGE = { address: 0x320000, size: 0xe0000 };
const ESPRUINO = { board: "ESP32", minVersion: "2v26" };

function profile(region: { address: number; size: number; pageSize: number }): BoardProfile {
  return { name: "test board", petRegion: region, storageArea: STORAGE, espruino: ESPRUINO };
}

function problems(region: { address: number; size: number; pageSize: number }): string {
  return checkBoardProfile(profile(region)).join("\n");
}

describe("checkBoardProfile rejects unusable pet regions", () => {
  it("accepts a good region right below Storage (touching is not overlapping)", () => {
    expect(problems({ address: 0x310000, size: 0x10000, pageSize: 4096 })).toBe("");
  });

  it("accepts a region right after Storage", () => {
    expect(checkBoardProfile({ name: "b", petRegion: { address: 0x100000, size: 8192, pageSize: 4096 }, storageArea: { address: 0xf0000, size: 0x10000 }, espruino: ESPRUINO })).toEqual([]);
  });

  it("rejects an address that is not sector-aligned", () => {
    expect(problems({ address: 0x310800, size: 0x10000, pageSize: 4096 })).toMatch(/address 0x310800 is not aligned/);
  });

  it("rejects a size that is not a whole number of sectors", () => {
    expect(problems({ address: 0x310000, size: 0x10000 - 1024, pageSize: 4096 })).toMatch(/not a whole number of 4096-byte pages/);
  });

  it("rejects a region of one sector", () => {
    expect(problems({ address: 0x310000, size: 4096, pageSize: 4096 })).toMatch(/at least two pages/);
  });

  it("accepts exactly two sectors", () => {
    expect(problems({ address: 0x310000, size: 8192, pageSize: 4096 })).toBe("");
  });

  it.each([
    ["ends inside Storage", { address: 0x318000, size: 0x10000, pageSize: 4096 }],
    ["starts inside Storage", { address: 0x3f8000, size: 0x10000, pageSize: 4096 }],
    ["lies inside Storage", { address: 0x330000, size: 0x10000, pageSize: 4096 }],
    ["contains Storage", { address: 0x300000, size: 0x200000, pageSize: 4096 }],
  ])("rejects a region that %s", (_label, region) => {
    expect(problems(region)).toMatch(/overlaps the Storage area 0x320000\.\.0x3FFFFF/);
  });

  it("rejects a page size that is not a power of two", () => {
    expect(problems({ address: 0x300000, size: 0x6000, pageSize: 3072 })).toMatch(/power of two/);
  });

  it("rejects a region past the 32-bit address space", () => {
    expect(problems({ address: 0xfffff000, size: 0x2000, pageSize: 4096 })).toMatch(/32-bit address space/);
  });

  it("rejects something that is not an object", () => {
    expect(checkBoardProfile(null)).toEqual(["a board profile must be a JSON object"]);
    expect(checkBoardProfile([1])).toEqual(["a board profile must be a JSON object"]);
  });

  it("rejects a default pet name the save format cannot hold", () => {
    const p = { ...profile({ address: 0x310000, size: 0x10000, pageSize: 4096 }), defaultPetName: "x".repeat(32) };
    expect(checkBoardProfile(p).join("\n")).toMatch(/defaultPetName/);
  });
});

describe("the build refuses a bad profile", () => {
  it("names the file and every problem", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pet-board-"));
    try {
      const file = join(dir, "bad.json");
      writeFileSync(file, JSON.stringify(profile({ address: 0x310800, size: 4096, pageSize: 4096 })));
      const error = await buildFirmware({ board: file, outFile: null }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BoardProfileError);
      const message = (error as Error).message;
      expect(message).toContain(file);
      expect(message).toMatch(/not aligned/);
      expect(message).toMatch(/at least two pages/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says so when the file is not JSON", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pet-board-"));
    try {
      const file = join(dir, "broken.json");
      writeFileSync(file, "{ name: ");
      await expect(buildFirmware({ board: file, outFile: null })).rejects.toThrow(/cannot read it as JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
