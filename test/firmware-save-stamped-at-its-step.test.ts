/**
 * pet.save() takes no step of its own: it writes the world as its last step left it (at most a tick
 * ago while the loop runs), stamped with the wall-clock time of that step rather than of the call.
 * So the stamp and the world describe one moment, the next boot counts everything after it as time
 * away (nothing between the step and the call is lost), saves with no step between them are the
 * same bytes, and pet.exportHex() gives those bytes too.
 */
import { describe, expect, it } from "vitest";
import { bootPet, plainSlotLog } from "./firmware-fakes";
import { loadWorld } from "../src/save/codec";
import { bytesToHex } from "../src/core/hex";
import type { NorFlashSim } from "../src/storage/norFlashSim";

const JULY_2026 = Date.UTC(2026, 6, 1);

/** The newest payload in flash, read by an independent SlotLog, and where it is. */
function newest(sim: NorFlashSim): { bytes: Uint8Array; sector: number; slot: number } {
  const r = plainSlotLog(sim).load();
  expect(r.status).toBe("ok");
  return { bytes: r.payload!, sector: r.sector, slot: r.slot };
}

describe("pet.save() writes the world as its last step left it", () => {
  it("stamps it with that step's wall-clock time, and takes no step", () => {
    const { sim, env, app } = bootPet({ wallClockMs: JULY_2026 });
    env.advance(2600); // ticks at 1 s and 2 s; 600 ms since the last one
    const before = app.pet.status()!;
    expect(app.pet.save()).toBe("ok");
    const after = app.pet.status()!;
    expect(after.updateCount).toBe(before.updateCount);
    expect(after.elapsedMs).toBe(before.elapsedMs);
    expect(after.savedAtMs).toBe(String(JULY_2026 + 2000));
    const loaded = loadWorld(newest(sim).bytes, 0);
    expect(loaded.status).toBe("ok");
    expect(String(loaded.savedAt.lo + loaded.savedAt.hi * 2 ** 32)).toBe(String(JULY_2026 + 2000));
    expect(String(loaded.world!.elapsed.lo)).toBe(before.elapsedMs);
  });

  it("writes the same bytes again while no step comes between, and the export is those bytes", () => {
    const { sim, env, app } = bootPet({ wallClockMs: JULY_2026 });
    env.advance(3100);
    expect(app.pet.save()).toBe("ok");
    const first = newest(sim);
    env.advance(300); // no tick: the next is at 4 s
    expect(app.pet.save()).toBe("ok");
    const second = newest(sim);
    expect(second.slot).toBe(first.slot + 1); // written again, not skipped
    expect(bytesToHex(second.bytes)).toBe(bytesToHex(first.bytes));
    expect(app.pet.exportHex()).toBe(bytesToHex(first.bytes));
    env.advance(700); // the tick at 4 s
    expect(app.pet.save()).toBe("ok");
    expect(bytesToHex(newest(sim).bytes)).not.toBe(bytesToHex(first.bytes));
    expect(app.pet.status()!.savedAtMs).toBe(String(JULY_2026 + 4000));
  });

  it("loses nothing across a power cut: the time after the step is time away at the next boot", () => {
    const { sim, env, app } = bootPet({ wallClockMs: JULY_2026 });
    env.advance(5900); // the last tick at 5 s
    const atStep = Number(app.pet.status()!.elapsedMs);
    expect(app.pet.save()).toBe("ok");
    app.stop();
    // The power comes back 10 s after the call, 10.9 s after the step the save holds.
    const back = bootPet({ sim, wallClockMs: JULY_2026 + 5900 + 10000 });
    expect(back.env.lines[0]).toMatch(/^restored Pip, updates \d+, away 11 s$/);
    expect(Number(back.app.pet.status()!.elapsedMs)).toBe(atStep + 10900);
  });

  it("takes at most a minute off the stamp when the clock was set after the step (getTime() jumped with it)", () => {
    const { sim, env, app } = bootPet({ wallClockMs: 0 });
    env.advance(1500); // the tick at 1 s, with no wall clock
    env.setWallClock(JULY_2026);
    env.setClockBy(56 * 365 * 86400); // what setTime does to getTime() on Espruino
    expect(app.pet.save()).toBe("ok");
    const stamp = Number(app.pet.status()!.savedAtMs);
    expect(stamp).toBeGreaterThanOrEqual(JULY_2026 - 60000);
    expect(stamp).toBeLessThanOrEqual(JULY_2026);
    const loaded = loadWorld(newest(sim).bytes, JULY_2026 + 1000);
    expect(loaded.status).toBe("ok");
    expect(loaded.absenceMs).toBeLessThanOrEqual(61000); // not the seven days a stamp from 1970 would give
  });

  it("prints no line when it succeeds on a board without a panel, and why when it does not", () => {
    const { sim, env, app } = bootPet({ wallClockMs: JULY_2026 });
    env.advance(1500);
    const lines = env.lines.length;
    expect(app.pet.save()).toBe("ok");
    expect(env.lines.slice(lines)).toEqual([]);
    sim.injectFailure({ op: "write", mode: "status" });
    expect(app.pet.save()).toMatch(/^write-failed/);
    expect(env.lines[env.lines.length - 1]).toMatch(/^Pip: \w+, \w+, updates \d+, save failed: write-failed/);
  });
});
