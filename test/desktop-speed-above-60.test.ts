/**
 * `--speed N` ages the world N times faster than real time, also above 60 where one one-second tick
 * would need more than the firmware's one-minute cap: the host then runs the firmware's setInterval
 * k times as often (real time), so every tick stays under the cap. setTimeout (the long-press
 * feedback timer) keeps real time. The real firmware bundle runs in-process on fake timers, so the
 * figures are exact functions of the simulated time, not of this machine's speed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { readFileSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { createEspruinoHost, type EspruinoHost } from "../src/host/node/sim/espruinoHost";
import { intervalSpeedup } from "../src/host/emulator/clock";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { MAX_TICK_DELTA_MS } from "../firmware/clock";
import { buildDesktopBundle, DESKTOP_BOARD, ROOT, START } from "./desktop-process";
import { tempDir } from "./region-tools-fixtures";

let dir = "";
let code = "";
const board = JSON.parse(readFileSync(DESKTOP_BOARD, "utf8"));

beforeAll(async () => {
  dir = tempDir("pet-speed-");
  code = readFileSync(await buildDesktopBundle(join(dir, "firmware.js")), "utf8");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.useRealTimers();
});

/** The firmware on a fresh region at `speed`, its clocks and timers on vitest's fake time. */
function bootFirmware(speed: number): { host: EspruinoHost; lines: string[] } {
  vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "clearTimeout", "clearInterval", "Date"] });
  const lines: string[] = [];
  const host = createEspruinoHost({
    board,
    flash: new NorFlashSim({ size: 65536, pageSize: 4096 }),
    speed,
    monotonicMs: () => Date.now(), // the faked clock
    output: (l) => lines.push(l),
  });
  host.run(code, "firmware.js");
  return { host, lines };
}

function elapsedMs(host: EspruinoHost): number {
  return Number(host.pet()!.status()!.elapsedMs);
}

/** World milliseconds added while `realMs` of (fake) real time pass. */
function ageOver(host: EspruinoHost, realMs: number): number {
  const before = elapsedMs(host);
  vi.advanceTimersByTime(realMs);
  return elapsedMs(host) - before;
}

describe("--speed above 60", () => {
  it("the interval speed-up keeps one tick's step within the firmware's cap", () => {
    expect(intervalSpeedup(1)).toBe(1);
    expect(intervalSpeedup(45)).toBe(1);
    for (const n of [46, 60, 61, 600, 1000, 3600]) {
      expect(intervalSpeedup(n)).toBeGreaterThan(1);
      // A tick every 1000/k ms real adds n * (1000/k) ms of world time.
      expect((n * 1000) / intervalSpeedup(n)).toBeLessThanOrEqual(MAX_TICK_DELTA_MS * 0.75);
    }
  });

  it("--speed 600 ages the world about 600 times real time (60 s per second would be the old cap)", () => {
    const { host, lines } = bootFirmware(600);
    try {
      expect(lines.join("\n")).toMatch(/hatched Pip/);
      vi.advanceTimersByTime(2000); // settle past the first ticks
      const aged = ageOver(host, 20_000);
      // 20 s at 600x is 12 000 s; the old behaviour gave 20 x 60 s = 1 200 s. Ticks that fall on
      // the edges of the window make the only difference.
      expect(aged).toBeGreaterThanOrEqual(600 * 20_000 * 0.95);
      expect(aged).toBeLessThanOrEqual(600 * 20_000 * 1.05);
    } finally {
      host.stop();
    }
  });

  it("--speed 30 is unchanged: one tick a second, 30 s each", () => {
    const { host } = bootFirmware(30);
    try {
      vi.advanceTimersByTime(2000);
      const aged = ageOver(host, 20_000);
      expect(aged).toBeGreaterThanOrEqual(30 * 20_000 * 0.95);
      expect(aged).toBeLessThanOrEqual(30 * 20_000 * 1.05);
    } finally {
      host.stop();
    }
  });

  it("setTimeout keeps real time at --speed 600; setInterval runs k times as often", () => {
    const { host } = bootFirmware(600);
    try {
      host.run("var fired = 0, beats = 0; setTimeout(function(){ fired++; }, 5000); setInterval(function(){ beats++; }, 1000);", "probe.js");
      vi.advanceTimersByTime(4990);
      expect(host.run("fired", "r.js")).toBe(0);
      vi.advanceTimersByTime(20);
      expect(host.run("fired", "r.js")).toBe(1);
      const beats = host.run("beats", "r.js") as number;
      const expected = Math.floor(5010 / Math.round(1000 / intervalSpeedup(600)));
      expect(beats).toBe(expected);
    } finally {
      host.stop();
    }
  });
});

describe("--speed usage", () => {
  it.each(["0", "-5", "abc", "NaN", "Infinity", "3601"])("--speed %s is a usage error, exit 2", (value) => {
    const r = spawnSync(process.execPath, [START, "--bundle", join(dir, "firmware.js"), "--image", join(dir, "x.bin"), "--speed=" + value], {
      cwd: ROOT,
      input: "",
      encoding: "utf8",
      timeout: 20000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^--speed takes a number above 0 and at most 3600/);
    expect(r.stderr).toMatch(/usage: npm start/);
  });
});
