import { describe, expect, it } from "vitest";
import { ESP32, SMALL, crcValid, makePayload, newSim, openLog, sameBytes } from "./storage-fixtures";
import { computeLayout } from "../src/storage/regionLayout";
import { createSlotLog } from "../src/storage/slotLog";

describe("SlotLog basics", () => {
  it("lays 48 payload slots into a 4 KiB sector", () => {
    const r = computeLayout({ address: 0x310000, size: 65536, sectorSize: 4096 });
    expect(r.layout?.slotsPerSector).toBe(48);
    expect(r.layout?.slotsOffset).toBe(60);
    expect(r.layout?.sectorCount).toBe(16);
  });

  it("reports an empty region, then returns the newest save after each save", () => {
    const sim = newSim(SMALL, { strict: true });
    const log = openLog(sim, SMALL);
    expect(log.load().status).toBe("empty");
    for (let i = 1; i <= 60; i++) {
      const s = log.save(makePayload(i));
      expect(s.status).toBe("ok");
      const boot = openLog(sim, SMALL).load();
      expect(boot.status).toBe("ok");
      expect(boot.checks).toBe(1);
      expect(sameBytes(boot.payload, makePayload(i))).toBe(true);
    }
  });

  it("works on the ESP32 geometry", () => {
    const sim = newSim(ESP32, { strict: true });
    const log = openLog(sim, ESP32);
    for (let i = 1; i <= 1000; i++) expect(log.save(makePayload(i)).status).toBe("ok");
    const boot = openLog(sim, ESP32).load();
    expect(boot.status).toBe("ok");
    expect(sameBytes(boot.payload, makePayload(1000))).toBe(true);
    expect(crcValid(boot.payload!)).toBe(true);
  });

  it("rejects bad region parameters with a message", () => {
    const sim = newSim(SMALL);
    const r = createSlotLog({ flash: sim, address: 0x1000, size: 512, sectorSize: 512, isValidPayload: crcValid });
    expect(r.status).toBe("bad-config");
    expect(r.message).toMatch(/two sectors/);
  });
});
