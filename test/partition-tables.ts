/**
 * ESP-IDF partition tables for the installer's tests, made here from their rows as a partition CSV
 * gives them, in the binary form gen_esp32part.py writes (32-byte rows AA 50 type subtype offset
 * size label flags, then the EB EB row with the MD5 of the rows, then 0xFF to 0xC00 bytes): the
 * tables of Espruino's ESP32 releases, and tables that are not Espruino's.
 */
import { createHash } from "node:crypto";

/** label, type (0 app, 1 data), subtype, offset, size */
export type PartitionRow = [string, number, number, number, number];

export function partitionTable(rows: PartitionRow[]): Uint8Array {
  const t = new Uint8Array(0xc00).fill(0xff);
  rows.forEach(([label, type, subtype, offset, size], k) => {
    const v = new DataView(t.buffer, k * 32, 32);
    v.setUint8(0, 0xaa);
    v.setUint8(1, 0x50);
    v.setUint8(2, type);
    v.setUint8(3, subtype);
    v.setUint32(4, offset, true);
    v.setUint32(8, size, true);
    for (let i = 0; i < 16; i++) v.setUint8(12 + i, i < label.length ? label.charCodeAt(i) : 0);
    v.setUint32(28, 0, true);
  });
  const end = rows.length * 32;
  t[end] = 0xeb;
  t[end + 1] = 0xeb;
  t.set(createHash("md5").update(t.subarray(0, end)).digest(), end + 16);
  return t;
}

const K = 1024;

/** Espruino 2v06 to 2v25 (targets/esp32/Changes_V3.1/partitions_espruino.csv): Storage is js_code, 256 KiB. */
export const ESPRUINO_2V06_ROWS: PartitionRow[] = [
  ["nvs", 1, 0x02, 0x9000, 12 * K],
  ["otadata", 1, 0x00, 0xc000, 8 * K],
  ["free", 1, 0x40, 0xe000, 8 * K],
  ["factory", 0, 0x00, 0x10000, 1536 * K],
  ["ota_0", 0, 0x10, 0x190000, 1536 * K],
  ["flash", 1, 0x40, 0x310000, 64 * K],
  ["js_code", 1, 0x00, 0x320000, 256 * K],
  ["storage", 1, 0x00, 0x360000, 640 * K],
];

/** Espruino 2v26 on (targets/esp32/IDF4/partitions.csv, offsets as ESP-IDF places them): Storage 896 KiB to the end. */
export const ESPRUINO_2V26_ROWS: PartitionRow[] = [
  ["nvs", 1, 0x02, 0x9000, 0x6000],
  ["phy_init", 1, 0x01, 0xf000, 0x1000],
  ["factory", 0, 0x00, 0x10000, 2000 * K],
  ["flash", 1, 0x40, 0x310000, 64 * K],
  ["storage", 1, 0x06, 0x320000, 896 * K],
];

/** Arduino-ESP32's default.csv: a SPIFFS partition where the pet's region would be. */
export const ARDUINO_DEFAULT_ROWS: PartitionRow[] = [
  ["nvs", 1, 0x02, 0x9000, 0x5000],
  ["otadata", 1, 0x00, 0xe000, 0x2000],
  ["app0", 0, 0x10, 0x10000, 0x140000],
  ["app1", 0, 0x11, 0x150000, 0x140000],
  ["spiffs", 1, 0x82, 0x290000, 0x170000],
];
