/**
 * Wear: erases are as rare as 84-byte slots in 4 KiB sectors allow (48 saves per erase) and spread
 * evenly over every sector of the region; each save programs little more than its 84 bytes.
 */
import { describe, expect, it } from "vitest";
import { ESP32, SMALL, makePayload, newSim, openLog } from "./storage-fixtures";

describe("SlotLog wear", () => {
  it("16 x 4096: about 20.8 erases per 1000 saves, every sector within one erase of the others", () => {
    const sim = newSim(ESP32, { strict: true });
    const log = openLog(sim, ESP32);
    const saves = 48 * 16 * 10; // ten full turns of the region
    for (let i = 0; i < saves; i++) expect(log.save(makePayload(i)).status).toBe("ok");
    const counts = sim.eraseCounts();
    const total = counts.reduce((a, b) => a + b, 0);
    expect((total * 1000) / saves).toBeLessThanOrEqual(1000 / 48 + 0.01);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(9);
    // payload + one mark byte per save, plus one 12-byte header per 48 saves
    expect(sim.stats.bytesWritten / saves).toBeLessThanOrEqual(84 + 1 + 12 / 48 + 0.001);
    expect(log.stats().sectorErases).toBe(total);
  });

  it("saves that never erase: a save inside a sector with room does not erase", () => {
    const sim = newSim(SMALL);
    const log = openLog(sim, SMALL);
    const erasing: boolean[] = [];
    for (let i = 0; i < 25; i++) erasing.push(log.save(makePayload(i)).erased);
    // 5 slots per 512-byte sector: the 1st, 6th, 11th, ... save opens a sector
    erasing.forEach((e, i) => expect(e).toBe(i % 5 === 0));
  });
});
