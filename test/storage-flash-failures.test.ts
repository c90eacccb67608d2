/**
 * Failures from the flash layer (a status, an adapter that throws, or a write/erase that silently
 * does nothing or only half, as on the ESP32 port) come back as statuses, never as exceptions, and a failed save
 * leaves the previous save readable.
 */
import { describe, expect, it } from "vitest";
import { FailureMode, NorFlashSim } from "../src/storage/norFlashSim";
import { SAFE_READ_MIN, deviceFlash, FLASH_STATUSES, isFlashStatus, thrownStatus } from "../src/storage/flash";
import { createSlotLog } from "../src/storage/slotLog";
import { SMALL, crcValid, makePayload, newSim, openLog, sameBytes } from "./storage-fixtures";

const OPS: ("read" | "write" | "erase")[] = ["read", "write", "erase"];
const MODES: FailureMode[] = ["status", "throw", "silent", "half"];

/** A log with `count` saves in it, returned with the last payload. */
function withSaves(count: number): { sim: NorFlashSim; last: Uint8Array } {
  const sim = newSim(SMALL);
  const log = openLog(sim, SMALL);
  let last = makePayload(0);
  for (let i = 1; i <= count; i++) {
    last = makePayload(i);
    log.save(last);
  }
  return { sim, last };
}

describe("flash failures become statuses", () => {
  // 4 saves: the next save writes into a sector with room; 5: it erases a blank sector;
  // 20: it erases a sector holding old saves (4 sectors x 5 slots).
  for (const before of [4, 5, 20]) {
    for (const op of OPS) {
      for (const mode of MODES) {
        if (op === "read" && (mode === "silent" || mode === "half")) continue;
        it(op + " fails (" + mode + ") at each step of a save after " + before + " saves", () => {
          let failedSaves = 0;
          for (let after = 0; after < 12; after++) {
            const { sim, last } = withSaves(before);
            const log = openLog(sim, SMALL);
            expect(log.load().status).toBe("ok");
            sim.injectFailure({ op, mode, after, count: 1 });
            const next = makePayload(999);
            const r = log.save(next);
            sim.clearFailures();
            expect(typeof r.status).toBe("string");
            const boot = openLog(sim, SMALL).load();
            expect(boot.status).toBe("ok");
            if (r.status === "ok") {
              expect(sameBytes(boot.payload, next)).toBe(true);
            } else {
              failedSaves++;
              expect(r.message.length).toBeGreaterThan(3);
              expect(sameBytes(boot.payload, last) || sameBytes(boot.payload, next)).toBe(true);
            }
            // and the log keeps working once the flash behaves again
            const again = makePayload(1000 + after);
            const log2 = openLog(sim, SMALL);
            log2.load();
            expect(log2.save(again).status).toBe("ok");
            expect(sameBytes(openLog(sim, SMALL).load().payload, again)).toBe(true);
          }
          const saveErases = before !== 4;
          const lies = mode === "silent" || mode === "half";
          if (!lies && (op !== "erase" || saveErases)) expect(failedSaves).toBeGreaterThan(0);
          // A write or erase that silently does nothing, or only half, once is caught by the read-back and retried.
          if (lies) expect(failedSaves).toBe(0);
        });
      }
    }
  }

  it("a flash that fails every write reports write-failed or verify-failed and keeps the old save", () => {
    for (const mode of ["status", "throw", "silent"] as FailureMode[]) {
      const { sim, last } = withSaves(7);
      const log = openLog(sim, SMALL);
      log.load();
      sim.injectFailure({ op: "write", mode });
      for (let i = 0; i < 8; i++) {
        const r = log.save(makePayload(500 + i));
        expect(["write-failed", "verify-failed"]).toContain(r.status);
      }
      sim.clearFailures();
      expect(sameBytes(openLog(sim, SMALL).load().payload, last)).toBe(true);
    }
  });

  it("an erase that never works (silently) is caught by the read-back: verify-failed, old save kept", () => {
    const { sim, last } = withSaves(20);
    const log = openLog(sim, SMALL);
    log.load();
    sim.injectFailure({ op: "erase", mode: "silent" });
    const r = log.save(makePayload(600));
    expect(r.status).toBe("verify-failed");
    expect(r.erased).toBe(true);
    sim.clearFailures();
    expect(sameBytes(openLog(sim, SMALL).load().payload, last)).toBe(true);
  });

  it("a load whose reads fail reports read-failed", () => {
    for (const mode of ["status", "throw"] as FailureMode[]) {
      for (let after = 0; after < 6; after++) {
        const { sim } = withSaves(3);
        sim.injectFailure({ op: "read", mode, after, count: 1 });
        const boot = openLog(sim, SMALL).load();
        if (boot.status !== "ok") expect(boot.status).toBe("read-failed");
      }
    }
  });

  it("a throwing Flash module (Espruino's shape, called directly) becomes statuses", () => {
    const throwing = {
      read(): Uint8Array {
        throw new Error("boom");
      },
      write(): void {
        throw new Error("boom");
      },
      erasePage(): void {
        throw new Error("boom");
      },
    };
    const r = createSlotLog({ device: throwing, pageSize: 512, address: 0, size: 2048, sectorSize: 512, isValidPayload: crcValid });
    const boot = r.log!.load();
    expect(boot.status).toBe("read-failed");
    expect(boot.flashStatus).toBe("read-failed");
    expect(r.log!.save(makePayload(1)).status).toBe("read-failed");
  });

  it("a Flash module whose writes or erases throw: write-failed / erase-failed, the old save kept", () => {
    for (const op of ["write", "erasePage"] as const) {
      const { sim } = withSaves(3);
      const dev = deviceFlash(sim);
      let failing = false;
      const mod = {
        read: (n: number, a: number) => dev.read(n, a),
        write: (d: Uint8Array, a: number) => {
          if (failing && op === "write") throw new Error("boom");
          dev.write(d, a);
        },
        erasePage: (a: number) => {
          if (failing && op === "erasePage") throw new Error("boom");
          dev.erasePage(a);
        },
      };
      const log = createSlotLog({ ...SMALL, device: mod, pageSize: 512, isValidPayload: crcValid }).log!;
      expect(log.load().status).toBe("ok");
      failing = true;
      // Enough saves to need a new sector, so the erase is reached too.
      let status = "ok";
      for (let i = 0; i < 12 && status === "ok"; i++) status = log.save(makePayload(100 + i)).status;
      expect(status).toBe(op === "write" ? "write-failed" : "erase-failed");
      const after = openLog(sim, SMALL).load();
      expect(after.status).toBe("ok");
      expect(crcValid(after.payload!)).toBe(true);
    }
  });

  it("a working Flash-like module in Espruino's shape saves and loads", () => {
    const sim = newSim(SMALL, { strict: true });
    const raw = {
      read: (length: number, addr: number) => sim.read(length, addr).bytes as Uint8Array,
      write: (data: Uint8Array, addr: number) => void sim.write(data, addr),
      erasePage: (addr: number) => void sim.erasePage(addr),
    };
    const r = createSlotLog({ ...SMALL, device: raw, pageSize: 512, isValidPayload: crcValid });
    const p = makePayload(77);
    expect(r.log?.save(p).status).toBe("ok");
    expect(sameBytes(r.log?.load().payload ?? null, p)).toBe(true);
  });

  it("deviceFlash carries the simulator's own status through the throw", () => {
    const sim = newSim(SMALL);
    sim.injectFailure({ op: "read", mode: "status", after: 0, count: 1 });
    let thrown: unknown = null;
    try {
      deviceFlash(sim).read(SAFE_READ_MIN, SMALL.address);
    } catch (e) {
      thrown = e;
    }
    expect(thrownStatus(thrown, "write-failed")).toBe("read-failed");
    expect(thrownStatus(new Error("Espruino's own"), "erase-failed")).toBe("erase-failed");
    expect(thrownStatus({ flashStatus: "power-lost" }, "read-failed")).toBe("power-lost");
  });

  it("a validity check that throws counts as invalid and does not escape", () => {
    const { sim } = withSaves(3);
    const r = createSlotLog({
      ...SMALL,
      flash: sim,
      isValidPayload: () => {
        throw new Error("bad check");
      },
    });
    const boot = r.log!.load();
    expect(boot.status).toBe("no-valid-save");
  });

  it("a payload of the wrong length is refused by name", () => {
    const log = openLog(newSim(SMALL), SMALL);
    const r = log.save(new Uint8Array(80));
    expect(r.status).toBe("bad-length");
    expect(r.message).toMatch(/84/);
  });
});

describe("isFlashStatus", () => {
  it("knows exactly the statuses FLASH_STATUSES lists", () => {
    for (const s of FLASH_STATUSES) expect(isFlashStatus(s), s).toBe(true);
    for (const s of ["", "OK", "read", "failed", "verify-failed", "commit-unknown", null, undefined, 0, {}]) expect(isFlashStatus(s), String(s)).toBe(false);
  });
});
