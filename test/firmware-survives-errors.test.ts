/**
 * Nothing the flash does or the owner types stops the loop: exceptions become one printed line and
 * the pet keeps living.
 */
import { RunningPet } from "../firmware/runningPet";
import { describe, expect, it } from "vitest";
import { startPet } from "../firmware/app";
import { REGION, bootPet, fakeEnv, newFlash, rawFlashOver, testBoard } from "./firmware-fakes";
import { layoutForRegion } from "../src/storage/regionLayout";
import type { EspruinoFlash } from "../src/storage/flash";

/** A require("Flash") whose every call throws. */
const brokenFlash: EspruinoFlash = {
  read() {
    throw new Error("flash on fire");
  },
  write() {
    throw new Error("flash on fire");
  },
  erasePage() {
    throw new Error("flash on fire");
  },
};

describe("a flash adapter that throws", () => {
  it("at boot: runs Pip without saving, says so in one line, and the loop runs", () => {
    const env = fakeEnv({ flash: brokenFlash });
    const app = startPet(testBoard(), env);
    expect(env.lines.length).toBe(1);
    expect(env.lines[0]).toMatch(/^save unreadable: flash read failed \(.+\); running Pip without saving; /);
    env.advance(60000);
    expect(app.pet.status()!.elapsedMs).toBe("60000");
    expect(app.pet.interact()).toBe("ok");
    expect(app.pet.save()).toBe("paused");
    // Starting over is the owner's call; then the broken flash shows as a save failure.
    expect(app.pet.hatch()).toMatch(/^read-failed/);
  });

  it("mid-run: saves fail as statuses, the loop carries on, and saving works again afterwards", () => {
    const sim = newFlash();
    const { env, app } = bootPet({ sim });
    env.advance(5000);
    sim.injectFailure({ op: "write", mode: "throw" });
    sim.injectFailure({ op: "read", mode: "throw" });
    sim.injectFailure({ op: "erase", mode: "throw" });
    expect(app.pet.interact()).toBe("ok");
    expect(app.pet.save()).not.toBe("ok");
    env.advance(120000);
    expect(app.pet.status()!.elapsedMs).toBe("125000");
    expect(env.lines.some((l) => l.indexOf("save failed") >= 0)).toBe(true);
    sim.clearFailures();
    expect(app.pet.save()).toBe("ok");
  });

  it("a flash object whose methods are missing is a status, not a crash", () => {
    const env = fakeEnv({ flash: {} as EspruinoFlash });
    const app = startPet(testBoard(), env);
    expect(env.lines.length).toBe(1);
    env.advance(3000);
    expect(app.pet.status()!.elapsedMs).toBe("3000");
  });
});

describe("bad input and broken capabilities", () => {
  it("a region the slot log cannot use: the pet runs unsaved and says so", () => {
    const { env, app } = bootPet({ board: { petRegion: { address: 0x310000, size: 4096, pageSize: 4096 } } });
    expect(env.lines[0]).toMatch(/^storage unavailable: bad-config \(.+\), hatched Pip \(not saved\)$/);
    env.advance(2000);
    expect(app.pet.save()).toBe("no-storage");
    expect(app.pet.status()!.elapsedMs).toBe("2000");
  });

  it("a layout that describes another region is refused: the pet runs unsaved and says so", () => {
    const elsewhere = layoutForRegion({ ...REGION, address: REGION.address + REGION.pageSize }).layout!;
    const { env, app } = bootPet({ board: { petLayout: elsewhere } });
    expect(env.lines[0]).toMatch(/^storage unavailable: bad-config \(.*layout.*\), hatched Pip \(not saved\)$/);
    expect(app.pet.save()).toBe("no-storage");
  });

  it("getTime throwing in one tick costs that tick only", () => {
    // The idle step reads getTime() outside any try (Espruino's cannot throw): a throw there goes to
    // the host, which reports it and keeps the interval, as Espruino does (checked on 2v06 and 2v29).
    const env = fakeEnv({ flash: rawFlashOver(newFlash()) });
    const realGetTime = env.getTime;
    let broken = false;
    env.getTime = () => {
      if (broken) throw new Error("no clock");
      return realGetTime();
    };
    const app = startPet(testBoard(), env);
    env.advance(5000); // into an idle stretch
    broken = true;
    env.advance(1000);
    expect(env.lines[env.lines.length - 1]).toBe("Uncaught Error: no clock");
    broken = false;
    env.advance(1000);
    expect(app.pet.status()!.elapsedMs).toBe("7000");
    expect(env.timerCount()).toBe(1);
  });

  it("an error in the full step is caught there: one line, and the loop goes on", () => {
    const { env, app } = bootPet();
    const world = app.world();
    const realAdvance = (RunningPet.prototype as unknown as { advance_: unknown }).advance_;
    const proto = RunningPet.prototype as unknown as { advance_: (...a: unknown[]) => string };
    proto.advance_ = () => {
      throw new Error("broken step");
    };
    try {
      app.worldChanged();
      env.advance(1000);
    } finally {
      proto.advance_ = realAdvance as (...a: unknown[]) => string;
    }
    expect(env.lines[env.lines.length - 1]).toBe("pet: tick failed: Error: broken step");
    env.advance(1000);
    expect(app.world()).toBe(world);
    expect(app.pet.status()!.elapsedMs).toBe("2000");
  });

  it("console methods given nonsense return statuses", () => {
    const { env, app } = bootPet();
    expect(app.pet.rename(null as unknown as string)).toBe("bad-name");
    expect(app.pet.hatch({} as unknown as string)).toBe("bad-name");
    expect(app.pet.importHex(12 as unknown as string)).toBe("bad-hex");
    expect(env.timerCount()).toBe(1); // the loop is still there
  });

  it("a display that fails falls back to status lines", () => {
    const env = fakeEnv({ flash: rawFlashOver(newFlash()), withDisplayHardware: true });
    const board = testBoard({
      display: { driver: "ssd1306-i2c", width: 128, height: 64, address: 0x3c, i2c: { scl: "D22", sda: "D21", bitrate: 400000 } },
    });
    const realSetup = env.setupI2C!;
    let broken = false; // the panel works through the boot, then stops answering
    env.setupI2C = (scl, sda, rate) => {
      const bus = realSetup(scl, sda, rate);
      return {
        writeTo(addr, a, b) {
          if (broken) throw new Error("I2C NACK");
          bus.writeTo(addr, a, b);
        },
      };
    };
    const app = startPet(board, env);
    expect(env.lines.some((l) => l.indexOf("display failed") === 0)).toBe(false);
    broken = true;
    env.advance(1000);
    app.pet.interact();
    expect(env.lines.some((l) => l.indexOf("display failed: Error: I2C NACK") === 0)).toBe(true);
    env.advance(60000);
    expect(env.lines.some((l) => /^Pip: \w+, \w+, updates \d+/.test(l))).toBe(true);
  });
});
