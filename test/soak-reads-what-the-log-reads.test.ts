/**
 * The soak's read-back after each cut (logPullProgram, src/inspect/regionPull.ts) reads every
 * sector's header and only the sectors whose header is not erased: on region images of every
 * shape the power-cut harness makes (fresh, one sector, wrapped, cut mid-erase, mid-header,
 * mid-payload, mid-mark, and with foreign bytes behind an erased header) the save the next boot
 * restores, read from that, is the one read from the whole region, down to its sector, slot and the
 * checks it took; and the program reads much less of a log that fills few sectors.
 */
import { describe, expect, it } from "vitest";
import vm from "node:vm";
import { join } from "node:path";
import { HEADER_READ, logPullProgram, parsePullLines, pullProgram } from "../src/inspect/regionPull";
import { readRegion } from "../src/inspect/regionReport";
import { readProfile } from "../src/host/node/cli/regionFile";
import { BOARDS_DIR } from "../src/host/node/boardProfiles";
import { createEspruinoE } from "../src/host/emulator/espruinoE";
import { createFlashModule } from "../src/host/emulator/flashModule";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { createSlotLog } from "../src/storage/slotLog";
import { loadWorld } from "../src/save/codec";
import { petPayload } from "./region-tools-fixtures";

const esp32 = readProfile(join(BOARDS_DIR, "esp32.json"));
const REGION = esp32.profile.petRegion;

/** Runs a pull program over `sim` as the interpreter would; answers what it printed and the bytes it read. */
function runPull(sim: NorFlashSim, code: string): { out: string; bytesRead: number } {
  let out = "";
  let bytesRead = 0;
  const flash = createFlashModule({ flash: sim, regionAddress: REGION.address, flashAddress: REGION.address, size: REGION.size }, { Uint8Array, ArrayBuffer });
  const counted = { ...flash, read: (n: number, a: number) => ((bytesRead += n), flash.read(n, a)) };
  const E = { ...createEspruinoE(), toString: (d: Uint8Array) => String.fromCharCode(...d) };
  vm.runInContext(code, vm.createContext({ require: (n: string) => (n === "Flash" ? counted : undefined), E, Uint8Array, btoa: (s: string) => Buffer.from(s, "latin1").toString("base64"), print: (...a: unknown[]) => (out += a.join(" ") + "\n") }));
  return { out, bytesRead };
}

/** A region after `saves` saves, with a power cut of kind `tear` after `cutAfter` more mutations (-1: none). */
function region(saves: number, cutAfter: number, seed: number): NorFlashSim {
  const sim = new NorFlashSim({ size: REGION.size, pageSize: REGION.pageSize, baseAddress: REGION.address, seed });
  const open = () => createSlotLog({ flash: sim, address: REGION.address, size: REGION.size, sectorSize: REGION.pageSize, isValidPayload: (p) => loadWorld(p, 0).status === "ok" }).log!;
  const log = open();
  for (let i = 1; i <= saves; i++) log.save(petPayload("Soak", i));
  if (cutAfter >= 0) {
    const tears = ["none", "all", "prefix", "words", "bits"] as const;
    const erases = ["none", "prefix", "words", "random", "mixed"] as const;
    sim.cutPowerAfter({ afterMutations: cutAfter, writeTear: tears[seed % 5], eraseTear: erases[seed % 5] });
    for (let i = 0; i < 60 && !sim.poweredOff; i++) log.save(petPayload("Soak", saves + 1 + i));
    sim.powerOn();
  }
  return sim;
}

function current(image: Uint8Array): unknown {
  const c = readRegion(image, esp32).current;
  return { status: c.status, sector: c.sector, slot: c.slot, seq: c.seq, checks: c.checks, payload: c.payload === null ? null : Array.from(c.payload) };
}

describe("the soak's read-back is what the slot log reads", () => {
  it("finds the save the whole region holds, on every shape the power-cut harness makes", () => {
    let cases = 0;
    for (const saves of [0, 1, 48, 49, 770]) {
      for (const cutAfter of [-1, 0, 2, 5]) {
        for (const seed of [1, 2, 3, 4, 5]) {
          const sim = region(saves, cutAfter, seed);
          const whole = parsePullLines(runPull(sim, pullProgram(REGION.address, REGION.size)).out, REGION.size);
          const logOnly = parsePullLines(runPull(sim, logPullProgram(REGION.address, REGION.size, REGION.pageSize)).out, REGION.size);
          expect(current(logOnly), saves + " saves, cut after " + cutAfter + ", seed " + seed).toEqual(current(whole));
          cases++;
        }
      }
    }
    expect(cases).toBe(100);
  });

  it("ignores foreign bytes behind an erased header, as the log does", () => {
    const sim = region(10, -1, 1);
    // Sector 5: header erased, body programmed with junk (an erase cut off, say).
    const junk = new Uint8Array(REGION.pageSize - 256).map((_, i) => (i * 13) & 0xff);
    sim.poke(REGION.address + 5 * REGION.pageSize + 256, junk);
    sim.poke(REGION.address + 5 * REGION.pageSize + 12, new Uint8Array([0, 1, 2, 3]));
    const logOnly = parsePullLines(runPull(sim, logPullProgram(REGION.address, REGION.size, REGION.pageSize)).out, REGION.size);
    expect(current(logOnly)).toEqual(current(sim.image()));
    expect(logOnly.subarray(5 * REGION.pageSize, 6 * REGION.pageSize).every((b) => b === 0xff)).toBe(true);
  });

  it("reads the headers of every sector and the sectors in use whole: a log in one sector costs under a tenth of the whole pull", () => {
    const sim = region(20, -1, 1);
    const whole = runPull(sim, pullProgram(REGION.address, REGION.size)).bytesRead;
    const logOnly = runPull(sim, logPullProgram(REGION.address, REGION.size, REGION.pageSize)).bytesRead;
    expect(whole).toBe(REGION.size);
    expect(logOnly).toBe(HEADER_READ + REGION.pageSize + 15 * HEADER_READ);
    expect(logOnly * 10).toBeLessThan(whole);
  });

  it("a SKIP line outside the region, or one that repeats a chunk, is a garbled transfer", () => {
    expect(() => parsePullLines("PETPULL BEGIN 65536\nPETPULL SKIP 64512 2048\nPETPULL END 65536\n", REGION.size)).toThrow(/outside the region/);
    expect(() => parsePullLines("PETPULL BEGIN 65536\nPETPULL SKIP 1024 3072\nPETPULL SKIP 1024 1024\nPETPULL END 65536\n", REGION.size)).toThrow(/arrived twice/);
  });
});
