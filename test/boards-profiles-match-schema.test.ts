/**
 * Every profile in boards/ validates against boards/schema.json (ajv, draft-07) and passes
 * checkBoardProfile; the schema and the TypeScript checker agree on the keys; the ESP32 numbers are
 * the ones from Espruino's partition table (docs/firmware.md).
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import { BOARD_PROFILE_KEYS, checkBoardProfile, type BoardProfile } from "../src/boards/boardProfile";
import { ESP32_REGION } from "./storage-fixtures";

const BOARDS = join(__dirname, "..", "boards");
const schema = JSON.parse(readFileSync(join(BOARDS, "schema.json"), "utf8")) as {
  properties: Record<string, unknown>;
  required: string[];
};
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
const profileFiles = readdirSync(BOARDS).filter((f) => f.endsWith(".json") && f !== "schema.json");

function load(file: string): BoardProfile {
  return JSON.parse(readFileSync(join(BOARDS, file), "utf8")) as BoardProfile;
}

describe("board profiles in boards/", () => {
  it("include the ESP32, Linux and desktop profiles", () => {
    expect(profileFiles.sort()).toEqual(expect.arrayContaining(["desktop.json", "esp32.json", "linux.json"]));
  });

  it.each(profileFiles)("%s matches the schema", (file) => {
    const ok = validate(load(file));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it.each(profileFiles)("%s passes checkBoardProfile", (file) => {
    expect(checkBoardProfile(load(file))).toEqual([]);
  });

  it("ESP32: region is the 'flash' partition 0x310000, 64 KiB of 4 KiB sectors, outside Storage 0x320000..0x3FFFFF", () => {
    const p = load("esp32.json");
    expect(p.petRegion).toEqual({ address: 0x310000, size: 0x10000, pageSize: 0x1000 });
    expect(ESP32_REGION).toEqual(p.petRegion); // the region shape every test shares (storage-fixtures.ts)
    expect(p.storageArea).toEqual({ address: 0x320000, size: 0x400000 - 0x320000 });
    expect(p.button).toEqual({ pin: "D0", activeLow: true });
    expect(p.led).toEqual({ pin: "D2" });
  });

  it("Linux: region is inside the 256 KiB flash file at 0x10000000 and aligned to its 1 KiB pages", () => {
    const p = load("linux.json");
    expect(p.petRegion.pageSize).toBe(1024);
    expect(p.petRegion.address).toBeGreaterThanOrEqual(0x10000000);
    expect(p.petRegion.address + p.petRegion.size).toBeLessThanOrEqual(0x10000000 + 256 * 1024);
  });

  it("desktop profile says it is for the desktop host", () => {
    expect(load("desktop.json").host).toBe("desktop");
  });
});

describe("schema and BoardProfile agree", () => {
  it("list the same top-level keys", () => {
    expect(Object.keys(schema.properties).sort()).toEqual([...BOARD_PROFILE_KEYS].sort());
  });

  it("require name and petRegion", () => {
    expect(schema.required.sort()).toEqual(["name", "petRegion"]);
    expect(validate({ name: "x" })).toBe(false);
    expect(validate({ petRegion: { address: 0, size: 8192, pageSize: 4096 } })).toBe(false);
    expect(checkBoardProfile({ name: "x" })).toContain("petRegion is required");
    expect(checkBoardProfile({ petRegion: { address: 0, size: 8192, pageSize: 4096 } })).toContain(
      "name must be a non-empty string",
    );
  });

  it("both reject an unknown key, a bad pin and a bad display address", () => {
    const base = load("esp32.json");
    const cases: unknown[] = [
      { ...base, colour: "red" },
      { ...base, button: { pin: "0D", activeLow: true } },
      { ...base, display: { ...base.display, address: 200 } },
    ];
    for (const bad of cases) {
      expect(validate(bad)).toBe(false);
      expect(checkBoardProfile(bad).length).toBeGreaterThan(0);
    }
  });
});
