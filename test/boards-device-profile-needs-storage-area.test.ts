/**
 * A profile that runs on Espruino (host "espruino" or no host) must say where Storage is, or the
 * overlap check has nothing to compare with: both checkBoardProfile and boards/schema.json refuse it.
 * The desktop profile has no Storage and stays fine without one.
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv from "ajv";
import { checkBoardProfile } from "../src/boards/boardProfile";
import { buildFirmware } from "../scripts/lib/build.js";
import { BoardProfileError } from "../src/host/node/profileFile";

const BOARDS = join(__dirname, "..", "boards");
const validate = new Ajv({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(BOARDS, "schema.json"), "utf8")) as object,
);

function load(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(BOARDS, file), "utf8")) as Record<string, unknown>;
}

function without(p: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(p)) if (k !== key) copy[k] = p[k];
  return copy;
}

/** The ESP32 profile with its region moved inside Storage (0x320000..0x3FFFFF) and storageArea dropped. */
function esp32InsideStorageWithoutStorageArea(host: string | undefined): Record<string, unknown> {
  const p = without(load("esp32.json"), "storageArea");
  p["petRegion"] = { address: 0x330000, size: 0x10000, pageSize: 4096 };
  if (host === undefined) delete p["host"];
  else p["host"] = host;
  return p;
}

describe("a device profile without storageArea is refused", () => {
  it.each([
    ["host espruino", "espruino"],
    ["no host (espruino by default)", undefined],
  ])("checkBoardProfile names the missing storageArea (%s)", (_label, host) => {
    const problems = checkBoardProfile(esp32InsideStorageWithoutStorageArea(host));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^storageArea is required for a profile that runs on Espruino/);
  });

  it.each(["esp32.json", "linux.json"])("%s without storageArea fails the schema and the checker", (file) => {
    const p = without(load(file), "storageArea");
    expect(validate(p)).toBe(false);
    expect(JSON.stringify(validate.errors)).toContain("storageArea");
    expect(checkBoardProfile(p).join("\n")).toMatch(/storageArea is required/);
  });

  it("the build refuses it with the file name and the reason", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pet-board-"));
    try {
      const file = join(dir, "no-storage.json");
      writeFileSync(file, JSON.stringify(esp32InsideStorageWithoutStorageArea("espruino")));
      const error = await buildFirmware({ board: file, outFile: null }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BoardProfileError);
      expect((error as Error).message).toContain(file);
      expect((error as Error).message).toMatch(/storageArea is required/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("with storageArea back, the same region inside Storage is an overlap", () => {
    const p = esp32InsideStorageWithoutStorageArea("espruino");
    p["storageArea"] = load("esp32.json")["storageArea"];
    expect(checkBoardProfile(p).join("\n")).toMatch(/overlaps the Storage area 0x320000\.\.0x3FFFFF/);
  });
});

describe("the desktop profile needs no storageArea", () => {
  it("boards/desktop.json has none and passes the schema and the checker", () => {
    const p = load("desktop.json");
    expect(p["storageArea"]).toBeUndefined();
    expect(validate(p)).toBe(true);
    expect(checkBoardProfile(p)).toEqual([]);
  });

  it("a desktop profile that does give one is still checked for overlap", () => {
    const p = load("desktop.json");
    p["storageArea"] = { address: 0x8000, size: 0x10000 };
    expect(validate(p)).toBe(true);
    expect(checkBoardProfile(p).join("\n")).toMatch(/overlaps the Storage area/);
  });
});
