/**
 * The loop's idle step (RunningPet.tick_) must do exactly what the full step would: two pets booted
 * alike go through the same random run of ticks and owner actions, one ticking as the device does,
 * the other told before every tick that its world changed (app.worldChanged()), which sends every
 * tick down the full step. After every action their worlds, console lines, display traffic, status
 * objects and flash bytes must be the same. The runs cover the cases that end an idle stretch: an
 * activity or expression change, the periodic save, a sub-millisecond or clamped tick, a clock set
 * backwards, interactions, saves, renames, hatches, imports, failing writes and the wall clock
 * becoming known, and pet.exportHex() inside a stretch. Some runs start from a save stamped by a board
 * that knew the wall clock, restored by one that does not (its absence owed until the clock is
 * known). IDLE_STEP_RUNS sets the number of random runs (default 60).
 *
 * Each run also counts the steps each pet took: the forced pet took no idle step at all, and the
 * pet ticking as the device does took many, so the agreement is between the two paths and cannot
 * hold by the full step having run on both sides.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { bootPet, newFlash, type BootedPet } from "./firmware-fakes";
import { PERIODIC_SAVE_MS } from "../firmware/savePolicy";
import { RunningPet } from "../firmware/runningPet";
import type { DisplayProfile } from "../src/boards/boardProfile";
import { createWorld } from "../src/core/world";
import { bytesToHex } from "../src/core/hex";
import { saveWorld } from "../src/save/codec";

const DISPLAY: DisplayProfile = { driver: "ssd1306-i2c", width: 128, height: 64, address: 0x3c, i2c: { scl: "D22", sda: "D21", bitrate: 400000 } };

type Action =
  | { kind: "tick"; ms: number }
  | { kind: "ticks"; count: number }
  | { kind: "interact" }
  | { kind: "save" }
  | { kind: "rename"; name: string }
  | { kind: "hatch" }
  | { kind: "reimport" }
  | { kind: "failWrites"; count: number }
  | { kind: "clockBack"; seconds: number }
  | { kind: "wallClock" }
  | { kind: "export" }
  | { kind: "nearCarry" };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 30, arbitrary: fc.constant<Action>({ kind: "ticks", count: 1 }) },
  { weight: 10, arbitrary: fc.integer({ min: 2, max: 400 }).map((count): Action => ({ kind: "ticks", count })) },
  {
    weight: 8,
    arbitrary: fc
      .oneof(fc.constantFrom(0, 0.2, 0.49, 0.5, 0.51, 1, 999.5, 1000.4, 59999.4, 59999.6, 60000, 61000, PERIODIC_SAVE_MS), fc.double({ min: 0, max: 90000, noNaN: true }))
      .map((ms): Action => ({ kind: "tick", ms })),
  },
  { weight: 2, arbitrary: fc.constant<Action>({ kind: "interact" }) },
  { weight: 1, arbitrary: fc.constant<Action>({ kind: "save" }) },
  { weight: 1, arbitrary: fc.constantFrom("Bo", "Zoë", "", "x".repeat(40)).map((name): Action => ({ kind: "rename", name })) },
  { weight: 1, arbitrary: fc.constant<Action>({ kind: "hatch" }) },
  { weight: 1, arbitrary: fc.constant<Action>({ kind: "reimport" }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }).map((count): Action => ({ kind: "failWrites", count })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }).map((seconds): Action => ({ kind: "clockBack", seconds })) },
  { weight: 1, arbitrary: fc.constant<Action>({ kind: "wallClock" }) },
  { weight: 3, arbitrary: fc.constant<Action>({ kind: "export" }) },
  { weight: 1, arbitrary: fc.constant<Action>({ kind: "nearCarry" }) },
);

/** A pet 40 updates short of its update count's carry into the high half, as pet.importHex() takes it. */
const NEAR_CARRY_HEX = ((): string => {
  const world = createWorld(new TextEncoder().encode("Carry"))!;
  world.updateCount = { hi: 0, lo: 0xffffffff - 40 };
  return bytesToHex(saveWorld(world, 0).bytes!);
})();

/** The wall clock the runs use when a board knows it. */
const WALL_MS = 1767225600000;

/**
 * Loop steps per running pet (tick_) and how many of them took the full step (tickFully_); the
 * rest were idle steps. Counted by wrapping the two methods, installed before any pet boots
 * (startPet binds tick_ once, at boot); `booted` is the RunningPet of the last pet booted.
 */
const steps = new WeakMap<object, { ticks: number; full: number }>();
let booted: object | null = null;
const proto = RunningPet.prototype as unknown as { tick_: () => void; tickFully_: (now: number) => void; boot_: (...args: unknown[]) => string };
const original = { tick_: proto.tick_, tickFully_: proto.tickFully_, boot_: proto.boot_ };
beforeAll(() => {
  proto.boot_ = function (this: object, ...args: unknown[]): string {
    booted = this;
    steps.set(this, { ticks: 0, full: 0 });
    return original.boot_.apply(this, args);
  };
  proto.tick_ = function (this: object): void {
    (steps.get(this) as { ticks: number }).ticks++;
    original.tick_.call(this);
  };
  proto.tickFully_ = function (this: object, now: number): void {
    (steps.get(this) as { full: number }).full++;
    original.tickFully_.call(this, now);
  };
});
afterAll(() => {
  Object.assign(proto, original);
});

/** A pet booted with `options`, and the count of its loop steps. */
function bootCounted(options: Parameters<typeof bootPet>[0]): { pet: BootedPet; steps: { ticks: number; full: number } } {
  const pet = bootPet(options);
  running.set(pet, booted as object);
  return { pet, steps: steps.get(booted as object) as { ticks: number; full: number } };
}

/** Moves the fake time by `ms` and runs one loop step; `full` first sends it down the full step. */
function tick(p: BootedPet, ms: number, full: boolean): void {
  p.env.advance(ms);
  if (full) p.app.worldChanged();
  p.app.tick();
}

function apply(p: BootedPet, a: Action, full: boolean): void {
  switch (a.kind) {
    case "tick":
      return tick(p, a.ms, full);
    case "ticks":
      for (let i = 0; i < a.count; i++) tick(p, 1000, full);
      return;
    case "interact":
      p.app.pet.interact();
      return;
    case "save":
      p.app.pet.save();
      return;
    case "rename":
      p.app.pet.rename(a.name);
      return;
    case "hatch":
      p.app.pet.hatch();
      return;
    case "reimport":
      p.app.pet.importHex(p.app.pet.exportHex());
      return;
    case "failWrites":
      p.sim.injectFailure({ op: "write", mode: "status", count: a.count });
      return;
    case "clockBack":
      p.env.setClockBy(-a.seconds);
      return;
    case "wallClock":
      p.env.setWallClock(WALL_MS);
      return;
    case "export":
      exported.set(p, p.app.pet.exportHex());
      return;
    case "nearCarry":
      p.app.pet.importHex(NEAR_CARRY_HEX);
      return;
  }
}

/** Each booted pet's RunningPet (its uptime is observed: the save policy's clock). */
const running = new WeakMap<BootedPet, object>();

/** Each pet's last pet.exportHex(). */
const exported = new WeakMap<BootedPet, unknown>();

/** Everything the owner or the next boot could tell apart. */
function observed(p: BootedPet): unknown {
  return {
    exported: exported.get(p) ?? null,
    world: JSON.stringify(p.app.world(), (_k, v: unknown) => (v instanceof Uint8Array ? Array.from(v) : v)),
    // After app.world(), which applies the idle steps: the clock the periodic save and the clockless
    // stamps are timed by, which no run here could otherwise tell apart (an activity changes and
    // saves before the periodic save is due, and no stretch starts while a stamp is estimated).
    uptime: (running.get(p) as { uptime_: number }).uptime_,
    status: p.app.pet.status(),
    lines: p.env.lines.slice(0),
    i2c: p.env.i2cWrites.length,
    lastI2c: p.env.i2cWrites[p.env.i2cWrites.length - 1] ?? null,
    flash: Buffer.from(p.sim.read(p.sim.size, p.sim.baseAddress).bytes as Uint8Array).toString("base64"),
  };
}

/** Runs `actions` on both pets, checking they agree throughout; answers the idle steps the device-like pet took. */
function agree(actions: Action[], withDisplay: boolean, from: "erased" | "stamped save" = "erased"): number {
  const options = withDisplay ? { board: { display: DISPLAY }, withDisplayHardware: true, stopped: true } : { stopped: true };
  const region = from === "erased" ? null : (stampedRegion ??= stampRegion());
  const flash = (): { sim?: ReturnType<typeof newFlash> } => {
    if (region === null) return {};
    const sim = newFlash();
    sim.poke(sim.baseAddress, region);
    return { sim };
  };
  const { pet: idle, steps: idleSteps } = bootCounted({ ...options, ...flash() });
  const { pet: full, steps: fullSteps } = bootCounted({ ...options, ...flash() });
  expect(observed(idle)).toEqual(observed(full));
  for (const a of actions) {
    apply(idle, a, false);
    apply(full, a, true);
    expect(observed(idle)).toEqual(observed(full));
  }
  // The forced pet took the full step every time; the other pet took the same number of steps.
  expect(fullSteps.full).toBe(fullSteps.ticks);
  expect(idleSteps.ticks).toBe(fullSteps.ticks);
  return idleSteps.ticks - idleSteps.full;
}

/** A region holding a save written by a board that knew the wall clock (the pets booted over it do not). */
function stampRegion(): Uint8Array {
  const writer = bootPet({ wallClockMs: WALL_MS, stopped: true });
  for (let i = 0; i < 5; i++) tick(writer, 1000, false);
  expect(writer.app.pet.save()).toBe("ok");
  return writer.sim.image();
}

/** Written once, by the first run that needs it, and copied into each such run's flash. */
let stampedRegion: Uint8Array | null = null;

describe("the idle step does what the full step would", () => {
  const runs = Number(process.env.IDLE_STEP_RUNS ?? 60);
  it("on random runs of ticks and owner actions, console lines only", () => {
    let idleSteps = 0;
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 40 }), (actions) => {
        idleSteps += agree(actions, false);
      }),
      { numRuns: runs },
    );
    expect(idleSteps).toBeGreaterThan(20 * runs);
  });
  it("on random runs of ticks and owner actions, with a panel", () => {
    let idleSteps = 0;
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 40 }), (actions) => {
        idleSteps += agree(actions, true);
      }),
      { numRuns: Math.ceil(runs / 2) },
    );
    expect(idleSteps).toBeGreaterThan(10 * runs);
  });
  it("on random runs from a stamped save restored without a wall clock", () => {
    let idleSteps = 0;
    fc.assert(
      // Each run learns the wall clock somewhere (a random action of weight 1 in 60 left some seeds'
      // runs with no idle step at all): the actions before it run with the absence still owed.
      fc.property(
        fc.tuple(fc.array(action, { maxLength: 20 }), fc.array(action, { minLength: 1, maxLength: 20 })).map(([before, after]): Action[] => [...before, { kind: "wallClock" }, ...after]),
        (actions) => {
          idleSteps += agree(actions, false, "stamped save");
        },
      ),
      { numRuns: Math.ceil(runs / 2) },
    );
    // Fewer than from an erased region: no stretch starts before a wallClock action pays the absence.
    expect(idleSteps).toBeGreaterThan(5 * runs);
  });
  it("through a long quiet stretch and the periodic saves that end it", () => {
    // Ten minutes of one-second ticks: the idle stretches and the activity changes (each of which
    // saves) between them, all with the same outcome as ten minutes of full steps.
    expect(agree([{ kind: "ticks", count: 600 }], false)).toBeGreaterThan(500);
  });
  it("across the update count's carry into its high half", () => {
    // The idle steps are counted on and applied at once (settle_), past the low half's end.
    expect(agree([{ kind: "nearCarry" }, { kind: "ticks", count: 30 }, { kind: "ticks", count: 30 }], false)).toBeGreaterThan(40);
  });
  it("while the pet sleeps, whose stretch is longer than advance_'s one-minute clamp", () => {
    // Tick a probe pet until it falls asleep (180 s of sleep: the one stretch longer than a minute),
    // then give both pets those ticks and steps of one minute and more.
    const probe = bootPet({ stopped: true });
    let ticks = 0;
    while (probe.app.world().activity !== 4 && ticks < 5000) {
      tick(probe, 1000, false);
      ticks++;
    }
    expect(probe.app.world().activity).toBe(4);
    // (The tick it fell asleep in saved, so the stretch starts a tick later.)
    const idleSteps = agree([{ kind: "ticks", count: ticks + 2 }, { kind: "tick", ms: 61000 }, { kind: "ticks", count: 2 }, { kind: "tick", ms: 60000 }, { kind: "tick", ms: 59999.6 }, { kind: "ticks", count: 400 }], false);
    expect(idleSteps).toBeGreaterThan(ticks / 2 + 300);
  });
});
