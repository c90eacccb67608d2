/**
 * A save the storage answers with "commit-unknown" (the commit mark was written but its read-back
 * failed twice, commit_ in src/storage/slotLog.ts) may or may not be what the next boot returns. The firmware
 * must not leave it at that: it retries the save without the owner doing anything, and the save
 * that then succeeds is the newest one, so a boot brings back the live pet.
 */
import { describe, expect, it } from "vitest";
import { startPet } from "../firmware/app";
import { RETRY_AFTER_FAILURE_MS } from "../firmware/savePolicy";
import { bootPet, fakeEnv, newFlash, plainSlotLog, rawFlashOver, testBoard } from "./firmware-fakes";
import { loadWorld, saveWorld } from "../src/save/codec";
import { createWorld } from "../src/core/world";
import { nameFromString } from "../src/core/name";
import { bytesToHex } from "../src/core/hex";
import { Activity, Expression } from "../src/core/types";
import type { NorFlashSim } from "../src/storage/norFlashSim";

function newestWorld(sim: NorFlashSim) {
  const r = plainSlotLog(sim).load();
  expect(r.status).toBe("ok");
  return loadWorld(r.payload!, 0).world!;
}

/**
 * A pet that fell asleep and has slept `ms` since it was saved. Asleep for three minutes, it asks for
 * no save of its own meanwhile (an activity change would), so only a retry can write. Its next save
 * reads: mark, slot, payload back, mark back.
 */
function running(ms: number) {
  const sim = newFlash();
  const counters = { payloadWrites: 0 };
  const env = fakeEnv({ flash: rawFlashOver(sim, counters) });
  const app = startPet(testBoard(), env);
  const nap = createWorld(nameFromString("Nap")!)!;
  nap.activity = Activity.Sleeping;
  nap.expression = Expression.Sleepy;
  expect(app.pet.importHex(bytesToHex(saveWorld(nap, 0).bytes!))).toBe("ok");
  env.advance(ms);
  return { sim, env, app, counters };
}

/** Fails the mark's read-back and its one retry in the next save. */
function failMarkReadBackTwice(sim: NorFlashSim): void {
  sim.injectFailure({ op: "read", mode: "throw", after: 3, count: 2 });
}

describe("a save that comes back commit-unknown", () => {
  for (const how of ["pet.save()", "pet.interact()"] as const) {
    it("after " + how + ": is retried by the loop, and the retried save makes the live pet the newest", () => {
      const { sim, env, app, counters } = running(4500);
      failMarkReadBackTwice(sim);
      const writesBefore = counters.payloadWrites;
      if (how === "pet.save()") expect(app.pet.save()).toMatch(/^commit-unknown \(.*may or may not/);
      else expect(app.pet.interact()).toBe("ok");
      expect(counters.payloadWrites).toBe(writesBefore + 1);
      expect(env.lines[env.lines.length - 1]).toMatch(/save failed: commit-unknown/);
      sim.clearFailures();
      // The mark landed: the unconfirmed save IS the newest now, but the pet lives on past it.
      env.advance(RETRY_AFTER_FAILURE_MS - 1000);
      expect(counters.payloadWrites).toBe(writesBefore + 1); // not hammered every tick
      // The retry, without the owner, at the first tick the retry gap after the failed attempt; the
      // live pet is compared with it before a later tick moves the pet on.
      for (let waited = 0; waited < 2000 && counters.payloadWrites === writesBefore + 1; waited += 500) env.advance(500);
      expect(counters.payloadWrites).toBe(writesBefore + 2);
      expect(env.lines[env.lines.length - 1]).toMatch(/, saved$/);
      expect(app.world().activity).toBe(Activity.Sleeping); // no activity change asked for this save
      expect(newestWorld(sim)).toEqual(app.world());
      const live = app.pet.status()!;
      app.stop();

      const { env: env2, app: app2 } = bootPet({ sim });
      expect(env2.lines).toEqual(["restored Nap, updates " + live.updateCount]);
      expect(app2.pet.status()).toEqual(live);
    });
  }

  it("the next successful save after it is the newest even when it comes from the owner at once", () => {
    const { sim, env, app } = running(2500);
    failMarkReadBackTwice(sim);
    expect(app.pet.save()).toMatch(/^commit-unknown/);
    sim.clearFailures();
    env.advance(700);
    expect(app.pet.rename("Next")).toBe("ok");
    expect(newestWorld(sim)).toEqual(app.world());
    expect(newestWorld(sim).name).toEqual(new Uint8Array(Buffer.from("Next")));
  });
});
