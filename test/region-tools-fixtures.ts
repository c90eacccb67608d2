/**
 * Region images for the region-tool tests, made the way the device makes them: saves through
 * SlotLog on a NorFlashSim with the desktop board's geometry (16 sectors of 4 KiB), and damage
 * through the simulator's power-cut injection and fill, never by writing guessed offsets by hand.
 */
import { crc32 } from "node:zlib";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorld } from "../src/core/world";
import { nameFromString } from "../src/core/name";
import { saveWorld } from "../src/save/codec";
import { loadWorld } from "../src/save/codec";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { ESP32 } from "./storage-fixtures";
import { createSlotLog, type SlotLog } from "../src/storage/slotLog";
import type { CliIo } from "../src/host/node/cli";

/** The ESP32 region (storage-fixtures.ts) as an image file holds it: the same log, from offset 0. */
export const REGION = { ...ESP32, address: 0 };
export const SAVED_AT = 1795960000000; // 2026-11-29

/** A valid payload for a pet called `name` with `updates` updates (via the codec's encoder). */
export function petPayload(name: string, updates: number): Uint8Array {
  const world = createWorld(nameFromString(name) as Uint8Array);
  if (world === null) throw new Error("fixture: bad name");
  world.updateCount = { hi: 0, lo: updates };
  world.elapsed = { hi: 0, lo: updates * 1000 };
  const r = saveWorld(world, SAVED_AT + updates);
  if (r.bytes === null) throw new Error("fixture: " + r.status);
  return r.bytes;
}

/** The same payload with one bit of the update count flipped: its CRC no longer matches. */
export function rotten(payload: Uint8Array): Uint8Array {
  const p = new Uint8Array(payload);
  p[14] = (p[14] as number) ^ 0x01;
  // Sanity: the damage is real as far as an independent CRC is concerned.
  const stored = ((p[80] as number) | ((p[81] as number) << 8) | ((p[82] as number) << 16) | ((p[83] as number) << 24)) >>> 0;
  if (crc32(p.subarray(0, 80)) === stored) throw new Error("fixture: damage not detected");
  return p;
}

export function newRegion(seed = 7): { sim: NorFlashSim; log: SlotLog } {
  const sim = new NorFlashSim({ size: REGION.size, pageSize: REGION.sectorSize, seed });
  // The log writes whatever it is given (validity is the reader's business), so damaged payloads
  // can be committed the way bit rot or a buggy writer would leave them.
  const created = createSlotLog({ flash: sim, ...REGION, isValidPayload: (p) => loadWorld(p, 0).status === "ok" });
  if (created.log === null) throw new Error("fixture: " + created.message);
  return { sim, log: created.log };
}

export function mustSave(log: SlotLog, payload: Uint8Array): void {
  const r = log.save(payload);
  if (r.status !== "ok") throw new Error("fixture save failed: " + r.status + " " + r.message);
}

/** Three good saves of "Mochi" (updates 1, 2, 3): slots 0..2 of sector 0. */
export function cleanImage(): { sim: NorFlashSim; newest: Uint8Array } {
  const { sim, log } = newRegion();
  for (let u = 1; u <= 3; u++) mustSave(log, petPayload("Mochi", u));
  return { sim, newest: petPayload("Mochi", 3) };
}

/**
 * Three good saves, then a fourth whose power was cut during its payload write: every byte landed
 * but the commit mark never did ("torn, bytes complete"), then a fifth cut after its first word.
 */
export function tornImage(): { sim: NorFlashSim; newestCommitted: Uint8Array } {
  const { sim, log } = newRegion();
  for (let u = 1; u <= 3; u++) mustSave(log, petPayload("Mochi", u));
  sim.cutPowerAfter({ afterMutations: 0, writeTear: "all" });
  if (log.save(petPayload("Mochi", 4)).status === "ok") throw new Error("fixture: the cut did not happen");
  sim.powerOn();
  const { log: rebooted } = reopen(sim);
  rebooted.load();
  sim.cutPowerAfter({ afterMutations: 0, writeTear: "prefix" });
  rebooted.save(petPayload("Mochi", 5));
  sim.powerOn();
  return { sim, newestCommitted: petPayload("Mochi", 3) };
}

/** Two good saves, then a committed save whose bytes rotted (bad checksum). */
export function rottenNewestImage(): { sim: NorFlashSim; newestGood: Uint8Array } {
  const { sim, log } = newRegion();
  mustSave(log, petPayload("Mochi", 1));
  mustSave(log, petPayload("Mochi", 2));
  mustSave(log, rotten(petPayload("Mochi", 3)));
  return { sim, newestGood: petPayload("Mochi", 2) };
}

/** Random bytes everywhere: somebody else's data. */
export function foreignImage(): NorFlashSim {
  const sim = new NorFlashSim({ size: REGION.size, pageSize: REGION.sectorSize, seed: 99 });
  sim.fillRandom();
  return sim;
}

/** A log written with another payload length (64 bytes): valid headers, but not our layout. */
export function otherLayoutImage(): NorFlashSim {
  const sim = new NorFlashSim({ size: REGION.size, pageSize: REGION.sectorSize });
  const created = createSlotLog({ flash: sim, ...REGION, payloadLength: 64, isValidPayload: () => true });
  if (created.log === null) throw new Error("fixture: " + created.message);
  const p = new Uint8Array(64).fill(0x5a);
  if (created.log.save(p).status !== "ok") throw new Error("fixture: save failed");
  return sim;
}

function reopen(sim: NorFlashSim): { log: SlotLog } {
  const created = createSlotLog({ flash: sim, ...REGION, isValidPayload: (p) => loadWorld(p, 0).status === "ok" });
  if (created.log === null) throw new Error("fixture: " + created.message);
  return { log: created.log };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeImage(dir: string, name: string, sim: NorFlashSim): string {
  const path = join(dir, name);
  writeFileSync(path, sim.image());
  return path;
}

/** An in-memory CliIo that records stdout and stderr. */
export function memoryIo(): CliIo & { out: string; err: string; bytes: Uint8Array[] } {
  const io = {
    out: "",
    err: "",
    bytes: [] as Uint8Array[],
    readStdin: async () => new Uint8Array(0),
    writeStdout(d: string | Uint8Array) {
      if (typeof d === "string") io.out += d;
      else io.bytes.push(d);
    },
    writeStderr(t: string) {
      io.err += t;
    },
  };
  return io;
}
