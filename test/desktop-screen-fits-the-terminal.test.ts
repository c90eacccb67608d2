/**
 * A terminal too small for the pet's picture never gets half a picture: --blocks falls back to
 * braille when only braille fits, and when not even braille fits the screen says, in lines that fit,
 * how many columns and rows it needs (and how to get lines instead), above the pet's status.
 */
import { describe, expect, it } from "vitest";
import { Ssd1306 } from "../src/host/emulator/ssd1306";
import { fittingScreenLines, pictureSize, redrawSequence, screenLines, type ScreenInfo } from "../src/host/node/sim/screen";

const INFO: ScreenInfo = {
  name: "Pip",
  activity: "idle",
  expression: "neutral",
  elapsedMs: "3000",
  updateCount: "4",
  lastSave: "never",
  led: false,
  speed: 1,
  imagePath: "pet-region.bin",
  console: ["saved: updates 4"],
  prompt: "",
};
const panel = new Ssd1306();
const width = (l: string): number => Array.from(l).length;

describe("the screen in a terminal of a given size", () => {
  it("draws as asked when the terminal is big enough, or its size is unknown", () => {
    expect(fittingScreenLines(panel, INFO, "braille", 80, 24)).toEqual(screenLines(panel, INFO, "braille"));
    expect(fittingScreenLines(panel, INFO, "blocks", 130, 40)).toEqual(screenLines(panel, INFO, "blocks"));
    expect(fittingScreenLines(panel, INFO, "blocks", 0, 0)).toEqual(screenLines(panel, INFO, "blocks"));
  });

  it("falls back from half blocks to braille when only braille fits", () => {
    const lines = fittingScreenLines(panel, INFO, "blocks", 100, 30);
    expect(lines[0]).toBe("┌" + "─".repeat(64) + "┐");
    expect(lines[lines.length - 1]).toMatch(/--blocks needs 130 x 37: drawn in braille/);
  });

  it("says what it needs, in lines that fit, when not even braille fits", () => {
    const [cols, rows] = pictureSize("braille");
    expect([cols, rows]).toEqual([66, 18]);
    for (const [c, r] of [
      [50, 24],
      [80, 12],
      [30, 10],
    ] as const) {
      const lines = fittingScreenLines(panel, INFO, "braille", c, r);
      const text = lines.join(" ").replace(/\s+/g, " ");
      expect(text).toMatch(/Too small: the picture needs 66 columns x 21 rows \(this terminal is \d+ x \d+\); make it larger, or use --lines\./);
      expect(lines.some((l) => l.includes("┌"))).toBe(false); // no half picture
      // The message is wrapped to the width; the status lines are cut by the redraw as before.
      const message = lines.slice(0, lines.findIndex((l) => l.startsWith(" Pip")));
      expect(message.every((l) => width(l) <= c)).toBe(true);
      expect(text).toMatch(/Pip · idle, neutral/);
      const frame = redrawSequence(lines, c, r);
      for (const l of frame.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").split("\r\n")) expect(width(l)).toBeLessThanOrEqual(c);
    }
  });
});
