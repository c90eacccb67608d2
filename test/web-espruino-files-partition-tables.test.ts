/**
 * Which partition tables the page's installer writes (src/web/device/espruinoImages.ts): those of
 * Espruino's ESP32 releases, 2v06 to 2v25 and 2v26 on, both of which keep the pet's region
 * (boards/esp32.json, 0x310000, 64 KiB) as the free `flash` partition; and which it refuses, saying
 * why: a table with no partition there, one that puts another partition over it (Arduino's default
 * SPIFFS, a Storage grown down over it), and one that makes it an app partition. Nothing is offered
 * for writing when any check fails.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkEspruinoFiles, parsePartitionTable } from "../src/web/device/espruinoImages";
import { ARDUINO_DEFAULT_ROWS, ESPRUINO_2V06_ROWS, ESPRUINO_2V26_ROWS, partitionTable, type PartitionRow } from "./partition-tables";

const REGION = (JSON.parse(readFileSync(join(__dirname, "..", "boards", "esp32.json"), "utf8")) as { petRegion: { address: number; size: number } }).petRegion;
const espImage = (size: number): Uint8Array => {
  const b = new Uint8Array(size).fill(0x5a);
  b[0] = 0xe9;
  return b;
};
const files = (rows: PartitionRow[], firmwareBytes = 1_395_040) => [
  { name: "bootloader.bin", bytes: espImage(15_392) },
  { name: "partitions_espruino.bin", bytes: partitionTable(rows) },
  { name: "espruino_esp32.bin", bytes: espImage(firmwareBytes) },
];

describe("the partition tables the installer writes", () => {
  it("reads a table as ESP-IDF writes it, up to its MD5 row", () => {
    const parts = parsePartitionTable(partitionTable(ESPRUINO_2V06_ROWS));
    expect(parts?.map((p) => [p.label, p.type, p.subtype, p.offset, p.size])).toEqual(ESPRUINO_2V06_ROWS);
  });

  for (const [release, rows] of [
    ["2v06 to 2v25", ESPRUINO_2V06_ROWS],
    ["2v26 on", ESPRUINO_2V26_ROWS],
  ] as const) {
    it("takes Espruino's table of " + release + ": the pet's region is its own free `flash` partition", () => {
      const r = checkEspruinoFiles(files(rows), REGION);
      expect(r.problems).toEqual([]);
      expect(r.images.map((i) => [i.role, i.address])).toEqual([
        ["bootloader", 0x1000],
        ["partition table", 0x8000],
        ["Espruino firmware", 0x10000],
      ]);
    });
  }

  it("refuses a table that puts another partition over the pet's region, naming it", () => {
    const r = checkEspruinoFiles(files(ARDUINO_DEFAULT_ROWS, 900_000), REGION);
    expect(r.images).toEqual([]);
    expect(r.problems).toEqual([
      'partitions_espruino.bin puts its partition "spiffs" (0x290000 to 0x400000) over the pet\'s region at 0x310000 (boards/esp32.json), where the pet keeps its save: it is not Espruino\'s table; use the three files of one Espruino ESP32 release',
    ]);
    // Espruino's own partition kept, but Storage grown down over it: still refused.
    const grown = ESPRUINO_2V26_ROWS.filter((p) => p[0] !== "storage").concat([["storage", 1, 0x06, 0x300000, 1024 * 1024]]);
    const g = checkEspruinoFiles(files(grown), REGION);
    expect(g.images).toEqual([]);
    expect(g.problems.join("\n")).toContain('its partition "storage" (0x300000 to 0x400000) over the pet\'s region at 0x310000');
  });

  it("refuses a table with nothing at the pet's region, and one that makes it an app", () => {
    const none = checkEspruinoFiles(files(ESPRUINO_2V26_ROWS.filter((p) => p[0] !== "flash")), REGION);
    expect(none.images).toEqual([]);
    expect(none.problems).toEqual([
      "partitions_espruino.bin has no partition at 0x310000 of 65536 bytes, where the pet keeps its save (boards/esp32.json): it is not Espruino's table; use the three files of one Espruino ESP32 release",
    ]);
    const app = checkEspruinoFiles(files(ESPRUINO_2V06_ROWS.map((p): PartitionRow => (p[0] === "flash" ? ["flash", 0, 0x11, p[3], p[4]] : p))), REGION);
    expect(app.images).toEqual([]);
    expect(app.problems).toEqual(['partitions_espruino.bin makes 0x310000 ("flash") an app partition, where the pet keeps its save: it is not Espruino\'s table']);
  });

  it("refuses an Espruino too big for the table's app partition at 0x10000", () => {
    const r = checkEspruinoFiles(files(ESPRUINO_2V06_ROWS, 1536 * 1024 + 1), REGION);
    expect(r.problems).toEqual(["espruino_esp32.bin (1572865 bytes) does not fit the app partition (1572864 bytes)"]);
  });
});
