/**
 * Boot: restore the newest save (with the absence rule when the wall clock is plausible) or hatch,
 * and say which and why in exactly one line.
 */
import { describe, expect, it } from "vitest";
import { startPet } from "../firmware/app";
import { bootPet, fakeEnv, newFlash, rawFlashOver, REGION, testBoard } from "./firmware-fakes";
import { nameFromString } from "../src/core/name";
import { createWorld } from "../src/core/world";
import { saveWorld } from "../src/save/codec";
import { deviceName } from "../scripts/lib/build.js";

const JUNE_2026 = Date.UTC(2026, 5, 1);

describe("boot on an empty region", () => {
  it("hatches Pip, prints one line saying why, and saves the new pet", () => {
    const sim = newFlash();
    const { env, app } = bootPet({ sim });
    expect(env.lines).toEqual(["no save found: region empty, hatched Pip"]);
    expect(app.bootLine).toBe(env.lines[0]);
    expect(app.pet.status()?.name).toBe("Pip");
    expect(sim.stats.writes).toBeGreaterThan(0);

    // The next boot finds it.
    const env2 = bootPet({ sim }).env;
    expect(env2.lines).toEqual(["restored Pip, updates 0"]);
  });

  it("uses the profile's defaultPetName, and Pip when that is not a valid name", () => {
    const env = bootPet({ board: { defaultPetName: "Mochi" } }).env;
    expect(env.lines).toEqual(["no save found: region empty, hatched Mochi"]);
    const env2 = bootPet({ board: { defaultPetName: "x".repeat(40) } }).env;
    expect(env2.lines).toEqual(["no save found: region empty, hatched Pip"]);
  });

  it("takes the name's bytes the build embeds (deviceName), and the text when those are not a valid name", () => {
    const { app, env } = bootPet({ board: { defaultPetName: "Mochi", ...deviceName({ defaultPetName: "Zo\u00eb" }) } });
    expect(env.lines).toEqual(["no save found: region empty, hatched Zoe"]);
    expect(app.pet.status()?.nameHex).toBe("5a6fc3ab");
    const env2 = bootPet({ board: { defaultPetName: "Mochi", defaultPetNameBytes: [0x4d, 0, 0x6f] } }).env;
    expect(env2.lines).toEqual(["no save found: region empty, hatched Mochi"]);
  });

  it("publishes the pet object and starts a one-second loop", () => {
    const { env, app } = bootPet();
    expect(env.globals["pet"]).toBe(app.pet);
    expect(env.intervalPeriods()).toEqual([1000]);
  });
});

describe("boot with saves present", () => {
  it("restores the newest save and continues from it", () => {
    const sim = newFlash();
    const { env, app } = bootPet({ sim });
    env.advance(10000);
    expect(app.pet.rename("Biscuit")).toBe("ok");
    env.advance(3000);
    expect(app.pet.save()).toBe("ok");
    const before = app.pet.status();
    app.stop();

    const { env: env2, app: app2 } = bootPet({ sim });
    expect(env2.lines).toEqual(["restored Biscuit, updates " + before?.updateCount]);
    expect(app2.pet.status()).toEqual(before);
  });

  it("adds the time away when both the save and the boot know the wall clock", () => {
    const sim = newFlash();
    const { env, app } = bootPet({ sim, wallClockMs: JUNE_2026 });
    env.advance(2000);
    expect(app.pet.save()).toBe("ok");
    const saved = app.pet.status();
    expect(saved?.savedAtMs).toBe(String(JUNE_2026 + 2000)); // whole ms: Date.now()'s fraction dropped

    const { env: env2, app: app2 } = bootPet({ sim, wallClockMs: JUNE_2026 + 2000 + 3600000 });
    expect(env2.lines).toEqual(["restored Pip, updates " + saved?.updateCount + ", away 3600 s"]);
    expect(Number(app2.pet.status()?.elapsedMs)).toBe(Number(saved?.elapsedMs) + 3600000);
  });

  it("adds nothing when the booting device has no plausible wall clock", () => {
    const sim = newFlash();
    const { app } = bootPet({ sim, wallClockMs: JUNE_2026 });
    expect(app.pet.save()).toBe("ok");
    const saved = app.pet.status();
    // An ESP32 nobody gave the time to counts from 1970.
    const { env: env2, app: app2 } = bootPet({ sim, wallClockMs: 5000 });
    expect(env2.lines).toEqual(["restored Pip, updates " + saved?.updateCount]);
    expect(app2.pet.status()?.elapsedMs).toBe(saved?.elapsedMs);
    // Saves made without a wall clock carry the restored stamp plus the time lived since boot.
    env2.advance(4000);
    expect(app2.pet.save()).toBe("ok");
    expect(app2.pet.status()?.savedAtMs).toBe(String(JUNE_2026 + 4000));
  });

  it("says why when the region holds foreign data, hatches and saves (nothing of ours to lose)", () => {
    const sim = newFlash();
    const junk = new Uint8Array(REGION.size);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 7 + 3) & 0xff;
    sim.poke(REGION.address, junk);
    const env = bootPet({ sim }).env;
    expect(env.lines.length).toBe(1);
    expect(env.lines[0]).toMatch(/^no save found: region holds no pet log \(.+\), hatched Pip$/);
    const env2 = bootPet({ sim }).env;
    expect(env2.lines).toEqual(["restored Pip, updates 0"]);
  });

  it("runs Pip without saving when the codec refuses the save at boot time (clock overflow from the absence)", () => {
    // A valid payload whose world clock is at 2^64 - 1 loads without a wall clock but overflows with one.
    const w = createWorld(nameFromString("Old") as Uint8Array)!;
    w.elapsed = { hi: 0xffffffff, lo: 0xffffffff };
    const bytes = saveWorld(w, JUNE_2026).bytes!;
    const sim = newFlash();
    const { app } = bootPet({ sim, wallClockMs: JUNE_2026 });
    expect(app.pet.importHex(Buffer.from(bytes).toString("hex"))).toBe("ok");
    app.stop();

    const image = sim.image();
    const env2 = bootPet({ sim, wallClockMs: JUNE_2026 + 60000 }).env;
    expect(env2.lines).toEqual([
      "save rejected: clock-overflow; running Pip without saving; pet.hatch() or pet.importHex() to start over",
    ]);
    env2.advance(600000);
    expect(sim.image()).toEqual(image);
  });

  it("skips a damaged newest save and restores the one before it", () => {
    const sim = newFlash();
    const { app } = bootPet({ sim });
    expect(app.pet.rename("First")).toBe("ok");
    expect(app.pet.rename("Second")).toBe("ok");
    // Flip one bit in the newest payload: slot 2 of sector 0 (boot save, First, Second).
    const slotsOffset = 12 + 48;
    const at = REGION.address + slotsOffset + 2 * 84 + 50;
    const b = sim.read(1, at).bytes!;
    sim.poke(at, new Uint8Array([b[0]! ^ 4]));
    const env2 = bootPet({ sim }).env;
    expect(env2.lines).toEqual(["restored First, updates 0 (passed over 1 newer unreadable save)"]);
  });
});

describe("boot after a power cut during the very first save", () => {
  // The first save after the hatch writes, on an empty region: the erase of sector 0 (mutation 0),
  // its header (1), the payload (2), the commit mark (3). A cut at 1 or 2 leaves a log sector with
  // no set mark: no save ever committed, so there is nothing to protect and the next boot must hatch
  // and save, not pause saving for good.
  for (const cutAt of [0, 1, 2, 3]) {
    for (const tear of ["none", "all", "words"] as const) {
      it("cut at mutation " + cutAt + " (" + tear + "): the next boot restores or hatches, and saving works", () => {
        const sim = newFlash(1);
        sim.cutPowerAfter({ afterMutations: cutAt, writeTear: tear, eraseTear: "mixed" });
        bootPet({ sim, stopped: true });
        expect(sim.poweredOff).toBe(true);
        sim.powerOn();
        const { env: env2, app: app2 } = bootPet({ sim });
        expect(env2.lines.length).toBe(1);
        expect(env2.lines[0]).toMatch(/^(no save found: (region empty|log holds no committed save|region holds no pet log \(.+\)), hatched Pip|restored Pip, updates 0)$/);
        if (env2.lines[0]!.startsWith("no save found")) {
          // the hatch was saved at once: a third boot restores it
          const env3 = bootPet({ sim, stopped: true }).env;
          expect(env3.lines).toEqual(["restored Pip, updates 0"]);
        }
        expect(app2.pet.save()).toBe("ok");
        app2.stop();
      });
    }
  }

  it("a log sector with a header and a torn payload but no set mark: 'no save found: log holds no committed save, hatched Pip', saved", () => {
    const sim = newFlash(1);
    sim.cutPowerAfter({ afterMutations: 2, writeTear: "words" });
    startPet(testBoard(), fakeEnv({ flash: rawFlashOver(sim) })).stop();
    sim.powerOn();
    const { env: env2, app: app2 } = bootPet({ sim });
    expect(env2.lines).toEqual(["no save found: log holds no committed save, hatched Pip"]);
    expect(app2.pet.save()).toBe("ok");
  });
});
