/**
 * The display: our SSD1306 driver's bytes on the I2C bus, and the pet drawn with only the Graphics
 * subset, redrawn when what it shows changes and not on every tick.
 */
import { describe, expect, it } from "vitest";
import { createSsd1306, ssd1306InitCommands } from "../src/platform/ssd1306";
import { Ssd1306 as Ssd1306Model } from "../src/host/emulator/ssd1306";
import { drawPet } from "../firmware/face";
import { bootPet, fakeGraphics } from "./firmware-fakes";
import { EXPRESSION_NAMES } from "../src/core/types";
import type { DisplayProfile } from "../src/boards/boardProfile";

const DISPLAY: DisplayProfile = { driver: "ssd1306-i2c", width: 128, height: 64, address: 0x3c, i2c: { scl: "D22", sda: "D21", bitrate: 400000 } };

const started = () => bootPet({ board: { display: DISPLAY }, withDisplayHardware: true });

describe("ssd1306 driver", () => {
  it("initialises the panel with a command transfer (control byte 0x00) ending in display-on", () => {
    const { env } = started();
    const first = env.i2cWrites[0]!;
    expect(first.address).toBe(0x3c);
    expect(first.bytes[0]).toBe(0x00);
    expect(first.bytes.slice(1)).toEqual(ssd1306InitCommands(64));
    expect(first.bytes[1]).toBe(0xae); // off while configuring
    expect(first.bytes[first.bytes.length - 1]).toBe(0xaf); // on at the end
    expect(first.bytes).toContain(0x8d); // charge pump
    // Multiplex ratio and COM pins depend on the height.
    const i = ssd1306InitCommands(64).indexOf(0xa8);
    expect(ssd1306InitCommands(64)[i + 1]).toBe(63);
    expect(ssd1306InitCommands(32)[i + 1]).toBe(31);
  });

  it("sends the first frame whole: one window over every page, then exactly width*height/8 data bytes behind 0x40", () => {
    const { env } = started();
    const writes = env.i2cWrites.slice(1);
    expect(writes[0]!.bytes).toEqual([0x00, 0x21, 0, 127, 0x22, 0, 7]);
    const data = writes.slice(1).filter((w) => w.bytes[0] === 0x40);
    expect(data.length).toBe(writes.length - 1);
    let total = 0;
    for (const d of data) total += d.bytes.length - 1;
    expect(total).toBe(1024);
    // And the bytes are the Graphics buffer, in order.
    const sent = ([] as number[]).concat(...data.map((d) => d.bytes.slice(1)));
    expect(sent).toEqual(Array.from(new Uint8Array(env.graphics[0]!.buffer)));
    expect(sent.some((b) => b !== 0)).toBe(true);
  });

  it("redraws when the expression or activity changes, not on every tick", () => {
    const { env, app } = started();
    const sentSoFar = env.i2cWrites.length;
    env.advance(10000); // idle and neutral for 20 s
    expect(env.i2cWrites.length).toBe(sentSoFar);
    app.pet.interact();
    expect(env.i2cWrites.length).toBeGreaterThan(sentSoFar);
    // With a display the console stays quiet on successful saves.
    expect(env.lines.length).toBe(1);
  });

  it("skips the clear for the boot's picture only: the buffer is fresh then, and never again", () => {
    const { env, app } = started();
    const g = env.graphics[0]!;
    expect(g.calls).not.toContain("clear");
    const drawn = g.calls.length;
    app.pet.interact();
    expect(g.calls.slice(drawn)).toContain("clear");
    expect(g.calls[drawn]).toBe("clear");
  });
});

describe("ssd1306 driver sends the pages it is given", () => {
  /** A panel over a bus that records transfers, and a frame buffer to draw into by hand. */
  function panel() {
    const writes: number[][] = [];
    const bus = {
      writeTo(_address: number, a: number | number[] | Uint8Array, b?: number | number[] | Uint8Array) {
        const bytes: number[] = [];
        for (const part of [a, b]) {
          if (part === undefined) continue;
          if (typeof part === "number") bytes.push(part);
          else bytes.push(...Array.from(part));
        }
        writes.push(bytes);
      },
    };
    const driver = createSsd1306(bus, 0x3c, 128, 64);
    writes.length = 0; // the power-up commands
    return { writes, driver, frame: new Uint8Array(1024) };
  }
  /** The pages each window command covered, and the data bytes sent. */
  function summary(writes: number[][]) {
    const windows = writes.filter((w) => w[0] === 0x00 && w[1] === 0x21).map((w) => [w[5], w[6]]);
    const data = writes.filter((w) => w[0] === 0x40).reduce((n, w) => n + w.length - 1, 0);
    return { windows, data };
  }

  it("all pages by default, one window over a range, nothing for an empty range", () => {
    const { writes, driver, frame } = panel();
    frame.fill(0x11);
    expect(driver.flush(frame.buffer)).toBe(1024);
    expect(summary(writes)).toEqual({ windows: [[0, 7]], data: 1024 });
    writes.length = 0;
    expect(driver.flush(frame.buffer, 7, 7)).toBe(128);
    expect(summary(writes)).toEqual({ windows: [[7, 7]], data: 128 });
    writes.length = 0;
    expect(driver.flush(frame.buffer, 0, 6)).toBe(7 * 128);
    expect(summary(writes)).toEqual({ windows: [[0, 6]], data: 7 * 128 });
    writes.length = 0;
    expect(driver.flush(frame.buffer, 5, 4)).toBe(0);
    expect(writes).toEqual([]);
  });

  it("what the panel shows, decoded by the host's SSD1306 model, is each window's bytes exactly", () => {
    const { writes, driver, frame } = panel();
    const model = new Ssd1306Model();
    model.receive([0x00].concat(ssd1306InitCommands(64)));
    let seed = 7;
    const shown = new Uint8Array(1024);
    for (let round = 0; round < 20; round++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const first = seed % 8;
      const last = first + ((seed >>> 8) % (8 - first));
      for (let k = first * 128; k < (last + 1) * 128; k++) frame[k] = (k * 31 + round) & 0xff;
      driver.flush(frame.buffer, first, last);
      shown.set(frame.subarray(first * 128, (last + 1) * 128), first * 128);
      for (const w of writes) model.receive(w);
      writes.length = 0;
      expect(Array.from(model.ram)).toEqual(Array.from(shown));
    }
  });
});

describe("drawPet", () => {
  it("draws every expression with only the subset, a different picture for each", () => {
    const pictures = new Set<string>();
    for (let e = 0; e < EXPRESSION_NAMES.length; e++) {
      const g = fakeGraphics(128, 64);
      drawPet(g, "Pip", e, "idle");
      expect(g.calls[0]).toBe("clear");
      expect(g.calls).toContain("drawString:Pip");
      expect(g.calls).toContain("drawString:idle");
      pictures.add(Buffer.from(new Uint8Array(g.buffer)).toString("hex"));
    }
    expect(pictures.size).toBe(EXPRESSION_NAMES.length);
  });

  it("clears what was there: each picture drawn over another is the picture drawn on a fresh buffer", () => {
    for (let a = 0; a < EXPRESSION_NAMES.length; a++) {
      for (let b = 0; b < EXPRESSION_NAMES.length; b++) {
        const over = fakeGraphics(128, 64);
        over.setColor(1);
        over.fillRect(0, 0, 127, 63); // every pixel set
        drawPet(over, "Zoe the long-named", a, "wandering");
        drawPet(over, "Pip", b, "idle");
        const fresh = fakeGraphics(128, 64);
        drawPet(fresh, "Pip", b, "idle");
        expect(Buffer.from(new Uint8Array(over.buffer)).equals(Buffer.from(new Uint8Array(fresh.buffer)))).toBe(true);
      }
    }
  });

  it("on a fresh buffer, told so, skips the clear and draws the same picture", () => {
    for (let e = 0; e < EXPRESSION_NAMES.length; e++) {
      const told = fakeGraphics(128, 64);
      drawPet(told, "Pip", e, "idle", true);
      expect(told.calls).not.toContain("clear");
      const cleared = fakeGraphics(128, 64);
      drawPet(cleared, "Pip", e, "idle");
      expect(Buffer.from(new Uint8Array(told.buffer)).equals(Buffer.from(new Uint8Array(cleared.buffer)))).toBe(true);
    }
  });
});
