/**
 * A region that holds random bytes, somebody else's data, or a partial log boots as "no pet" with a
 * reason, never throws, and the first save makes it usable.
 */
import { describe, expect, it } from "vitest";
import { computeLayout, encodeHeader, markAddress, sectorAddress, slotAddress } from "../src/storage/regionLayout";
import { LogResult } from "../src/storage/slotLog";
import { ESP32, Geometry, SMALL, makePayload, newSim, openLog, sameBytes } from "./storage-fixtures";
import { NorFlashSim } from "../src/storage/norFlashSim";

function layoutOf(g: Geometry) {
  const l = computeLayout(g).layout;
  if (l === null) throw new Error("layout");
  return l;
}

/** Saves enough to wrap the region twice and checks every boot on the way. */
function usableAfterwards(sim: NorFlashSim, g: Geometry): void {
  const l = layoutOf(g);
  const log = openLog(sim, g);
  log.load();
  const total = 2 * l.sectorCount * l.slotsPerSector + 3;
  for (let i = 0; i < total; i++) {
    const p = makePayload(70000 + i);
    const s = log.save(p);
    expect(s.status).toBe("ok");
    if (i < 3 || i % 17 === 0 || i === total - 1) {
      const boot = openLog(sim, g).load();
      expect(boot.status).toBe("ok");
      expect(sameBytes(boot.payload, p)).toBe(true);
      expect(boot.checks).toBe(1);
    }
  }
}

/** Something like Espruino Storage: files with a 32-byte header (u32 size, 28-byte name) and data. */
function storageLikeImage(g: Geometry): Uint8Array {
  const img = new Uint8Array(g.size).fill(0xff);
  let at = 0;
  let n = 0;
  const text = new TextEncoder().encode("function onInit(){setInterval(function(){digitalPulse(LED1,1,50);},1000);}\n");
  while (at + 32 + 200 < g.size * 0.8) {
    const size = 100 + ((n * 37) % 300);
    img[at] = size & 0xff;
    img[at + 1] = size >> 8;
    img[at + 2] = 0;
    img[at + 3] = 0;
    const name = new TextEncoder().encode(n === 0 ? ".bootcde" : "log" + n + ".txt");
    img.fill(0, at + 4, at + 32);
    img.set(name, at + 4);
    for (let i = 0; i < size; i++) img[at + 32 + i] = text[i % text.length] as number;
    at += 32 + size;
    at = (at + 3) & ~3;
    n++;
  }
  return img;
}

function expectNoPet(boot: LogResult, status: string): void {
  expect(boot.status).toBe(status);
  expect(boot.payload).toBeNull();
  expect(boot.message.length).toBeGreaterThan(5);
}

describe("SlotLog over regions it did not write", () => {
  for (const g of [SMALL, ESP32]) {
    it("random bytes (" + g.size + " bytes): no-log, then usable", () => {
      const sim = newSim(g, { seed: 4242 });
      sim.fillRandom();
      expectNoPet(openLog(sim, g).load(), "no-log");
      usableAfterwards(sim, g);
    });

    it("Storage-like files (" + g.size + " bytes): no-log, then usable", () => {
      const sim = new NorFlashSim({ size: g.size, pageSize: g.sectorSize, baseAddress: g.address, initial: storageLikeImage(g) });
      expectNoPet(openLog(sim, g).load(), "no-log");
      usableAfterwards(sim, g);
    });
  }

  it("an erased region is empty", () => {
    const sim = newSim(ESP32);
    expectNoPet(openLog(sim, ESP32).load(), "empty");
  });

  it("only some sectors carry headers, none with a committed save: no-committed-save (not no-valid-save), then usable", () => {
    const g = SMALL;
    const l = layoutOf(g);
    const sim = newSim(g, { seed: 9 });
    sim.poke(sectorAddress(l, 2), encodeHeader(l, 77));
    // a torn payload with no mark, as a cut would leave it
    sim.poke(slotAddress(l, 2, 0), makePayload(1).subarray(0, 40));
    const boot = openLog(sim, g).load();
    // no set mark anywhere: nothing ever committed, so nothing can be lost by writing (firmware hatches)
    expectNoPet(boot, "no-committed-save");
    expect(boot.checks).toBe(0);
    usableAfterwards(sim, g);
  });

  it("committed marks over garbage payloads: the checks stop at the bound, then the log is usable", () => {
    const g = ESP32;
    const l = layoutOf(g);
    const sim = newSim(g, { seed: 10 });
    sim.fillRandom();
    for (let s = 0; s < l.sectorCount; s += 3) {
      sim.poke(sectorAddress(l, s), encodeHeader(l, 1000 + s));
      sim.poke(markAddress(l, s, 0), new Uint8Array(l.slotsPerSector).fill(0));
    }
    const boot = openLog(sim, g, { maxBootChecks: 4 }).load();
    expectNoPet(boot, "no-valid-save");
    expect(boot.checks).toBe(4);
    usableAfterwards(sim, g);
  });

  it("a stale valid save in an older sector is found when the newest sector has nothing committed", () => {
    const g = SMALL;
    const l = layoutOf(g);
    const sim = newSim(g);
    const old = makePayload(31);
    sim.poke(sectorAddress(l, 0), encodeHeader(l, 5));
    sim.poke(slotAddress(l, 0, 3), old);
    sim.poke(markAddress(l, 0, 3), new Uint8Array([0]));
    sim.poke(sectorAddress(l, 1), encodeHeader(l, 6));
    const boot = openLog(sim, g).load();
    expect(boot.status).toBe("ok");
    expect(sameBytes(boot.payload, old)).toBe(true);
    expect(boot.checks).toBe(1);
    expect(boot.sector).toBe(0);
  });

  it("sequence numbers wrap past 2^32: the sector numbered 0 is newer than the one numbered 2^32 - 1", () => {
    const g = SMALL;
    const l = layoutOf(g);
    const sim = newSim(g);
    const a = makePayload(41);
    const b = makePayload(42);
    sim.poke(sectorAddress(l, 3), encodeHeader(l, 0xffffffff));
    sim.poke(slotAddress(l, 3, 0), a);
    sim.poke(markAddress(l, 3, 0), new Uint8Array([0]));
    sim.poke(sectorAddress(l, 0), encodeHeader(l, 0));
    sim.poke(slotAddress(l, 0, 0), b);
    sim.poke(markAddress(l, 0, 0), new Uint8Array([0]));
    const boot = openLog(sim, g).load();
    expect(sameBytes(boot.payload, b)).toBe(true);
    expect(boot.seq).toBe(0);
    // the log continues in sector 0 and then moves on to sector 1 with sequence number 1
    const log = openLog(sim, g);
    log.load();
    let last = b;
    for (let i = 0; i < l.slotsPerSector; i++) {
      last = makePayload(50 + i);
      expect(log.save(last).status).toBe("ok");
    }
    const after = openLog(sim, g).load();
    expect(sameBytes(after.payload, last)).toBe(true);
    expect(after.sector).toBe(1);
    expect(after.seq).toBe(1);
  });
});
