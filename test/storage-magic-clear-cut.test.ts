/**
 * The one step that makes a torn erase harmless when the sector being opened is newer than the one
 * holding the last committed save P (after a run of cut saves): its magic word is cleared before the
 * erase. Cut exactly at that clearing write (every write tear), and at every word of the erase that
 * follows (the words on one side erased, it random, the rest as they were) and with the "mixed" tear (each
 * word old, erased or random) for many seeds: the boot returns P with one check, and saving goes on.
 * A control puts the magic back over the same torn sectors and shows that without the clearing those
 * tears would cost checks on garbage in front of P (the old header surviving over random marks).
 */
import { describe, expect, it } from "vitest";
import { NorFlashSim, WriteTear, createPrng } from "../src/storage/norFlashSim";
import { RegionLayout, computeLayout, encodeHeader, markAddress, sectorAddress, slotAddress } from "../src/storage/regionLayout";
import { Geometry, PAIR, SMALL, makePayload, newSim, openLog, sameBytes } from "./storage-fixtures";

/** Sector 0 holds P (seq 10, slot 0); every other sector is newer and full of slots that never committed. */
function stormState(g: Geometry, seed: number): { sim: NorFlashSim; l: RegionLayout } {
  const l = computeLayout(g).layout!;
  const sim = newSim(g, { strict: true, trace: true, seed });
  sim.poke(sectorAddress(l, 0), encodeHeader(l, 10));
  sim.poke(slotAddress(l, 0, 0), makePayload(1));
  sim.poke(markAddress(l, 0, 0), new Uint8Array([0]));
  for (let sector = 1; sector < l.sectorCount; sector++) {
    sim.poke(sectorAddress(l, sector), encodeHeader(l, 10 + sector));
    for (let s = 0; s < l.slotsPerSector; s++) sim.poke(slotAddress(l, sector, s), makePayload(100 + s).subarray(0, 20));
  }
  return { sim, l };
}

/**
 * The next save's mutations from a dry run on a copy: the index of its erase, the sector erased, and
 * whether the mutation just before it is the 4-byte clearing write of that sector's magic.
 */
function stepsOfNextSave(g: Geometry): { clear: number; erase: number; target: number; clearsFirst: boolean } {
  const { sim, l } = stormState(g, 1);
  const log = openLog(sim, g);
  log.load();
  sim.resetStats();
  expect(log.save(makePayload(2)).status).toBe("ok");
  const muts = sim.trace.filter((t) => t.op !== "read");
  const erase = muts.findIndex((t) => t.op === "erase");
  const at = muts[erase]!.address;
  const before = muts[erase - 1]!;
  const clearsFirst = before.op === "write" && before.length === 4 && before.address === at;
  let target = -1;
  for (let k = 0; k < l.sectorCount; k++) if (sectorAddress(l, k) === at) target = k;
  return { clear: erase - 1, erase, target, clearsFirst };
}

/** Boots: P with exactly one check, then a save works and the next boot returns it. */
function bootFindsP(sim: NorFlashSim, g: Geometry, what: string): void {
  const log = openLog(sim, g);
  const boot = log.load();
  expect({ what, status: boot.status, checks: boot.checks, p: sameBytes(boot.payload, makePayload(1)) }).toEqual({ what, status: "ok", checks: 1, p: true });
  const next = makePayload(3);
  expect(log.save(next).status).toBe("ok");
  const again = openLog(sim, g).load();
  expect({ what, next: sameBytes(again.payload, next), checks: again.checks }).toEqual({ what, next: true, checks: 1 });
}

const WRITE_TEARS: WriteTear[] = ["none", "all", "prefix", "words", "bits"];

describe("a cut at the magic clearing or in the erase after it", () => {
  for (const [gname, g] of [["4 x 512", SMALL], ["2 x 512", PAIR]] as [string, Geometry][]) {
    const steps = stepsOfNextSave(g);

    it(gname + ": the save clears the magic of the sector it opens (newer than P's) just before erasing it", () => {
      expect(steps.target).not.toBe(0);
      expect(steps.clearsFirst).toBe(true);
    });

    it(gname + ": cut at the clearing write, every tear: P with one check", () => {
      for (const tear of WRITE_TEARS) {
        for (let seed = 1; seed <= 6; seed++) {
          const { sim } = stormState(g, seed);
          const log = openLog(sim, g);
          log.load();
          sim.cutPowerAfter({ afterMutations: steps.clear, writeTear: tear });
          log.save(makePayload(2));
          expect(sim.poweredOff).toBe(true);
          sim.powerOn();
          bootFindsP(sim, g, "clear " + tear + " seed " + seed);
        }
      }
    });

    it(gname + ": cut at each word of the erase after the clearing, and mixed tears: P with one check; without the clearing they would cost checks", () => {
      let controlsCostingChecks = 0;
      const check = (sim: NorFlashSim, l: RegionLayout, what: string) => {
        // the control first, on a copy: the same torn marks under the sector's old header intact, as a
        // torn erase can leave it when the magic was not cleared first
        const control = new NorFlashSim({ size: g.size, pageSize: g.sectorSize, baseAddress: g.address, initial: sim.image() });
        control.poke(sectorAddress(l, steps.target), encodeHeader(l, 10 + steps.target));
        const c = openLog(control, g).load();
        if (!(c.status === "ok" && c.checks === 1 && sameBytes(c.payload, makePayload(1)))) controlsCostingChecks++;
        bootFindsP(sim, g, what);
      };
      const words = g.sectorSize / 4;
      // An erase may run through the sector in either direction: the words on one side of word w
      // are erased, w itself is half way (random), the other side is as it was.
      for (let cutWord = 0; cutWord < 2 * words; cutWord++) {
        const upward = cutWord < words;
        const w = upward ? cutWord : cutWord - words;
        const { sim, l } = stormState(g, cutWord + 1);
        const log = openLog(sim, g);
        log.load();
        // power dies in the erase with nothing erased; then the erase's progress is written by hand
        sim.cutPowerAfter({ afterMutations: steps.erase, eraseTear: "none" });
        log.save(makePayload(2));
        expect(sim.poweredOff).toBe(true);
        const base = sectorAddress(l, steps.target);
        sim.powerOn();
        const r = createPrng(cutWord * 7919 + 1);
        if (upward) sim.poke(base, new Uint8Array(4 * w).fill(0xff));
        else sim.poke(base + 4 * (w + 1), new Uint8Array(g.sectorSize - 4 * (w + 1)).fill(0xff));
        sim.poke(base + 4 * w, new Uint8Array([r() & 0xff, r() & 0xff, r() & 0xff, r() & 0xff]));
        check(sim, l, "erase cut at word " + w + (upward ? " (erasing upwards)" : " (erasing downwards)"));
      }
      for (let seed = 1; seed <= 400; seed++) {
        const { sim, l } = stormState(g, seed);
        const log = openLog(sim, g);
        log.load();
        sim.cutPowerAfter({ afterMutations: steps.erase, eraseTear: "mixed" });
        log.save(makePayload(2));
        expect(sim.poweredOff).toBe(true);
        sim.powerOn();
        check(sim, l, "mixed erase seed " + seed);
      }
      // the clearing mattered in these situations: some of the same tears over an intact magic cost checks
      expect(controlsCostingChecks).toBeGreaterThan(20);
    });
  }
});
