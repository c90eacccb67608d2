/**
 * The three files of an Espruino ESP32 release, checked before anything is written: which file is
 * which (by content, not by name), that each is what it claims, and that the partition table keeps
 * the pet's region where boards/esp32.json expects it: a data partition of its own that nothing else
 * in the table covers. Espruino's ESP32 tables all do (the `flash` partition at 0x310000, 64 KiB: in
 * the table of 2v06 to 2v25, with Storage in `js_code` at 0x320000, and in the one of 2v26 on, with
 * Storage at 0x320000 to the end); a table that puts anything else over that flash is refused.
 * Pure functions over bytes.
 *
 *   bootloader          ESP image (first byte 0xE9), written at 0x1000, must end before 0x8000
 *   partition table     32-byte entries starting AA 50, written at 0x8000, at most 0xC00 bytes
 *   Espruino firmware   ESP image, written at 0x10000, must fit the app partition there
 */
import type { FlashRange } from "../../boards/boardProfile";

export const BOOTLOADER_ADDRESS = 0x1000;
export const PARTITIONS_ADDRESS = 0x8000;
export const FIRMWARE_ADDRESS = 0x10000;
const ESP_IMAGE_MAGIC = 0xe9;
const PARTITION_TABLE_MAX = 0xc00;
const ENTRY_BYTES = 32;
const DATA_PARTITION = 1;

export interface PickedFile {
  name: string;
  bytes: Uint8Array;
}

export interface FlashImage {
  role: "bootloader" | "partition table" | "Espruino firmware";
  name: string;
  address: number;
  bytes: Uint8Array;
}

export interface Partition {
  label: string;
  type: number;
  subtype: number;
  offset: number;
  size: number;
}

const u32 = (b: Uint8Array, at: number): number => ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16) | ((b[at + 3] as number) << 24)) >>> 0;
const hex = (n: number): string => "0x" + n.toString(16);

/** The entries of an ESP-IDF partition table, up to its end marker or MD5 row; null if it is not one. */
export function parsePartitionTable(b: Uint8Array): Partition[] | null {
  if (b.length < ENTRY_BYTES || b[0] !== 0xaa || b[1] !== 0x50) return null;
  const out: Partition[] = [];
  for (let at = 0; at + ENTRY_BYTES <= b.length; at += ENTRY_BYTES) {
    if (b[at] !== 0xaa || b[at + 1] !== 0x50) break; // 0xFF filler or the EB EB MD5 row ends the table
    let label = "";
    for (let i = 12; i < 28 && b[at + i] !== 0; i++) label += String.fromCharCode(b[at + i] as number);
    out.push({ type: b[at + 2] as number, subtype: b[at + 3] as number, offset: u32(b, at + 4), size: u32(b, at + 8), label });
  }
  return out;
}

/** An ESP32 image (first byte 0xE9) or a partition table (first row AA 50): one of a release's three files. */
export function isImageOrTable(b: Uint8Array): boolean {
  return b[0] === ESP_IMAGE_MAGIC || parsePartitionTable(b) !== null;
}

/**
 * Sorts the picked files into the three images and checks them. `petRegion` is the profile's
 * region: a table that does not keep it as a partition of its own is refused, since Espruino could
 * then put Storage (or anything) over the pet.
 */
export function checkEspruinoFiles(files: PickedFile[], petRegion: FlashRange): { images: FlashImage[]; problems: string[] } {
  const problems: string[] = [];
  if (files.length !== 3) problems.push("pick exactly three files (bootloader, partition table, Espruino firmware); got " + files.length);
  const tables = files.filter((f) => parsePartitionTable(f.bytes) !== null);
  const images = files.filter((f) => f.bytes[0] === ESP_IMAGE_MAGIC).sort((a, b) => a.bytes.length - b.bytes.length);
  const others = files.filter((f) => !tables.includes(f) && !images.includes(f));
  for (const f of others) problems.push(f.name + " is neither an ESP32 image (first byte 0xE9) nor a partition table (first bytes AA 50)");
  if (tables.length !== 1) problems.push("expected one partition table, found " + tables.length);
  if (images.length !== 2) problems.push("expected two ESP32 images (bootloader and firmware), found " + images.length);
  if (problems.length > 0) return { images: [], problems };

  const table = tables[0] as PickedFile;
  const [boot, firmware] = images as [PickedFile, PickedFile];
  const parts = parsePartitionTable(table.bytes) as Partition[];
  if (table.bytes.length > PARTITION_TABLE_MAX) problems.push(table.name + " is " + table.bytes.length + " bytes; a partition table is at most " + PARTITION_TABLE_MAX);
  if (BOOTLOADER_ADDRESS + boot.bytes.length > PARTITIONS_ADDRESS) {
    problems.push(boot.name + " (" + boot.bytes.length + " bytes) would run past " + hex(PARTITIONS_ADDRESS) + ": it is not a bootloader");
  }
  const app = parts.find((p) => p.type === 0 && p.offset === FIRMWARE_ADDRESS);
  if (!app) problems.push(table.name + " has no app partition at " + hex(FIRMWARE_ADDRESS) + ": it is not Espruino's table");
  else if (firmware.bytes.length > app.size) problems.push(firmware.name + " (" + firmware.bytes.length + " bytes) does not fit the app partition (" + app.size + " bytes)");
  const petEnd = petRegion.address + petRegion.size;
  const pet = parts.find((p) => p.offset === petRegion.address && p.size === petRegion.size);
  const over = parts.filter((p) => p !== pet && p.offset < petEnd && p.offset + p.size > petRegion.address);
  for (const p of over) {
    problems.push(
      table.name + " puts its partition \"" + p.label + "\" (" + hex(p.offset) + " to " + hex(p.offset + p.size) + ") over the pet's region at " + hex(petRegion.address) +
        " (boards/esp32.json), where the pet keeps its save: it is not Espruino's table; use the three files of one Espruino ESP32 release",
    );
  }
  if (!pet) {
    if (over.length === 0) {
      problems.push(
        table.name + " has no partition at " + hex(petRegion.address) + " of " + petRegion.size + " bytes, where the pet keeps its save (boards/esp32.json): " +
          "it is not Espruino's table; use the three files of one Espruino ESP32 release",
      );
    }
  } else if (pet.type !== DATA_PARTITION) {
    problems.push(table.name + " makes " + hex(petRegion.address) + " (\"" + pet.label + "\") an app partition, where the pet keeps its save: it is not Espruino's table");
  }
  if (problems.length > 0) return { images: [], problems };
  return {
    images: [
      { role: "bootloader", name: boot.name, address: BOOTLOADER_ADDRESS, bytes: boot.bytes },
      { role: "partition table", name: table.name, address: PARTITIONS_ADDRESS, bytes: table.bytes },
      { role: "Espruino firmware", name: firmware.name, address: FIRMWARE_ADDRESS, bytes: firmware.bytes },
    ],
    problems,
  };
}
