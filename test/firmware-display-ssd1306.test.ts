/**
 * The display: our SSD1306 driver's bytes on the I2C bus, and the pet drawn with only the Graphics
 * subset, redrawn when what it shows changes and not on every tick.
 */
import { describe, expect, it } from "vitest";
import { startPet } from "../firmware/app";
import { ssd1306InitCommands } from "../src/host/espruino/ssd1306";
import { drawPet } from "../firmware/face";
import { fakeEnv, fakeGraphics, newFlash, rawFlashOver, testBoard } from "./firmware-fakes";
import { EXPRESSION_NAMES } from "../src/core/types";

const DISPLAY = { driver: "ssd1306-i2c", width: 128, height: 64, address: 0x3c, i2c: { scl: "D22", sda: "D21", bitrate: 400000 } };

function started() {
  const env = fakeEnv({ flash: rawFlashOver(newFlash()), withDisplayHardware: true });
  const app = startPet(testBoard({ display: DISPLAY }), env);
  return { env, app };
}

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

  it("sends each frame as a window command and then exactly width*height/8 data bytes behind 0x40", () => {
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
    const frames = () => env.i2cWrites.filter((w) => w.bytes[0] === 0x00 && w.bytes[1] === 0x21).length;
    expect(frames()).toBe(1);
    env.advance(10000); // idle and neutral for 20 s
    expect(frames()).toBe(1);
    app.pet.interact();
    expect(frames()).toBe(2);
    // With a display the console stays quiet on successful saves.
    expect(env.lines.length).toBe(1);
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
});
