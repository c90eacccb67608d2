/**
 * Bench entry for the loop's instruction counts, bundled like the firmware (buildFirmware with this
 * entry, board: the Linux profile with the ESP32's hardware, see below) and uploaded as .bootcde in a copy of the bench's flash file by
 * scripts/bench/firmware.ts. It starts the pet as src/host/espruino/main.ts does, with
 * `startPet(board, espruinoEnv())` (the env's print and flash counted, its getTime and dateNow bench clocks),
 * stops its interval (the bench ticks by hand) and publishes:
 *
 *   app                     the object startPet returned
 *   benchTicks(n, redraw)   warm-up ticks (the same in every run; the current activity's dwell is
 *                           restarted so none of the counted ticks ends it), then n calls of
 *                           app.tick(), each one second later on the loop's clock (n at most 11:
 *                           the shortest activity lasts 12 s); with redraw, the face's expression
 *                           is stepped to the next valid one (0..5), starting now, before each
 *                           tick, so every tick redraws it.
 *                           Answers what the ticks did: status lines printed, flash writes and
 *                           erases, ticks in which the activity or expression changed on its own.
 *                           With dry, every step but app.tick() itself runs: the harness alone,
 *                           which the bench subtracts, as it does for the ops. open and close, when
 *                           given, are called just before and just after the counted ticks: on the
 *                           emulated chip they open and close its instruction-counting window
 *                           (scripts/bench/chip.ts). With settle, the window ends with the idle
 *                           steps applied to the world (app.world(): RunningPet.settle_, which the
 *                           device runs once an idle stretch), and without it they are not.
 *
 * Built with the Linux profile plus the ESP32's SSD1306, button and LED (scripts/bench/firmware.ts):
 * the Linux build has I2C1 and Graphics (writes go nowhere), so redraws draw into the frame buffer and
 * send it, as on the device. A profile without a display would leave the panel code out of the bundle (the build's
 * BOARD_HAS_DISPLAY), so this entry refuses one. The emulated ESP32 has I2C but no SSD1306 on it,
 * and a write there throws (the panel does not acknowledge): where a probe write throws, the panel's
 * I2C becomes one whose writes go nowhere, as on the Linux build, so that the face is drawn and sent
 * there too (`panel` in the report says which). Not part of the firmware.
 */
import board from "virtual:board-profile";
import { startPet, TICK_MS } from "../../firmware/app";
import type { PetBoard } from "../../firmware/board";
import { espruinoEnv } from "../../src/host/espruino/env";

declare const global: { [name: string]: unknown };
declare const require: (name: string) => unknown;

const counts = { lines: 0, writes: 0, erases: 0 };
/** "i2c" when the panel's I2C took the probe write, "none (writes dropped)" when it did not. */
let panel = "not set up";
/** The SSD1306's no-operation command: what the probe writes. */
const SSD1306_NOP = [0x00, 0xe3];
/** The loop clock the pet sees, in seconds like getTime(). */
const clock = { now: 0 };
/** Ticks run before the counted ones, in every run alike: they write a save the boot asked for. */
const WARM_UP_TICKS = 5;
/** Ticks that let a passing expression end (the longest lasts 6 s) after the activity is restarted. */
const SETTLE_TICKS = 7;

function benchBoard(): PetBoard {
  const b = board as PetBoard;
  if (b.display === undefined) throw new Error("firmware-ticks.ts needs a profile with a display: its redraws are the panel's");
  return b;
}

/** The env with its print and flash counted (looked up by name, so a changed env still runs). */
function countedEnv(): ReturnType<typeof espruinoEnv> {
  const env = espruinoEnv();
  const e = env as unknown as { [key: string]: unknown };
  const print = e["print"];
  if (typeof print === "function") {
    e["print"] = function (line: string): void {
      counts.lines++;
      (print as (line: string) => void)(line);
    };
  }
  // The loop's clock: a bench clock that benchTicks moves by TICK_MS before each tick, so every tick
  // sees the device's one-second step whatever valgrind does to the real time.
  const realTime = e["getTime"];
  if (typeof realTime === "function") {
    clock.now = (realTime as () => number)();
    e["getTime"] = function (): number {
      return clock.now;
    };
  }
  // The wall clock: the one the bench stored beside the save (Storage "bench-wall"), moving with the
  // loop's clock, so that every run restores the same save with the same absence and ticks alike.
  const wallFile = (require("Storage") as { read(name: string): string | undefined }).read("bench-wall");
  const wall = wallFile !== undefined ? Number(wallFile) : NaN;
  if (typeof e["dateNow"] === "function" && wall === wall) {
    const start = clock.now;
    e["dateNow"] = function (): number {
      return Math.floor(wall + (clock.now - start) * 1000);
    };
  }
  const setupI2C = e["setupI2C"];
  if (typeof setupI2C === "function") {
    e["setupI2C"] = function (scl: unknown, sda: unknown, bitrate: unknown): unknown {
      const i2c = (setupI2C as (a: unknown, b: unknown, c: unknown) => { writeTo(addr: number, data: unknown): void })(scl, sda, bitrate);
      try {
        i2c.writeTo(benchBoard().display!.address, SSD1306_NOP);
        panel = "i2c";
        return i2c;
      } catch (x) {
        panel = "none (writes dropped)";
        return { writeTo: function (): void {} };
      }
    };
  }
  const raw = e["flash"] as { [key: string]: unknown } | undefined;
  if (raw !== undefined && typeof raw["write"] === "function" && typeof raw["erasePage"] === "function") {
    const wrapped: { [key: string]: unknown } = {};
    for (const key in raw) wrapped[key] = raw[key];
    wrapped["read"] = function (length: number, addr: number): unknown {
      return (raw["read"] as (l: number, a: number) => unknown)(length, addr);
    };
    wrapped["write"] = function (data: unknown, addr: number): void {
      counts.writes++;
      (raw["write"] as (d: unknown, a: number) => void)(data, addr);
    };
    wrapped["erasePage"] = function (addr: number): void {
      counts.erases++;
      (raw["erasePage"] as (a: number) => void)(addr);
    };
    e["flash"] = wrapped;
  }
  return env;
}

const app = startPet(benchBoard(), countedEnv());
app.stop();
global["app"] = app;

global["benchTicks"] = function (
  n: number,
  redraw: boolean,
  dry?: boolean,
  open?: () => void,
  close?: () => void,
  settle?: boolean,
): { ticks: number; fullSteps: number; lines: number; writes: number; erases: number; changedOnTheirOwn: number; panel: string } {
  const noTick = function (): void {};
  let tick = app.tick;
  function step(): void {
    clock.now += TICK_MS / 1000;
    tick();
  }
  /** Restarts the current activity's dwell: no activity change for its whole dwell (12 s or more). */
  function restartActivity(): void {
    const w = app.world();
    w.activitySince = { hi: w.elapsed.hi, lo: w.elapsed.lo };
    app.worldChanged();
  }
  for (let i = 0; i < WARM_UP_TICKS; i++) step();
  restartActivity();
  for (let i = 0; i < SETTLE_TICKS; i++) step();
  restartActivity();
  // restartActivity told the pet its world changed, so the next tick takes the full step (which
  // starts the idle stretch): take it here, uncounted, so the counted idle ticks are all idle steps.
  step();
  if (dry === true) tick = noTick;
  const before = { lines: counts.lines, writes: counts.writes, erases: counts.erases };
  let changed = 0;
  // A full step gives the world a new clock object (the Core's update), an idle step leaves the
  // clock to settle_: counted, so the figures show what the counted ticks were.
  let full = 0;
  // The world read once, before the window: app.world() applies the idle steps taken so far
  // (RunningPet.settle_), and reading it after every tick would apply each one there, which the
  // device does not do. The world object stays (only a restore, hatch or import replaces it).
  const w = app.world();
  if (open !== undefined) open();
  for (let i = 0; i < n; i++) {
    if (redraw) {
      // A new expression that stays for this tick (its dwell starts now), so the tick redraws it.
      w.expression = (w.expression + 1) % 6;
      w.expressionSince = { hi: w.elapsed.hi, lo: w.elapsed.lo };
      app.worldChanged();
    }
    const activity = w.activity;
    const expression = w.expression;
    const clockObject = w.elapsed;
    step();
    if (w.activity !== activity || w.expression !== expression) changed++;
    if (w.elapsed !== clockObject) full++;
  }
  // With settle, the idle steps applied to the world once, inside the window, as the device does
  // once a stretch (when something reads or changes the world, at the latest the full step that
  // ends the stretch, a minute on): the bench takes it as its own figure, the difference of the
  // two. In the dry run it finds nothing to apply.
  if (settle === true) app.world();
  if (close !== undefined) close();
  return { panel: panel, ticks: n, fullSteps: full, lines: counts.lines - before.lines, writes: counts.writes - before.writes, erases: counts.erases - before.erases, changedOnTheirOwn: changed };
};
