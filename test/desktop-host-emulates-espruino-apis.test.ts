/**
 * The desktop host's Espruino APIs behave like the interpreter's where the firmware depends on it:
 * E.CRC32 answers what the device answers, the SSD1306 model shows what the project's own driver
 * sends, Graphics draws where Espruino draws, Flash has NOR semantics and only the pet region,
 * setWatch debounces and reports active-low edges, and --speed scales getTime() only.
 */
import { describe, expect, it } from "vitest";

import { crc32Bitwise } from "../src/save/crc32";
import { createEspruinoE } from "../src/host/emulator/espruinoE";
import { ArrayBufferGraphics, createGraphicsNamespace, type Realm } from "../src/host/emulator/graphics";
import { Ssd1306, OLED_HEIGHT, OLED_WIDTH } from "../src/host/emulator/ssd1306";
import { createSimI2C } from "../src/host/emulator/i2c";
import { createSsd1306 } from "../src/platform/ssd1306";
import { createFlashModule } from "../src/host/emulator/flashModule";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { createSimPins } from "../src/host/emulator/pins";
import { createSimClock } from "../src/host/emulator/clock";
import { glyphRows } from "../src/host/emulator/font";
import { createEspruinoHost } from "../src/host/node/sim/espruinoHost";

const realm: Realm = { Uint8Array, ArrayBuffer };

describe("E.CRC32", () => {
  const E = createEspruinoE();
  it("is the standard CRC-32 check value for the string 123456789, unsigned", () => {
    expect(E.CRC32("123456789")).toBe(0xcbf43926);
  });
  it("agrees with the project's bitwise reference on bytes, arrays and strings", () => {
    const bytes = new Uint8Array(84);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 37 + 11) & 0xff;
    expect(E.CRC32(bytes)).toBe(crc32Bitwise(bytes));
    expect(E.CRC32(Array.from(bytes))).toBe(crc32Bitwise(bytes));
    expect(E.CRC32(String.fromCharCode(...bytes))).toBe(crc32Bitwise(bytes));
  });
  it("takes the low 8 bits of each element, as the interpreter's iterator does", () => {
    expect(E.CRC32([0x141, 0x242])).toBe(crc32Bitwise(new Uint8Array([0x41, 0x42])));
  });
});

describe("SSD1306 model fed by the project's driver", () => {
  it("shows the Graphics buffer upright after createSsd1306 + flush", () => {
    const panel = new Ssd1306();
    const bus = createSimI2C(0x3c, panel);
    bus.setup({});
    const g = createGraphicsNamespace(realm).createArrayBuffer(128, 64, 1, { vertical_byte: true, msb: false });
    g.setPixel(0, 0);
    g.drawLine(10, 5, 40, 5);
    g.fillRect(100, 50, 103, 60);
    g.drawString("Hi", 60, 20);
    const driver = createSsd1306(bus, 0x3c, 128, 64);
    driver.flush(g.buffer);
    expect(panel.displayOn).toBe(true);
    let differences = 0;
    let lit = 0;
    for (let y = 0; y < OLED_HEIGHT; y++)
      for (let x = 0; x < OLED_WIDTH; x++) {
        if (panel.visiblePixel(x, y) !== g.pixel(x, y)) differences++;
        lit += g.pixel(x, y);
      }
    expect(lit).toBeGreaterThan(50);
    expect(differences).toBe(0);
  });

  it("honours inverse and display off", () => {
    const panel = new Ssd1306();
    panel.receive([0x00, 0xaf, 0xa1, 0xc8, 0xa7]);
    expect(panel.visiblePixel(3, 3)).toBe(1); // RAM is 0, inverted
    panel.receive([0x80, 0xae]);
    expect(panel.visiblePixel(3, 3)).toBe(0);
  });

  it("writes in page addressing mode with column nibbles (0xB0, 0x00-0x1F)", () => {
    const panel = new Ssd1306();
    panel.receive([0x00, 0xaf, 0xa1, 0xc8, 0x20, 0x02, 0xb2, 0x05, 0x11]); // page 2, column 0x15
    panel.receive([0x40, 0xff]);
    expect(panel.ram[2 * 128 + 0x15]).toBe(0xff);
    expect(panel.visiblePixel(0x15, 16)).toBe(1);
    expect(panel.visiblePixel(0x15, 15)).toBe(0);
  });

  it("refuses writes to an address with no device, and writes before setup", () => {
    const bus = createSimI2C(0x3c, new Ssd1306());
    expect(() => bus.writeTo(0x3c, 0)).toThrow(/not set up/);
    bus.setup({});
    expect(() => bus.writeTo(0x3d, 0)).toThrow(/no device/);
  });
});

describe("Graphics subset", () => {
  const make = (): ArrayBufferGraphics =>
    createGraphicsNamespace(realm).createArrayBuffer(16, 16, 1, { vertical_byte: true, msb: false });
  it("drawRect includes both corners, fillRect fills inclusively", () => {
    const g = make();
    g.drawRect(2, 3, 5, 7);
    expect([g.pixel(2, 3), g.pixel(5, 3), g.pixel(2, 7), g.pixel(5, 7), g.pixel(3, 5)]).toEqual([1, 1, 1, 1, 0]);
    const f = make();
    f.fillRect(1, 1, 2, 2);
    let n = 0;
    for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) n += f.pixel(x, y);
    expect(n).toBe(4);
  });
  it("stores vertical_byte pixels as the SSD1306 does: byte x + page * width, bit y % 8", () => {
    const g = make();
    g.setPixel(3, 10);
    expect(new Uint8Array(g.buffer)[3 + 16]).toBe(1 << 2);
  });
  it("without msb: false the top pixel of a vertical byte is bit 7, as on Espruino 2v25 and later", () => {
    const g = createGraphicsNamespace(realm).createArrayBuffer(16, 16, 1, { vertical_byte: true });
    g.setPixel(3, 8);
    expect(new Uint8Array(g.buffer)[3 + 16]).toBe(0x80);
    expect(g.pixel(3, 8)).toBe(1);
  });
  it("setColor(0) draws off pixels; clear empties the buffer", () => {
    const g = make();
    g.fillRect(0, 0, 15, 15).setColor(0).setPixel(4, 4);
    expect(g.pixel(4, 4)).toBe(0);
    expect(g.pixel(5, 4)).toBe(1);
    g.clear();
    expect(new Uint8Array(g.buffer).every((b) => b === 0)).toBe(true);
  });
  it("circles are symmetric and filled circles cover their centre", () => {
    const g = make();
    g.drawCircle(8, 8, 5);
    expect([g.pixel(13, 8), g.pixel(3, 8), g.pixel(8, 13), g.pixel(8, 3), g.pixel(8, 8)]).toEqual([1, 1, 1, 1, 0]);
    const f = make();
    f.fillCircle(8, 8, 3);
    expect([f.pixel(8, 8), f.pixel(11, 8), f.pixel(12, 8)]).toEqual([1, 1, 0]);
  });
  it("the font has all 95 printable characters and two more, each distinct from the space, and drawString advances 4 pixels", () => {
    for (let c = 33; c <= 128; c++) expect(glyphRows(c).some((r) => r !== 0), String.fromCharCode(c)).toBe(true);
    for (const c of [0, 9, 31, 129, 200, 255, 0x263a]) expect(glyphRows(c).every((r) => r === 0), String(c)).toBe(true);
    const g = make();
    g.drawString("||", 0, 0);
    expect([g.pixel(1, 0), g.pixel(5, 0), g.pixel(3, 0)]).toEqual([1, 1, 0]);
  });
  it("only 1 bpp is emulated", () => {
    expect(() => createGraphicsNamespace(realm).createArrayBuffer(8, 8, 8)).toThrow(/1 bit/);
  });
});

describe("Flash over a NOR region", () => {
  function setup() {
    const sim = new NorFlashSim({ size: 8192, pageSize: 4096 });
    const writes: number[] = [];
    const mod = createFlashModule({ flash: sim, regionAddress: 0x310000, flashAddress: 0, size: 8192 }, realm, () => writes.push(1));
    return { sim, mod, writes };
  }
  it("maps the profile's region address to offset 0 and ANDs writes", () => {
    const { sim, mod } = setup();
    mod.write(new Uint8Array([0xf0, 0x0f]), 0x310004);
    (mod.write as (data: unknown, addr: number) => void)([0x3c, 0xff], 0x310004); // Espruino takes arrays too
    expect(Array.from(mod.read(24, 0x310004)).slice(0, 3)).toEqual([0x30, 0x0f, 0xff]);
    expect(Array.from(sim.image().subarray(4, 6))).toEqual([0x30, 0x0f]);
  });
  it("erasePage erases the whole sector holding the address, and getPage names it", () => {
    const { mod } = setup();
    mod.write(new Uint8Array([0, 0]), 0x311000);
    mod.erasePage(0x311ffe);
    expect(Array.from(mod.read(24, 0x311000))).toEqual(new Array(24).fill(0xff));
    expect(mod.getPage!(0x311234)).toEqual({ addr: 0x311000, length: 4096 });
    expect(mod.getPage!(0x320000)).toBeUndefined();
  });
  it("refuses a read of 2 to 22 bytes, which returns zeros or crashes an ESP32 build with JsVars in PSRAM", () => {
    const { mod } = setup();
    expect(() => mod.read(12, 0x310000)).toThrow(/2 to 22 bytes/);
    expect(mod.read(1, 0x310000).length).toBe(1);
  });
  it("throws for anything outside the pet region (it would be Storage on the board)", () => {
    const { mod, writes } = setup();
    expect(() => mod.read(24, 0x30fffe)).toThrow(/outside the pet region/);
    expect(() => mod.write(new Uint8Array(4), 0x311ffe)).toThrow(/outside the pet region/);
    expect(writes.length).toBe(0);
  });
});

/** An active-low button on D0 watched on both edges with `debounce` ms; `clock.t` is the pins' time(). */
function watchedButton(clock: { t: number }, debounce: number): { pins: ReturnType<typeof createSimPins>; events: Array<{ state: boolean; time: number }> } {
  const pins = createSimPins({ D0: 1 }, () => clock.t, () => undefined);
  const events: Array<{ state: boolean; time: number }> = [];
  pins.setWatch((e: { state: boolean; time: number }) => events.push({ state: e.state, time: e.time }), "D0", { edge: "both", debounce, repeat: true });
  return { pins, events };
}

describe("setWatch on an active-low button", () => {
  it("reports debounced edges with the pin state, and ignores bounces shorter than the debounce", async () => {
    const clock = { t: 100 };
    const { pins, events } = watchedButton(clock, 20);
    pins.drive("D0", 0);
    pins.drive("D0", 1); // a bounce: back up before the debounce ends
    pins.drive("D0", 0);
    await new Promise((r) => setTimeout(r, 60));
    clock.t = 101;
    pins.drive("D0", 1);
    await new Promise((r) => setTimeout(r, 60));
    expect(events).toEqual([
      { state: false, time: 100 },
      { state: true, time: 101 },
    ]);
  });
  it("judges the debounce by when the edges happened: a press heard late, both edges at once, is a press, and a bounce is not", async () => {
    const clock = { t: 200 };
    const { pins, events } = watchedButton(clock, 50);
    // The board was busy half a second: the press (at 200.00) and its release 120 ms later reach the
    // pin only now, one after the other.
    clock.t = 200.5;
    pins.drive("D0", 0, 200.0);
    pins.drive("D0", null, 200.12);
    await new Promise((r) => setTimeout(r, 80));
    expect(events).toEqual([
      { state: false, time: 200.0 },
      { state: true, time: 200.12 },
    ]);
    // A bounce heard as late: down for 20 ms, less than the debounce. No press.
    clock.t = 201.5;
    pins.drive("D0", 0, 201.0);
    pins.drive("D0", null, 201.02);
    await new Promise((r) => setTimeout(r, 80));
    expect(events.filter((e) => !e.state)).toHaveLength(1);
  });
  it("whenSettled answers once the last debounced edge has reached its callback, at once when none waits", async () => {
    const pins = createSimPins({ D0: 1 }, () => 0, () => undefined);
    const seen: string[] = [];
    pins.setWatch((e: { state: boolean }) => seen.push("edge " + e.state), "D0", { edge: "both", debounce: 20, repeat: true });
    pins.whenSettled(() => seen.push("settled, nothing waiting"));
    pins.drive("D0", 0);
    pins.drive("D0", null); // released within the debounce: the press was a bounce
    pins.drive("D0", 0);
    const settled = new Promise<void>((resolve) => pins.whenSettled(() => (seen.push("settled"), resolve())));
    expect(seen).toEqual(["settled, nothing waiting"]);
    await settled;
    expect(seen).toEqual(["settled, nothing waiting", "edge false", "settled"]);
  });
  it("a watch without repeat fires once; falling-only ignores rising edges", () => {
    const pins = createSimPins({ D0: 1 }, () => 0, () => undefined);
    let n = 0;
    pins.setWatch(() => n++, "D0", { edge: "falling" });
    pins.drive("D0", 0);
    pins.drive("D0", 1);
    pins.drive("D0", 0);
    expect(n).toBe(1);
  });
});

describe("pinMode", () => {
  function host() {
    return createEspruinoHost({
      board: { petRegion: { address: 0, size: 8192, pageSize: 4096 }, button: { pin: "D0", activeLow: true } },
      flash: new NorFlashSim({ size: 8192, pageSize: 4096 }),
      output: () => undefined,
    });
  }
  it("with input_pullup an active-low button rests high and a press is a falling edge", () => {
    const h = host();
    h.run('var seen=[]; pinMode(D0, "input_pullup"); setWatch(function(e){ seen.push(e.state); }, D0, {edge:"both", repeat:true});', "w.js");
    h.setButton(true);
    h.setButton(false);
    expect(h.run("seen.join()", "r.js")).toBe("false,true");
    h.stop();
  });
  it("a pull-down on an active-low button leaves it reading pressed: presses change nothing", () => {
    const h = host();
    h.run('var seen=[]; pinMode("D0", "input_pulldown"); setWatch(function(e){ seen.push(e.state); }, "D0", {edge:"both", repeat:true});', "w.js");
    h.setButton(true);
    h.setButton(false);
    expect(h.run("seen.length", "r.js")).toBe(0);
    expect(h.pins.level("D0")).toBe(0);
    h.stop();
  });
  it("an unknown mode throws, as on the interpreter", () => {
    const h = host();
    expect(() => h.run('pinMode(D0, "pullup")', "m.js")).toThrow(/unknown mode/);
    h.stop();
  });
});

describe("clocks", () => {
  it("--speed scales getTime() deltas but not the button's edge times", () => {
    let mono = 0;
    const clock = createSimClock(60, () => 1_000_000, () => mono);
    const t0 = clock.getTime();
    const b0 = clock.buttonTime();
    mono += 2000;
    expect(clock.getTime() - t0).toBeCloseTo(120, 6);
    expect(clock.buttonTime() - b0).toBeCloseTo(2, 6);
  });
});

describe("the vm context", () => {
  it("offers exactly the firmware's globals, and Date.now is the real clock", () => {
    const host = createEspruinoHost({
      board: { petRegion: { address: 0, size: 8192, pageSize: 4096 }, button: { pin: "D0", activeLow: true }, led: { pin: "D2" } },
      flash: new NorFlashSim({ size: 8192, pageSize: 4096 }),
      output: () => undefined,
    });
    const kinds = host.run(
      "[typeof require, typeof getTime, typeof setWatch, typeof digitalWrite, typeof E.CRC32, typeof I2C1.writeTo, typeof Graphics.createArrayBuffer, typeof setInterval, typeof process, typeof Buffer].join(',')",
      "probe.js",
    );
    expect(kinds).toBe("function,function,function,function,function,function,function,function,undefined,undefined");
    const now = host.run("Date.now()", "now.js") as number;
    expect(Math.abs(now - Date.now())).toBeLessThan(1000);
    expect(() => host.run('require("Storage")', "storage.js")).toThrow(/not found/);
    expect(host.run('require("Flash").read(24, 0) instanceof Uint8Array', "realm.js")).toBe(true);
    host.stop();
  });
  it("uncaught errors in timers are printed and the loop keeps running", async () => {
    const lines: string[] = [];
    const host = createEspruinoHost({
      board: { petRegion: { address: 0, size: 8192, pageSize: 4096 } },
      flash: new NorFlashSim({ size: 8192, pageSize: 4096 }),
      output: (l) => lines.push(l),
    });
    host.run("setTimeout(function(){ throw new Error('boom'); }, 1); setTimeout(function(){ print('still here'); }, 5);", "t.js");
    await new Promise((r) => setTimeout(r, 30));
    expect(lines).toEqual(["Uncaught Error: boom", "still here"]);
    host.stop();
  });
});


