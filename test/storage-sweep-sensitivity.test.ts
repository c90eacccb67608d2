/**
 * The power-cut sweep can fail: run against deliberately broken set-ups it reports lost or mixed
 * saves. And the validity check is a second line of defence: with the commit order broken but the
 * CRC check in place, the boot falls back to an older slot (a second check) instead of returning a
 * torn payload.
 */
import { describe, expect, it } from "vitest";
import { StatusFlash } from "../src/storage/flash";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { computeLayout } from "../src/storage/regionLayout";
import { ALL_TEARS, replaySweep } from "../src/storage/powerCut";
import { SMALL, makePayload } from "./storage-fixtures";

const layout = computeLayout(SMALL).layout!;

/** A flash that programs a slot's commit mark before its payload: the order SlotLog must not use. */
function markFirst(sim: NorFlashSim): StatusFlash {
  return {
    pageSize: sim.pageSize,
    read: (l, a) => sim.read(l, a),
    erasePage: (a) => sim.erasePage(a),
    write: (data, address) => {
      if (data.length === layout.payloadLength) {
        const off = (address - SMALL.address) % SMALL.sectorSize;
        const sectorBase = address - off;
        const slot = (off - layout.slotsOffset) / layout.payloadLength;
        const m = sim.write(new Uint8Array([0]), sectorBase + layout.marksOffset + slot);
        if (m !== "ok") return m;
      }
      return sim.write(data, address);
    },
  };
}

function sweep(hooks: Parameters<typeof replaySweep>[0]["hooks"]) {
  const payloads: Uint8Array[] = [];
  for (let i = 0; i < 30; i++) payloads.push(makePayload(8000 + i));
  return replaySweep({ geometry: SMALL, payloads, tears: ALL_TEARS, seeds: [1], nested: false, continuation: [], hooks });
}

describe("the power-cut sweep detects broken logs", () => {
  it("mark before payload, no real validity check: torn payloads come back and are reported", () => {
    const r = sweep({ wrapFlash: markFirst, isValidPayload: () => true, strict: false });
    expect(r.problems.length).toBeGreaterThan(0);
    expect(r.problems.join("\n")).toMatch(/neither the previous nor the in-flight/);
  });

  it("an erase that hits the sector before the one asked for (the newest): lost pets are reported", () => {
    const eraseBehind = (sim: NorFlashSim): StatusFlash => ({
      pageSize: sim.pageSize,
      read: (l, a) => sim.read(l, a),
      write: (d, a) => sim.write(d, a),
      erasePage: (a) => sim.erasePage(a === SMALL.address ? SMALL.address + SMALL.size - SMALL.sectorSize : a - SMALL.sectorSize),
    });
    const r = sweep({ wrapFlash: eraseBehind });
    expect(r.problems.join("\n")).toMatch(/lost the pet|neither the previous/);
  });

  it("mark before payload but the CRC check in place: nothing lost, the boot needs a second check", () => {
    // not strict: the wrapper has already programmed the mark SlotLog is about to write
    const r = sweep({ wrapFlash: markFirst, strict: false });
    expect(r.problems).toEqual([]);
    expect(r.worstChecks).toBe(2);
  });

  it("the correct log under the same sweep: no problems, one check", () => {
    const r = sweep(undefined);
    expect(r.problems).toEqual([]);
    expect(r.worstChecks).toBe(1);
  });
});
