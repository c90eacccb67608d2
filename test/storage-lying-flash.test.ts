/**
 * Flash that lies, on the simulator: an erase that does nothing (Espruino's ESP32 port built with
 * ESP-IDF 5), a write that does nothing, a write that lands half, each reporting success. The slot
 * log reads back every write and checks every erase, so a save that runs into one fails with a
 * message naming the fault; the last confirmed save is still the one a boot returns, the region
 * stays readable, and once the flash behaves again the log carries on. The same faults, by the same
 * names and with the same answers, are injected into the interpreter in
 * test/firmware-lying-flash-on-espruino.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ESP32, makePayload, newSim, openLog, sameBytes } from "./storage-fixtures";
import { LYING_FLASH, saveAnswer } from "./lying-flash-faults";
import { scanRegion } from "../src/storage/regionScan";
import { computeLayout } from "../src/storage/regionLayout";
import { crcValid } from "./storage-fixtures";
import type { NorFlashSim } from "../src/storage/norFlashSim";

const layout = computeLayout(ESP32, ESP32.sectorSize).layout!;
const SLOTS = layout.slotsPerSector;

/** A region that wrapped once (every sector used), its newest sector three slots short of full. */
function wrapped(): { sim: NorFlashSim; id: number } {
  const sim = newSim(ESP32);
  const log = openLog(sim, ESP32);
  let id = 0;
  for (; id < layout.sectorCount * SLOTS + SLOTS - 3; id++) expect(log.save(makePayload(id)).status).toBe("ok");
  return { sim, id };
}

describe("flash that lies (simulator)", () => {
  for (const fault of LYING_FLASH) {
    it(fault.name + ": the failed save names it, the last confirmed save still loads, the log recovers", () => {
      const { sim, id: first } = wrapped();
      const log = openLog(sim, ESP32);
      expect(log.load().status).toBe("ok");
      sim.injectFailure({ op: fault.rule.op, mode: fault.rule.mode });
      let confirmed: Uint8Array | null = null;
      let answer = "ok";
      for (let id = first; answer === "ok" && id < first + SLOTS; id++) {
        const payload = makePayload(id);
        answer = saveAnswer(log.save(payload));
        if (answer === "ok") confirmed = payload;
      }
      expect(answer).toMatch(fault.says);
      // An erase that does nothing shows only when a used sector must be erased: after the last slots.
      if (fault.rule.op === "erase") expect(confirmed).not.toBeNull();
      // A second failed save, as the firmware's retry makes, changes nothing of that.
      expect(saveAnswer(log.save(makePayload(9999)))).toMatch(fault.says);
      const boot = openLog(sim, ESP32).load();
      expect(boot.status).toBe("ok");
      expect(sameBytes(boot.payload, confirmed ?? makePayload(first - 1))).toBe(true);
      expect(scanRegion(sim, layout, crcValid).status).toBe("ok");
      sim.clearFailures();
      const after = makePayload(77777);
      const next = openLog(sim, ESP32);
      next.load();
      expect(next.save(after).status).toBe("ok");
      expect(sameBytes(openLog(sim, ESP32).load().payload, after)).toBe(true);
    });
  }

  it("a write that lands half once costs a slot, not the save; an erase that lands half costs slots, not saves", () => {
    const { sim, id } = wrapped();
    const log = openLog(sim, ESP32);
    log.load();
    sim.injectFailure({ op: "write", mode: "half", count: 1 });
    const p = makePayload(id);
    const r = log.save(p);
    expect(r.status).toBe("ok");
    expect(sameBytes(openLog(sim, ESP32).load().payload, p)).toBe(true);
    sim.clearFailures();
    // Half of each erased sector keeps its old slots: they are not blank, so they are skipped.
    sim.injectFailure({ op: "erase", mode: "half" });
    let last = p;
    for (let k = 1; k <= 3 * SLOTS; k++) {
      last = makePayload(id + k);
      expect(log.save(last).status).toBe("ok");
    }
    expect(sameBytes(openLog(sim, ESP32).load().payload, last)).toBe(true);
  });
});
