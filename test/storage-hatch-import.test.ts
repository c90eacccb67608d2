/**
 * The newest save is the one written last, whatever its counters say: hatching a new pet (counters
 * back to 0) and importing an older save carry the same guarantees as any other save, power cuts
 * included.
 */
import { describe, expect, it } from "vitest";
import { ALL_TEARS, replaySweep } from "../src/storage/powerCut";
import { SMALL, makePayload, newSim, openLog, sameBytes } from "./storage-fixtures";

/** Update counts go 500, 501, ... then a hatch (0, 1, 2 ...), then an import of an old save (3, then 499). */
function history(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < 24; i++) out.push(makePayload(100 + i, 500 + i)); // a long-lived pet
  for (let i = 0; i < 20; i++) out.push(makePayload(200 + i, i)); // hatched: counters from 0
  out.push(makePayload(300, 3)); // imported save with a low counter
  out.push(makePayload(301, 499)); // and another one older than the first pet's last save
  for (let i = 0; i < 10; i++) out.push(makePayload(400 + i, 4 + i)); // the imported pet lives on
  return out;
}

describe("SlotLog picks the newest save by log order, not by payload counters", () => {
  it("returns the hatched pet right after a hatch, and an imported older save right after an import", () => {
    const sim = newSim(SMALL, { strict: true });
    const log = openLog(sim, SMALL);
    for (let i = 0; i < 24; i++) log.save(makePayload(100 + i, 500 + i));
    const hatched = makePayload(200, 0);
    expect(log.save(hatched).status).toBe("ok");
    expect(sameBytes(openLog(sim, SMALL).load().payload, hatched)).toBe(true);
    const imported = makePayload(123, 523); // byte-identical to the pet's last save before the hatch
    expect(log.save(imported).status).toBe("ok");
    expect(sameBytes(openLog(sim, SMALL).load().payload, imported)).toBe(true);
    const older = makePayload(300, 3);
    expect(log.save(older).status).toBe("ok");
    const boot = openLog(sim, SMALL).load();
    expect(sameBytes(boot.payload, older)).toBe(true);
    expect(boot.checks).toBe(1);
  });

  it("every cut point through a hatch and an import, every tear mode, nested cuts", () => {
    const report = replaySweep({
      geometry: SMALL,
      payloads: history(),
      tears: ALL_TEARS,
      seeds: [5],
      nested: true,
      continuation: [makePayload(900, 0), makePayload(901, 0), makePayload(902, 1), makePayload(903, 0), makePayload(904, 2), makePayload(905, 0)],
    });
    expect(report.problems.slice(0, 5)).toEqual([]);
    expect(report.reboots).toBeGreaterThan(500);
    expect(report.worstChecks).toBeLessThanOrEqual(1);
  });
});
