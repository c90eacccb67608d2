/**
 * The button: a short press interacts, a held press lights the LED at five seconds and hatches a new
 * pet when released. The watch is debounced and reports both edges.
 */
import { describe, expect, it } from "vitest";
import { LONG_PRESS_MS, MAX_LONG_PRESS_MS } from "../firmware/button";
import { bootPet, pressButton } from "./firmware-fakes";

const started = () => bootPet();

describe("button", () => {
  it("watches the profile's pin on both edges with a 50 ms debounce, repeating", () => {
    const { env } = started();
    expect(env.watches.length).toBe(1);
    expect(env.watches[0]!.pin).toBe("D0");
    expect(env.watches[0]!.options).toEqual({ repeat: true, edge: "both", debounce: 50 });
    expect(env.pinModes).toEqual([{ pin: "D0", mode: "input_pullup" }]);
  });

  it("has no watch and no LED when the profile has no button or LED", () => {
    const env = bootPet({ board: { button: undefined, led: undefined } }).env;
    expect(env.watches.length).toBe(0);
    expect(env.ledWrites.length).toBe(0);
  });

  it("interacts on a short press and saves", () => {
    const { env, app, counters } = started();
    env.advance(3000);
    const writes = counters.payloadWrites;
    pressButton(env, 200);
    expect(app.world().activity).toBe(3); // idle + interact = playing
    expect(app.world().expression).toBe(1); // happy
    expect(counters.payloadWrites).toBe(writes + 1);
  });

  it("lights the LED at five seconds, hatches on release and turns the LED off", () => {
    const { env, app } = started();
    expect(app.pet.rename("Old")).toBe("ok");
    env.advance(20000);
    expect(app.world().updateCount.lo).toBeGreaterThan(0);
    const w = env.watches[0]!;
    w.fn({ state: false, time: env.getTime() });
    env.advance(LONG_PRESS_MS - 100);
    expect(env.ledWrites.filter((x) => x.value === 1).length).toBe(0);
    env.advance(200);
    expect(env.ledWrites[env.ledWrites.length - 1]).toEqual({ pin: "D2", value: 1 });
    env.advance(1000);
    w.fn({ state: true, time: env.getTime() });
    expect(env.ledWrites[env.ledWrites.length - 1]).toEqual({ pin: "D2", value: 0 });
    const s = app.pet.status()!;
    expect(s.name).toBe("Pip");
    expect(s.updateCount).toBe("0");
    expect(s.elapsedMs).toBe("0");
  });

  it("treats a press just under the threshold as short", () => {
    const { env, app } = started();
    app.pet.rename("Keep");
    pressButton(env, LONG_PRESS_MS - 60);
    expect(app.pet.status()!.name).toBe("Keep");
    expect(app.world().activity).toBe(3);
  });

  it("ignores a release it never saw pressed; a repeated press edge starts a new press (the up was lost)", () => {
    const { env, app } = started();
    app.pet.rename("Keep");
    const w = env.watches[0]!;
    const before = app.pet.status();
    w.fn({ state: true, time: env.getTime() });
    expect(app.pet.status()).toEqual(before);
    w.fn({ state: false, time: env.getTime() });
    env.advance(3000);
    w.fn({ state: false, time: env.getTime() });
    env.advance(3000);
    w.fn({ state: true, time: env.getTime() });
    // Six seconds from the first edge but three from the second: short.
    expect(app.pet.status()!.name).toBe("Keep");
    expect(app.world().activity).toBe(3);
  });

  it("supports an active-high button", () => {
    const { env, app } = bootPet({ board: { button: { pin: "D5", activeLow: false } } });
    expect(env.pinModes).toEqual([{ pin: "D5", mode: "input_pulldown" }]);
    const w = env.watches[0]!;
    w.fn({ state: true, time: env.getTime() });
    env.advance(100);
    w.fn({ state: false, time: env.getTime() });
    expect(app.world().activity).toBe(3);
  });
});

describe("button and clock jumps", () => {
  /** Presses for `ms` of real time, with the clock set by `jumpSec` after `jumpAfterMs` of it. */
  function pressAcrossJump(env: ReturnType<typeof started>["env"], ms: number, jumpAfterMs: number, jumpSec: number): void {
    const w = env.watches[0]!;
    w.fn({ state: false, time: env.getTime() });
    env.advance(jumpAfterMs);
    env.setClockBy(jumpSec);
    env.advance(ms - jumpAfterMs);
    w.fn({ state: true, time: env.getTime() });
  }

  it("a short press during which the clock is set forwards is still short", () => {
    for (const jump of [6, 30, 56 * 365 * 86400]) {
      const { env, app } = started();
      app.pet.rename("Keep");
      env.advance(3000);
      pressAcrossJump(env, 200, 100, jump);
      expect(app.pet.status()!.name).toBe("Keep");
      expect(app.pet.status()!.updateCount).not.toBe("0"); // not a new pet
    }
  });

  it("a short press during which the clock is set backwards is still short", () => {
    const { env, app } = started();
    app.pet.rename("Keep");
    pressAcrossJump(env, 200, 100, -3600);
    expect(app.pet.status()!.name).toBe("Keep");
    expect(app.world().activity).toBe(3);
  });

  it("a press whose timer fired early but that measures absurdly long is short (SNTP jump on the ESP32)", () => {
    const { env, app } = started();
    app.pet.rename("Keep");
    pressAcrossJump(env, LONG_PRESS_MS + 500, LONG_PRESS_MS + 100, 3600);
    expect(app.pet.status()!.name).toBe("Keep");
  });

  it("a press held past the plausible maximum is short; one just inside it hatches", () => {
    const a = started();
    a.app.pet.rename("Keep");
    pressButton(a.env, MAX_LONG_PRESS_MS + 1000);
    expect(a.app.pet.status()!.name).toBe("Keep");
    const b = started();
    b.app.pet.rename("Keep");
    pressButton(b.env, MAX_LONG_PRESS_MS - 1000);
    expect(b.app.pet.status()!.name).toBe("Pip");
  });

  it("a tap after a lost release is short, however long ago the lost press began", () => {
    const { env, app } = started();
    app.pet.rename("Keep");
    const w = env.watches[0]!;
    w.fn({ state: false, time: env.getTime() });
    env.advance(200); // the release edge is lost
    env.advance(10000);
    pressButton(env, 200);
    expect(app.pet.status()!.name).toBe("Keep");
    expect(app.world().activity).toBe(3);
  });
});
