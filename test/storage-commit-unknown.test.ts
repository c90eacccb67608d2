/**
 * A save that reports a plain failure is never the one a later boot returns: once the commit mark
 * write has been issued, a failure to confirm the mark is "commit-unknown" (this save or the previous
 * one may be newest), and a plain failure ("read-failed", "write-failed", ...) promises the previous
 * save is still the newest. Pinned with failures injected at the mark's write and read-back, followed
 * by a save cut at its first write (so the next boot cannot simply see a newer committed save).
 */
import { describe, expect, it } from "vitest";
import { StatusFlash, FlashStatus } from "../src/storage/flash";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { createSlotLog, SlotLog } from "../src/storage/slotLog";
import { PAIR, SMALL, Geometry, crcValid, makePayload, newSim, sameBytes } from "./storage-fixtures";

/**
 * The flash of `sim` where the `nth` write (0-based, counted from arming) lands completely but then
 * reports a failure, as a status or by throwing: a write the driver complained about that did program.
 */
function landsThenFails(sim: NorFlashSim, how: "status" | "throw"): { flash: StatusFlash; arm: (nth: number) => void } {
  let left = -1;
  const flash: StatusFlash = {
    pageSize: sim.pageSize,
    read: (n, a) => sim.read(n, a),
    erasePage: (a) => sim.erasePage(a),
    write: (d, a): FlashStatus => {
      const s = sim.write(d, a);
      if (left === 0) {
        left = -1;
        if (s === "ok") {
          if (how === "throw") throw new Error("injected: write landed, then threw");
          return "write-failed";
        }
      } else if (left > 0) left--;
      return s;
    },
  };
  return { flash, arm: (nth) => (left = nth) };
}

function logOver(flash: StatusFlash, g: Geometry): SlotLog {
  return createSlotLog({ ...g, flash, isValidPayload: crcValid }).log!;
}

/** Save A cleanly, run save B under `inject`, then cut save C at its very first write and boot. */
function afterFailedSave(g: Geometry, makeFlash: (sim: NorFlashSim) => { flash: StatusFlash; inject: () => void }) {
  const sim = newSim(g, { strict: true });
  const { flash, inject } = makeFlash(sim);
  const log = logOver(flash, g);
  const a = makePayload(1);
  const b = makePayload(2);
  expect(log.save(a).status).toBe("ok");
  inject();
  const rb = log.save(b);
  sim.clearFailures();
  sim.cutPowerAfter({ afterMutations: 0, writeTear: "none" });
  log.save(makePayload(3));
  sim.powerOn();
  const boot = logOver(sim, g).load();
  return { rb, boot, a, b };
}

describe("a save that may have committed says so", () => {
  it("the reviewer's case: the mark's read-back fails twice -> commit-unknown, and the boot may return it", () => {
    // save B reads: its mark, its slot, the payload read-back, then the mark read-back (and its retry)
    const { rb, boot, b } = afterFailedSave(PAIR, (sim) => ({ flash: sim, inject: () => sim.injectFailure({ op: "read", mode: "status", after: 3, count: 2 }) }));
    expect(rb.status).toBe("commit-unknown");
    expect(rb.message).toMatch(/may or may not/);
    expect(boot.status).toBe("ok");
    expect(sameBytes(boot.payload, b)).toBe(true); // the mark did land
  });

  it("one failed read-back of the mark is retried: the save is ok", () => {
    const { rb, boot, b } = afterFailedSave(PAIR, (sim) => ({ flash: sim, inject: () => sim.injectFailure({ op: "read", mode: "throw", after: 3, count: 1 }) }));
    expect(rb.status).toBe("ok");
    expect(sameBytes(boot.payload, b)).toBe(true);
  });

  for (const how of ["status", "throw"] as const) {
    it("a mark write that lands but reports failure (" + how + ") -> commit-unknown", () => {
      // save B writes its payload (write 0), then its mark (write 1)
      const { rb, boot, b } = afterFailedSave(PAIR, (sim) => {
        const w = landsThenFails(sim, how);
        return { flash: w.flash, inject: () => w.arm(1) };
      });
      expect(rb.status).toBe("commit-unknown");
      expect(sameBytes(boot.payload, b)).toBe(true);
    });
  }

  it("a mark write that reports failure and did not land stays a plain write-failed: the previous save is newest", () => {
    // the payload write is write 0 of save B, the mark write is write 1
    const { rb, boot, a } = afterFailedSave(PAIR, (sim) => ({ flash: sim, inject: () => sim.injectFailure({ op: "write", mode: "status", after: 1, count: 1 }) }));
    expect(rb.status).toBe("write-failed");
    expect(sameBytes(boot.payload, a)).toBe(true);
  });

  it("whatever fails during a save, a plain failure is never what a later boot returns", () => {
    let plain = 0;
    let unknown = 0;
    for (const g of [PAIR, SMALL]) {
      for (let after = 0; after < 8; after++) {
        for (const count of [1, 2, 3]) {
          const cases: ((sim: NorFlashSim) => { flash: StatusFlash; inject: () => void })[] = [
            (sim) => ({ flash: sim, inject: () => sim.injectFailure({ op: "read", mode: "status", after, count }) }),
            (sim) => ({ flash: sim, inject: () => sim.injectFailure({ op: "read", mode: "throw", after, count }) }),
            (sim) => ({ flash: sim, inject: () => sim.injectFailure({ op: "write", mode: "status", after, count }) }),
            (sim) => {
              const w = landsThenFails(sim, count === 1 ? "status" : "throw");
              return { flash: w.flash, inject: () => w.arm(after) };
            },
          ];
          for (const c of cases) {
            const { rb, boot, a, b } = afterFailedSave(g, c);
            expect(boot.status).toBe("ok");
            if (rb.status === "ok" || rb.status === "commit-unknown") {
              expect(sameBytes(boot.payload, a) || sameBytes(boot.payload, b)).toBe(true);
              if (rb.status === "ok") expect(sameBytes(boot.payload, b)).toBe(true);
              else unknown++;
            } else {
              plain++;
              expect({ status: rb.status, boot: sameBytes(boot.payload, a) ? "previous" : "the failed save" }).toEqual({ status: rb.status, boot: "previous" });
            }
          }
        }
      }
    }
    expect(plain).toBeGreaterThan(10);
    expect(unknown).toBeGreaterThan(2);
  });
});
