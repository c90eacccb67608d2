/**
 * Capabilities for startPet in Node's tests, and the one place firmware tests are set up
 * (bootPet): a clock and timer queue the test drives step by step, a console that records lines,
 * the storage layer's NorFlashSim behind a require("Flash")-shaped object, a button pin, a LED, an
 * I2C bus that records what is sent, and the Graphics the desktop and browser hosts emulate
 * (src/host/emulator), with every call recorded. Only the documented subset of each is offered.
 */
import { NorFlashSim } from "../src/storage/norFlashSim";
import { ESP32_REGION } from "./storage-fixtures";
import type { GraphicsLike, I2CBus, PetEnv, WatchEvent, WatchOptions } from "../src/platform/env";
import type { EspruinoFlash } from "../src/storage/flash";
import type { PetBoard } from "../firmware/board";
import { createSlotLog, type SlotLog } from "../src/storage/slotLog";
import { layoutForRegion } from "../src/storage/regionLayout";
import { startPet, type PetApp } from "../firmware/app";
import { createGraphicsNamespace } from "../src/host/emulator/graphics";

/** The ESP32 region (storage-fixtures.ts), as a board profile's petRegion. */
export const REGION = ESP32_REGION;

/**
 * A board as the firmware gets it: the profile's fields, plus petLayout derived from petRegion the
 * way the build derives it (unless `extra` brings its own).
 */
export function testBoard(extra?: Partial<PetBoard>): PetBoard {
  const board = Object.assign(
    {
      name: "test board",
      petRegion: REGION,
      button: { pin: "D0", activeLow: true },
      led: { pin: "D2" },
    },
    extra ?? {},
  );
  return Object.assign({ petLayout: layoutForRegion(board.petRegion).layout! }, board);
}

export function newFlash(seed?: number): NorFlashSim {
  return new NorFlashSim({ size: REGION.size, pageSize: REGION.pageSize, baseAddress: REGION.address, seed: seed ?? 1 });
}

/**
 * A slot log over the simulator's region that takes any payload as valid: tests use it to plant
 * saves the firmware must judge itself, and to read back what the firmware wrote.
 */
export function plainSlotLog(sim: NorFlashSim): SlotLog {
  return createSlotLog({
    device: rawFlashOver(sim),
    pageSize: REGION.pageSize,
    address: REGION.address,
    size: REGION.size,
    sectorSize: REGION.pageSize,
    isValidPayload: () => true,
  }).log!;
}

/** require("Flash") over the simulator: what the sim reports as a failure is thrown, like a broken driver. */
export function rawFlashOver(sim: NorFlashSim, counters?: { payloadWrites: number }): EspruinoFlash {
  return {
    read(length: number, addr: number): Uint8Array {
      const r = sim.read(length, addr);
      if (r.status !== "ok" || r.bytes === null) throw new Error("Flash.read " + r.status);
      return r.bytes;
    },
    write(data: Uint8Array, addr: number): void {
      if (counters !== undefined && data.length === 84) counters.payloadWrites++;
      const s = sim.write(data, addr);
      if (s !== "ok") throw new Error("Flash.write " + s);
    },
    erasePage(addr: number): void {
      const s = sim.erasePage(addr);
      if (s !== "ok") throw new Error("Flash.erasePage " + s);
    },
  };
}

interface Timer {
  id: number;
  due: number;
  period: number | null;
  fn: () => void;
}

export interface Watch {
  fn: (e: WatchEvent) => void;
  pin: unknown;
  options: WatchOptions;
}

export interface FakeGraphics extends GraphicsLike {
  calls: string[];
}

/** The Graphics the desktop and browser hosts run the firmware on (src/host/emulator/graphics.ts). */
const emulatedGraphics = createGraphicsNamespace({ Uint8Array, ArrayBuffer });

/**
 * Graphics with exactly the subset (anything else is undefined and would throw when called), drawn
 * by the hosts' own emulation (so the pixels are the ones `npm start` and the page show) and each
 * call recorded by name for the tests.
 */
export function fakeGraphics(width: number, height: number): FakeGraphics {
  const calls: string[] = [];
  const g = emulatedGraphics.createArrayBuffer(width, height, 1, { vertical_byte: true, msb: false });
  return {
    calls,
    buffer: g.buffer,
    clear() {
      calls.push("clear");
      g.clear();
    },
    setColor(c: number) {
      calls.push("setColor");
      g.setColor(c);
    },
    setPixel(x: number, y: number, c?: number) {
      calls.push("setPixel");
      g.setPixel(x, y, c);
    },
    drawLine(x1: number, y1: number, x2: number, y2: number) {
      calls.push("drawLine");
      g.drawLine(x1, y1, x2, y2);
    },
    drawRect(x1: number, y1: number, x2: number, y2: number) {
      calls.push("drawRect");
      g.drawRect(x1, y1, x2, y2);
    },
    fillRect(x1: number, y1: number, x2: number, y2: number) {
      calls.push("fillRect");
      g.fillRect(x1, y1, x2, y2);
    },
    drawCircle(x: number, y: number, r: number) {
      calls.push("drawCircle");
      g.drawCircle(x, y, r);
    },
    fillCircle(x: number, y: number, r: number) {
      calls.push("fillCircle");
      g.fillCircle(x, y, r);
    },
    drawString(text: string, x: number, y: number) {
      calls.push("drawString:" + text);
      g.drawString(text, x, y);
    },
    getWidth() {
      return g.getWidth();
    },
    getHeight() {
      return g.getHeight();
    },
  };
}

export interface I2CWrite {
  address: number;
  bytes: number[];
}

export interface FakeEnv extends PetEnv {
  lines: string[];
  globals: { [name: string]: unknown };
  watches: Watch[];
  ledWrites: { pin: unknown; value: number }[];
  pinModes: { pin: unknown; mode: string }[];
  i2cWrites: I2CWrite[];
  graphics: FakeGraphics[];
  /** Milliseconds of fake time since the fake was made (what the timers run on). */
  nowMs(): number;
  /** Runs the timers up to `ms` later, moving getTime() along with them. */
  advance(ms: number): void;
  /** Moves getTime() by `seconds` without time passing for the timers (the clock being set). */
  setClockBy(seconds: number): void;
  /** Sets what Date.now() answers from now on (it then moves with the fake time). */
  setWallClock(ms: number): void;
  /** Active intervals and timeouts. */
  timerCount(): number;
  intervalPeriods(): number[];
}

export interface FakeEnvOptions {
  flash: EspruinoFlash;
  /** Date.now() at start; default 0 (a board nobody gave the time to). */
  wallClockMs?: number;
  /** getTime() at start; default 1000.25 (not a round number, on purpose). */
  getTimeStart?: number;
  withDisplayHardware?: boolean;
}

export function fakeEnv(o: FakeEnvOptions): FakeEnv {
  let now = 0;
  let clockOffset = o.getTimeStart ?? 1000.25;
  let wallBase = o.wallClockMs ?? 0;
  let wallSetAt = 0;
  let nextId = 1;
  let timers: Timer[] = [];
  const env: FakeEnv = {
    lines: [],
    globals: {},
    watches: [],
    ledWrites: [],
    pinModes: [],
    i2cWrites: [],
    graphics: [],
    flash: o.flash,
    print(line: string) {
      env.lines.push(line);
    },
    getTime() {
      return clockOffset + now / 1000;
    },
    dateNow() {
      return wallBase + (now - wallSetAt) + 0.375; // Espruino's Date.now() has a fraction
    },
    setInterval(fn: () => void, ms: number) {
      const t = { id: nextId++, due: now + ms, period: ms, fn };
      timers.push(t);
      return t.id;
    },
    clearInterval(id: unknown) {
      timers = timers.filter((t) => t.id !== id);
    },
    setTimeout(fn: () => void, ms: number) {
      const t = { id: nextId++, due: now + ms, period: null, fn };
      timers.push(t);
      return t.id;
    },
    clearTimeout(id: unknown) {
      timers = timers.filter((t) => t.id !== id);
    },
    setWatch(fn: (e: WatchEvent) => void, pin: unknown, options: WatchOptions) {
      env.watches.push({ fn, pin, options });
      return env.watches.length;
    },
    pinMode(pin: unknown, mode: string) {
      env.pinModes.push({ pin, mode });
    },
    digitalWrite(pin: unknown, value: number) {
      env.ledWrites.push({ pin, value });
    },
    publish(name: string, value: unknown) {
      env.globals[name] = value;
    },
    nowMs() {
      return now;
    },
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        let next: Timer | null = null;
        for (const t of timers) if (t.due <= end && (next === null || t.due < next.due)) next = t;
        if (next === null) break;
        now = next.due;
        if (next.period === null) timers = timers.filter((t) => t !== next);
        else next.due += next.period;
        // As Espruino (and the desktop's timers, src/host/emulator/timers.ts): an error out of a
        // timer's function is reported and the timer runs on.
        try {
          next.fn();
        } catch (e) {
          env.lines.push("Uncaught " + String(e));
        }
      }
      now = end;
    },
    setClockBy(seconds: number) {
      clockOffset += seconds;
    },
    setWallClock(ms: number) {
      wallBase = ms;
      wallSetAt = now;
    },
    timerCount() {
      return timers.length;
    },
    intervalPeriods() {
      return timers.filter((t) => t.period !== null).map((t) => t.period as number);
    },
  };
  if (o.withDisplayHardware) {
    env.setupI2C = function (): I2CBus {
      return {
        writeTo(address: number, a: number | number[] | Uint8Array, b?: number | number[] | Uint8Array) {
          const bytes: number[] = [];
          for (const part of [a, b]) {
            if (part === undefined) continue;
            if (typeof part === "number") bytes.push(part);
            else for (let i = 0; i < part.length; i++) bytes.push(part[i] as number);
          }
          env.i2cWrites.push({ address, bytes });
        },
      };
    };
    env.createGraphics = function (w: number, h: number) {
      const g = fakeGraphics(w, h);
      env.graphics.push(g);
      return g;
    };
  }
  return env;
}

/** Presses the watched button for `ms` milliseconds (edges at the fake time, timers run meanwhile). */
export function pressButton(env: FakeEnv, ms: number): void {
  const w = env.watches[0];
  if (w === undefined) throw new Error("no button watch");
  w.fn({ state: false, time: env.getTime() });
  env.advance(ms);
  w.fn({ state: true, time: env.getTime() });
}

export interface BootPetOptions {
  /** The flash to boot from (default: a fresh, erased NorFlashSim over REGION). */
  sim?: NorFlashSim;
  /** Date.now() at start (default 0: a board nobody gave the time to). */
  wallClockMs?: number;
  /** getTime() at start. */
  getTimeStart?: number;
  /** Profile fields over testBoard()'s (a display, another button, ...). */
  board?: Partial<PetBoard>;
  /** I2C and Graphics in the env, for a board with a display. */
  withDisplayHardware?: boolean;
  /** Stop the loop right after boot (a boot that only sets up the flash for the next one). */
  stopped?: boolean;
}

export interface BootedPet {
  sim: NorFlashSim;
  env: FakeEnv;
  app: PetApp;
  /** Payload-sized Flash.write calls (saves) since boot began. */
  counters: { payloadWrites: number };
}

/**
 * A pet booted the one way the firmware tests share: startPet over testBoard() (plus `board`) and a
 * fake env whose flash is `sim` (a fresh erased simulator by default), counting payload writes.
 */
export function bootPet(o: BootPetOptions = {}): BootedPet {
  const sim = o.sim ?? newFlash();
  const counters = { payloadWrites: 0 };
  const env = fakeEnv({
    flash: rawFlashOver(sim, counters),
    wallClockMs: o.wallClockMs,
    getTimeStart: o.getTimeStart,
    withDisplayHardware: o.withDisplayHardware,
  });
  const app = startPet(testBoard(o.board), env);
  if (o.stopped === true) app.stop();
  return { sim, env, app, counters };
}
