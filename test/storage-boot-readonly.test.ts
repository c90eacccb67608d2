/**
 * Booting only reads: rebooting again and again without saving leaves every byte of the region
 * as it was and performs no write or erase, whatever state the region is in.
 */
import { describe, expect, it } from "vitest";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { ESP32, Geometry, SMALL, makePayload, newSim, openLog, sameBytes } from "./storage-fixtures";

function rebootsChangeNothing(sim: NorFlashSim, g: Geometry): void {
  const before = sim.image();
  const erasesBefore = sim.eraseCounts();
  sim.resetStats();
  let first: Uint8Array | null = null;
  for (let i = 0; i < 5; i++) {
    const boot = openLog(sim, g).load();
    if (i === 0) first = boot.payload;
    else expect(sameBytes(boot.payload, first)).toBe(true);
  }
  expect(sim.stats.writes).toBe(0);
  expect(sim.stats.erases).toBe(0);
  expect(sim.stats.bytesWritten).toBe(0);
  expect(sim.eraseCounts()).toEqual(erasesBefore);
  expect(sameBytes(sim.image(), before)).toBe(true);
}

function saved(g: Geometry, count: number): NorFlashSim {
  const sim = newSim(g);
  const log = openLog(sim, g);
  for (let i = 0; i < count; i++) log.save(makePayload(i));
  return sim;
}

describe("reboot after reboot without saving", () => {
  it("an erased region", () => rebootsChangeNothing(newSim(ESP32), ESP32));
  it("a region of random bytes", () => {
    const sim = newSim(ESP32, { seed: 3 });
    sim.fillRandom();
    rebootsChangeNothing(sim, ESP32);
  });
  it("half full", () => rebootsChangeNothing(saved(ESP32, 384), ESP32));
  it("after many wraps", () => rebootsChangeNothing(saved(ESP32, 5000), ESP32));
  it("right after a sector filled up (the next save would erase)", () => rebootsChangeNothing(saved(SMALL, 20), SMALL));

  it("after power cuts at every point of a save, torn slots and torn headers included", () => {
    for (let cut = 0; cut < 8; cut++) {
      for (const tear of ["words", "bits", "prefix"] as const) {
        const sim = saved(SMALL, 19);
        const log = openLog(sim, SMALL);
        log.load();
        sim.cutPowerAfter({ afterMutations: cut, writeTear: tear, eraseTear: tear === "bits" ? "random" : tear });
        log.save(makePayload(100));
        log.save(makePayload(101));
        sim.powerOn();
        rebootsChangeNothing(sim, SMALL);
      }
    }
  });
});
