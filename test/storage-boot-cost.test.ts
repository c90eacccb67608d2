/**
 * Boot cost: the validity check (a bitwise CRC-32 on the device, tens of ms) runs once per boot
 * after clean histories, never once per stored slot, and the boot reads only headers, one marks
 * table and one payload, in small pieces, none of them a size an ESP32 build cannot read (2 to 22
 * bytes: src/storage/flash.ts, SAFE_READ_MIN).
 */
import { describe, expect, it } from "vitest";
import { HEADER_READ, computeLayout } from "../src/storage/regionLayout";
import { SAFE_READ_MIN } from "../src/storage/flash";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { createSlotLog } from "../src/storage/slotLog";
import { ESP32, Geometry, SMALL, makePayload, newSim, openLog } from "./storage-fixtures";

interface BootCost {
  status: string;
  checks: number;
  bytesRead: number;
  largestRead: number;
  /** Reads of 2 to SAFE_READ_MIN - 1 bytes, which an ESP32 build with JsVars in PSRAM cannot do. */
  unsafeReads: number;
}

function bootCost(sim: NorFlashSim, g: Geometry): BootCost {
  sim.resetStats();
  const boot = openLog(sim, g).load();
  let largest = 0;
  let unsafe = 0;
  for (const t of sim.trace) {
    if (t.op !== "read") continue;
    largest = Math.max(largest, t.length);
    if (t.length > 1 && t.length < SAFE_READ_MIN) unsafe++;
  }
  return { status: boot.status, checks: boot.checks, bytesRead: sim.stats.bytesRead, largestRead: largest, unsafeReads: unsafe };
}

function after(g: Geometry, saves: number): NorFlashSim {
  const sim = newSim(g, { trace: true });
  const log = openLog(sim, g);
  for (let i = 0; i < saves; i++) expect(log.save(makePayload(i)).status).toBe("ok");
  return sim;
}

describe("boot cost after clean histories", () => {
  const l = computeLayout(ESP32).layout!;
  const perSector = l.slotsPerSector;
  // headers of every sector (each read with the marks after it, HEADER_READ bytes) + the newest
  // sector's marks + one payload (+ the previous sector's marks when the newest has none)
  const readBound = l.sectorCount * HEADER_READ + 2 * l.marksSize + l.payloadLength;
  const histories: [string, number][] = [
    ["empty", 0],
    ["one save", 1],
    ["one sector exactly full", perSector],
    ["half full", (l.sectorCount * perSector) / 2],
    ["full", l.sectorCount * perSector],
    ["many wraps", 7 * l.sectorCount * perSector + 13],
  ];
  for (const [name, saves] of histories) {
    it(name + " (" + saves + " saves): at most 2 checks, about " + readBound + " bytes read in small reads", () => {
      const c = bootCost(after(ESP32, saves), ESP32);
      expect(c.status).toBe(saves === 0 ? "empty" : "ok");
      expect(c.checks).toBeLessThanOrEqual(2);
      expect(c.checks).toBe(saves === 0 ? 0 : 1);
      expect(c.bytesRead).toBeLessThanOrEqual(readBound);
      expect(c.largestRead).toBeLessThanOrEqual(l.payloadLength);
      expect(c.unsafeReads).toBe(0);
    });
  }

  it("the count grows with nothing: same checks after 10 and after 2000 saves on a small region", () => {
    const a = bootCost(after(SMALL, 10), SMALL);
    const b = bootCost(after(SMALL, 2000), SMALL);
    expect(a.checks).toBe(1);
    expect(b.checks).toBe(1);
    expect(b.bytesRead).toBe(a.bytesRead);
  });

  it("the validity check is called once per boot (counted on the caller's side too)", () => {
    const sim = after(ESP32, 100);
    let calls = 0;
    const boot = openLog(sim, ESP32).load();
    expect(boot.checks).toBe(1);
    const log = createSlotLog({ ...ESP32, flash: sim, isValidPayload: () => (calls++, true) }).log!;
    log.load();
    expect(calls).toBe(1);
    expect(log.stats().validityChecks).toBe(1);
  });

  it("a newest slot damaged after it was committed (outside the cut model) costs one more check, not a scan", () => {
    for (const saves of [49, 50, 60]) {
      const sim = after(ESP32, saves);
      const boot = openLog(sim, ESP32).load();
      // flip one bit of the newest payload, as bit rot would
      const at = ESP32.address + boot.sector * ESP32.sectorSize + l.slotsOffset + boot.slot * l.payloadLength + 30;
      const b = sim.read(1, at).bytes![0]!;
      sim.poke(at, new Uint8Array([b ^ 0x10]));
      const again = openLog(sim, ESP32).load();
      expect(again.status).toBe("ok");
      expect(again.checks).toBe(2);
      expect(again.payload).toEqual(makePayload(saves - 2));
    }
  });
});
