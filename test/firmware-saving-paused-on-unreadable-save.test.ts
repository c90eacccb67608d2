/**
 * A boot that finds a log of ours but cannot use its save (a read that failed this once, damaged
 * committed slots, a save only a newer firmware can read) must not overwrite it: the default pet runs
 * with saving paused, the restore is retried every minute, and only a successful retry or the owner
 * starting over (pet.hatch(), pet.importHex(), a long press) writes again.
 */
import { describe, expect, it } from "vitest";
import { crc32 as zlibCrc32 } from "node:zlib";
import { startPet } from "../firmware/app";
import { RESTORE_RETRY_MS } from "../firmware/runningPet";
import { LONG_PRESS_MS } from "../firmware/button";
import { bootPet, fakeEnv, newFlash, pressButton, rawFlashOver, REGION, testBoard, plainSlotLog } from "./firmware-fakes";
import { createWorld } from "../src/core/world";
import { nameFromString } from "../src/core/name";
import { saveWorld } from "../src/save/codec";
import type { NorFlashSim } from "../src/storage/norFlashSim";

const PAUSED_LINE_END = "; running Pip without saving; pet.hatch() or pet.importHex() to start over";
/** First payload slot of sector 0: 12-byte sector header, then one commit mark per slot (48). */
const FIRST_SLOT = REGION.address + 12 + 48;

/** A region whose newest save is a pet named Keep, after `ms` of life; returns its status. */
function regionWithKeep(ms: number) {
  const sim = newFlash();
  const { env, app } = bootPet({ sim });
  expect(app.pet.rename("Keep")).toBe("ok");
  env.advance(ms);
  expect(app.pet.save()).toBe("ok");
  const status = app.pet.status()!;
  app.stop();
  return { sim, status };
}

function bootOn(sim: NorFlashSim) {
  const counters = { payloadWrites: 0 };
  const env = fakeEnv({ flash: rawFlashOver(sim, counters) });
  const app = startPet(testBoard(), env);
  return { env, app, counters };
}

describe("saving paused", () => {
  it("damaged committed slots: runs Pip, writes nothing for ten minutes, save and rename answer paused", () => {
    const { sim } = regionWithKeep(5000);
    // Three committed slots (boot save, rename, save): damage each one's payload.
    for (let k = 0; k < 3; k++) {
      const at = FIRST_SLOT + k * 84 + 50;
      sim.poke(at, new Uint8Array([sim.read(1, at).bytes![0]! ^ 4]));
    }
    const image = sim.image();
    const { env, app, counters } = bootOn(sim);
    expect(env.lines).toEqual(["save unreadable: no readable save (3 committed slots failed the validity check)" + PAUSED_LINE_END]);
    expect(app.pet.status()!.name).toBe("Pip");
    env.advance(600000); // activity changes and periodic saves would have written by now
    expect(app.pet.interact()).toBe("ok");
    expect(app.pet.save()).toBe("paused");
    expect(env.lines[env.lines.length - 1]).toMatch(/not saved: saving paused/);
    expect(app.pet.rename("Other")).toBe("paused");
    expect(app.pet.status()!.name).toBe("Pip");
    expect(counters.payloadWrites).toBe(0);
    expect(sim.image()).toEqual(image);
    expect(env.lines.some((l) => /save failed/.test(l))).toBe(false);
  });

  it("a save only a newer firmware can read is left alone", () => {
    const sim = newFlash();
    const bytes = saveWorld(createWorld(nameFromString("Future") as Uint8Array)!, 0).bytes!;
    bytes[30] = 9; // an activity this firmware does not know, with a correct CRC
    const crc = zlibCrc32(bytes.subarray(0, 80)) >>> 0;
    for (let i = 0; i < 4; i++) bytes[80 + i] = (crc >>> (8 * i)) & 0xff;
    const log = plainSlotLog(sim);
    expect(log.save(bytes).status).toBe("ok");
    const image = sim.image();
    const { env, app, counters } = bootOn(sim);
    expect(env.lines[0]).toMatch(/^save unreadable: no readable save \(.+\); running Pip without saving; /);
    env.advance(3 * RESTORE_RETRY_MS + 1000);
    expect(app.pet.save()).toBe("paused");
    expect(counters.payloadWrites).toBe(0);
    expect(sim.image()).toEqual(image);
  });

  it("a read that fails at boot: the restore is retried every minute and the pet comes back", () => {
    const { sim, status } = regionWithKeep(7000);
    sim.injectFailure({ op: "read", mode: "status", count: 1 });
    const { env, app, counters } = bootOn(sim);
    expect(env.lines).toEqual(["save unreadable: flash read failed (could not read a sector header (read-failed))" + PAUSED_LINE_END]);
    env.advance(RESTORE_RETRY_MS - 1000);
    expect(app.pet.status()!.name).toBe("Pip");
    expect(counters.payloadWrites).toBe(0);
    env.advance(1000);
    expect(env.lines).toContain("save readable again: restored Keep, updates " + status.updateCount + "; saving resumed");
    const back = app.pet.status()!;
    expect(back.name).toBe("Keep");
    // No wall clock: the minute the stand-in ran counts as time away for the restored pet.
    expect(Number(back.elapsedMs)).toBe(Number(status.elapsedMs) + RESTORE_RETRY_MS);
    expect(app.pet.interact()).toBe("ok");
    env.advance(1000); // the restored save counts as the last one: the 1 s gap applies
    expect(counters.payloadWrites).toBe(1);
    expect(app.pet.save()).toBe("ok");
  });

  it("pet.hatch() starts over: saving resumes and the next boot restores the new pet", () => {
    const { sim } = regionWithKeep(1000);
    sim.injectFailure({ op: "read", mode: "status", count: 1 });
    const { app } = bootOn(sim);
    expect(app.pet.hatch("Nova")).toBe("ok");
    const next = bootOn(sim);
    expect(next.env.lines).toEqual(["restored Nova, updates 0"]);
  });

  it("pet.importHex() starts over too", () => {
    const { sim } = regionWithKeep(1000);
    sim.injectFailure({ op: "read", mode: "status", count: 1 });
    const { app } = bootOn(sim);
    const hex = Buffer.from(saveWorld(createWorld(nameFromString("Moved") as Uint8Array)!, 0).bytes!).toString("hex");
    expect(app.pet.importHex(hex)).toBe("ok");
    expect(bootOn(sim).env.lines).toEqual(["restored Moved, updates 0"]);
  });

  it("a long press starts over too", () => {
    const { sim } = regionWithKeep(1000);
    sim.injectFailure({ op: "read", mode: "status", count: 1 });
    const { env, counters } = bootOn(sim);
    pressButton(env, LONG_PRESS_MS + 500);
    expect(counters.payloadWrites).toBe(1);
    expect(bootOn(sim).env.lines).toEqual(["restored Pip, updates 0"]);
  });
});
