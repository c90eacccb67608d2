/**
 * Every profile in boards/ validates against boards/schema.json (ajv, draft-07) and passes
 * checkBoardProfile; the ESP32 numbers are the ones from Espruino's partition table
 * (docs/firmware.md). The board's shape is declared once as a type (BoardProfile in
 * src/boards/boardProfile.ts; the firmware's, the hosts' and the tools' shapes are picked from it)
 * and once as the schema the files point at: they are held together here, key by key at every level,
 * optional and required alike, through objects TypeScript checks against the type.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import { BOARD_PROFILE_KEYS, checkBoardProfile, type BoardProfile, type DesktopBoardProfile, type DeviceBoardProfile } from "../src/boards/boardProfile";
import { ESP32_REGION } from "./storage-fixtures";

const BOARDS = join(__dirname, "..", "boards");
interface SchemaNode {
  $ref?: string;
  type?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  else?: SchemaNode;
  definitions?: Record<string, SchemaNode>;
}
const schema = JSON.parse(readFileSync(join(BOARDS, "schema.json"), "utf8")) as SchemaNode & { properties: Record<string, SchemaNode>; required: string[] };
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

/** Every key of T at every level made required: an object of this type names every key the type has. */
type Complete<T> = T extends object ? { [K in keyof T]-?: Complete<NonNullable<T[K]>> } : T;

/** A device profile with every key the type allows (TypeScript refuses a missing or an extra one). */
const EVERY_KEY: Complete<DeviceBoardProfile> = {
  $schema: "./schema.json",
  name: "every key",
  host: "espruino",
  petRegion: { address: 0x310000, size: 0x10000, pageSize: 0x1000 },
  storageArea: { address: 0x320000, size: 0xe0000 },
  espruino: { board: "ESP32", minVersion: "2v06", storageSizes: [0x40000, 0xe0000] },
  button: { pin: "D0", activeLow: true },
  led: { pin: "D2" },
  display: { driver: "ssd1306-i2c", width: 128, height: 64, address: 0x3c, i2c: { scl: "D22", sda: "D21", bitrate: 400000 } },
  defaultPetName: "Pip",
  notes: "every key the type has",
};
/** A device profile with only the keys the type requires, at every level. */
const REQUIRED_DEVICE: DeviceBoardProfile = {
  name: "required keys",
  petRegion: { address: 0x310000, size: 0x10000, pageSize: 0x1000 },
  storageArea: { address: 0x320000, size: 0xe0000 },
  espruino: { board: "ESP32", minVersion: "2v26" },
};
/** The same for the objects inside a profile that have optional keys of their own. */
const REQUIRED_INSIDE: Pick<Required<DeviceBoardProfile>, "button" | "led" | "display"> = {
  button: { pin: "D0", activeLow: true },
  led: { pin: "D2" },
  display: { driver: "ssd1306-i2c", width: 128, height: 64, address: 0x3c, i2c: { scl: "D22", sda: "D21", bitrate: 400000 } },
};
/** A desktop profile with only the keys the type requires. */
const REQUIRED_DESKTOP: DesktopBoardProfile = { name: "required keys", host: "desktop", petRegion: { address: 0, size: 0x2000, pageSize: 0x1000 } };

/** The schema node at `path` (object keys from the top), $refs followed. */
function node(path: string[]): SchemaNode {
  let n: SchemaNode = schema;
  for (const key of path) {
    n = n.properties?.[key] as SchemaNode;
    if (n.$ref !== undefined) n = schema.definitions![n.$ref.replace("#/definitions/", "")] as SchemaNode;
  }
  return n;
}

/** Every object path in `value` and its keys: [["petRegion"], ["address", "size", "pageSize"]], ... */
function objectKeys(value: unknown, path: string[] = []): [string[], string[]][] {
  // A list of numbers (espruino.storageSizes) is a value, not an object with keys.
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const out: [string[], string[]][] = [[path, Object.keys(value).sort()]];
  for (const [k, v] of Object.entries(value)) out.push(...objectKeys(v, [...path, k]));
  return out;
}

describe("one declaration of the board's shape: the type, and the schema held to it", () => {
  it("the schema names every key the type allows, and no other, at every level", () => {
    const paths = objectKeys(EVERY_KEY);
    expect(paths.length).toBeGreaterThan(6);
    for (const [path, keys] of paths) expect([path, Object.keys(node(path).properties ?? {}).sort()]).toEqual([path, keys]);
  });

  it("the schema requires exactly what the type requires, at every level", () => {
    // The top level: the schema's own required keys, plus those its else-branch (not host desktop) adds.
    expect([...schema.required, ...(schema.else?.required ?? [])].sort()).toEqual(Object.keys(REQUIRED_DEVICE).sort());
    expect([...schema.required, "host"].sort()).toEqual(Object.keys(REQUIRED_DESKTOP).sort());
    for (const [path, keys] of [...objectKeys(REQUIRED_DEVICE), ...objectKeys(REQUIRED_INSIDE)]) {
      if (path.length === 0) continue;
      expect([path, [...(node(path).required ?? [])].sort()]).toEqual([path, keys]);
    }
    for (const p of [REQUIRED_DEVICE, REQUIRED_DESKTOP, { ...REQUIRED_DEVICE, ...REQUIRED_INSIDE }, EVERY_KEY]) {
      expect(validate(p), JSON.stringify(validate.errors)).toBe(true);
      expect(checkBoardProfile(p)).toEqual([]);
    }
  });
});
