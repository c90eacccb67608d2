/**
 * The display sends only the pages under what changed (face.ts changedRows), so those bands must
 * hold every pixel that can differ: every pair of pictures that differ in one part (name, expression
 * or activity) or in several is drawn with the host's Graphics emulation and compared page by page.
 * Then the firmware end to end: a change of activity alone, seen on the I2C bus, sends the bottom
 * page only.
 */
import { describe, expect, it } from "vitest";
import { changedRows, drawPet, type PictureChange } from "../firmware/face";
import { createGraphicsNamespace } from "../src/host/emulator/graphics";
import { ACTIVITY_NAMES, EXPRESSION_NAMES } from "../src/core/types";
import { bootPet, fakeEnv, newFlash, rawFlashOver, testBoard } from "./firmware-fakes";
import { createDisplay } from "../firmware/display";
import { createWorld } from "../src/core/world";
import { nameFromString } from "../src/core/name";
import type { DisplayProfile } from "../src/boards/boardProfile";

const graphics = createGraphicsNamespace({ Uint8Array, ArrayBuffer });
const NAMES = ["Pip", "Rex", "Bartholomew-the-Third", "W", "?????"];

const drawn = new Map<string, Uint8Array>();

/** The frame drawPet makes, drawn once per (height, name, expression, activity): the pairs below reuse each many times. */
function picture(height: number, name: string, expression: number, activity: string): Uint8Array {
  const key = height + "|" + name + "|" + expression + "|" + activity;
  let frame = drawn.get(key);
  if (frame === undefined) {
    const g = graphics.createArrayBuffer(128, height, 1, { vertical_byte: true, msb: false });
    drawPet(g as never, name, expression, activity);
    frame = new Uint8Array(g.buffer).slice();
    drawn.set(key, frame);
  }
  return frame;
}

/** Pages (8-row bands) where two frames differ. */
function differingPages(a: Uint8Array, b: Uint8Array): number[] {
  const pages: number[] = [];
  for (let p = 0; p < a.length / 128; p++) {
    for (let x = 0; x < 128; x++) {
      if (a[p * 128 + x] !== b[p * 128 + x]) {
        pages.push(p);
        break;
      }
    }
  }
  return pages;
}

describe("changedRows covers every pixel a change can touch", () => {
  for (const height of [64, 32]) {
    it("on a 128x" + height + " panel, for every pair of pictures", () => {
      let compared = 0;
      let differing = 0;
      for (const n1 of NAMES) for (const n2 of NAMES) {
        for (let e1 = 0; e1 < EXPRESSION_NAMES.length; e1++) for (let e2 = 0; e2 < EXPRESSION_NAMES.length; e2++) {
          for (const a1 of ACTIVITY_NAMES) for (const a2 of [a1, ACTIVITY_NAMES[(ACTIVITY_NAMES.indexOf(a1) + 1) % ACTIVITY_NAMES.length] as string]) {
            if (n1 !== n2 && (e1 !== e2 || a1 !== a2)) continue; // keep it to one or two parts at a time
            const change: PictureChange = { name: n1 !== n2, expression: e1 !== e2, activity: a1 !== a2 };
            const pages = differingPages(picture(height, n1, e1, a1), picture(height, n2, e2, a2));
            compared++;
            if (pages.length > 0) differing++;
            const rows = changedRows(change, height);
            if (rows === null) {
              expect(pages).toEqual([]);
              continue;
            }
            for (const p of pages) {
              expect(p).toBeGreaterThanOrEqual((rows[0] as number) >> 3);
              expect(p).toBeLessThanOrEqual((rows[1] as number) >> 3);
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(1000);
      expect(differing).toBeGreaterThan(500);
    });
  }

  it("an activity change alone is the bottom page; a name change alone the top page", () => {
    expect(changedRows({ name: false, expression: false, activity: true }, 64)).toEqual([58, 63]);
    expect(changedRows({ name: true, expression: false, activity: false }, 64)).toEqual([0, 5]);
    expect(changedRows({ name: false, expression: false, activity: false }, 64)).toBeNull();
  });
});

describe("the firmware sends only those pages", () => {
  it("a new activity with the same face goes out as page 7 alone", () => {
    const DISPLAY: DisplayProfile = { driver: "ssd1306-i2c", width: 128, height: 64, address: 0x3c, i2c: { scl: "D22", sda: "D21", bitrate: 400000 } };
    const { env, app } = bootPet({ board: { display: DISPLAY }, withDisplayHardware: true });
    const windows = () => env.i2cWrites.filter((w) => w.bytes[0] === 0x00 && w.bytes[1] === 0x21).map((w) => [w.bytes[5], w.bytes[6]]);
    expect(windows()).toEqual([[0, 7]]); // the first frame whole
    // A playing pet is happy, and so is an eating one: poke it into play, then let time pass until
    // play ends; when it ends in eating, the face stays and only the activity line changes.
    let found = false;
    for (let round = 0; round < 200 && !found; round++) {
      app.pet.interact();
      for (let i = 0; i < 30; i++) {
        const activity = app.world().activity;
        const expression = app.world().expression;
        const sent = windows().length;
        env.advance(1000);
        if (app.world().activity === activity) continue;
        if (app.world().expression === expression) {
          expect(windows().slice(sent)).toEqual([[7, 7]]);
          found = true;
        }
        break;
      }
    }
    expect(found).toBe(true);
  });

  it.each([64, 32])("every combination of changed parts goes out as the pages changedRows gives (a %i-row panel)", (height) => {
    const DISPLAY: DisplayProfile = { driver: "ssd1306-i2c", width: 128, height: height, address: 0x3c, i2c: { scl: "D22", sda: "D21", bitrate: 400000 } };
    const env = fakeEnv({ flash: rawFlashOver(newFlash()), withDisplayHardware: true });
    const display = createDisplay(testBoard({ display: DISPLAY }), env, () => {})!;
    const world = createWorld(nameFromString("Pip")!)!;
    const windows = () => env.i2cWrites.filter((w) => w.bytes[0] === 0x00 && w.bytes[1] === 0x21).map((w) => [w.bytes[5], w.bytes[6]]);
    expect(display.show(world, "Pip")).toBe(true);
    expect(windows()).toEqual([[0, height / 8 - 1]]);
    for (let k = 1; k < 8; k++) {
      const change: PictureChange = { name: (k & 1) !== 0, expression: (k & 2) !== 0, activity: (k & 4) !== 0 };
      const rows = changedRows(change, height)!;
      const sent = windows().length;
      expect(display.show(world, "Pip", change)).toBe(true);
      expect(windows().slice(sent), JSON.stringify(change)).toEqual([[rows[0]! >> 3, rows[1]! >> 3]]);
    }
  });
});
