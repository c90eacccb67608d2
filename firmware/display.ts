/**
 * The pet on an SSD1306 panel: sets up I2C, the panel and a 1-bit Graphics buffer, and draws the pet
 * into it whenever the firmware asks. Any failure turns the display off with one printed line; the
 * firmware then falls back to console status lines.
 */
import type { World } from "../src/core/types";
import { createSsd1306 } from "../src/platform/ssd1306";
import type { PetBoard } from "./board";
import type { PetEnv } from "../src/platform/env";
import { changedRows, drawPet, type PictureChange } from "./face";
import { errorText } from "./report";
import { activityName } from "../src/save/payloadJson";

/** Default I2C clock: the SSD1306 handles 400 kHz, which sends a 1 KiB frame in about 25 ms. */
const DEFAULT_I2C_BITRATE = 400000;

export interface PetDisplay {
  /**
   * Draws `world`, its name shown as `nameText` (nameForDisplay of its name, which the owner keeps
   * while the name does not change: decoding it costs a loop per byte on the interpreter), and sends
   * it: all of it, or with `change` only the pages under the parts that changed (face.ts
   * changedRows). `note`, when not empty, is shown in place of the activity (the running pet's
   * NOT_SAVING_NOTE). False (after printing why) when the panel failed.
   */
  show(world: World, nameText: string, change?: PictureChange, note?: string): boolean;
}

/**
 * Defined only by the device build, as whether its board profile has a display (scripts/lib/build.js,
 * terser's global_defs): a bundle for a board without one then folds the test below to `return null`
 * and carries neither the panel driver nor the drawing. Undeclared everywhere else (typeof answers
 * "undefined"), where the board passed in decides.
 */
declare const BOARD_HAS_DISPLAY: boolean | undefined;

/** The display for the board, or null when it has none, the env cannot drive one, or setup failed. */
export function createDisplay(board: PetBoard, env: PetEnv, print: (line: string) => void): PetDisplay | null {
  const d = board.display;
  if ((typeof BOARD_HAS_DISPLAY !== "undefined" && !BOARD_HAS_DISPLAY) || d === undefined) return null;
  if (d.driver !== "ssd1306-i2c") {
    print("display unavailable: unknown driver " + d.driver);
    return null;
  }
  if (env.setupI2C === undefined || env.createGraphics === undefined) {
    print("display unavailable: no I2C or Graphics here");
    return null;
  }
  try {
    const bitrate = typeof d.i2c.bitrate === "number" ? d.i2c.bitrate : DEFAULT_I2C_BITRATE;
    const i2c = env.setupI2C(d.i2c.scl, d.i2c.sda, bitrate);
    const panel = createSsd1306(i2c, d.address, d.width, d.height);
    const g = env.createGraphics(d.width, d.height);
    // The first and last page under each combination of changed parts (index: name 1, expression 2,
    // activity 4), worked out by changedRows the first time the combination comes up and looked up
    // after that: a redraw skips changedRows' dozen statements, and the boot does not run it seven
    // times (3 M instructions and 33 JsVars on the Linux build). Index 0 (a whole picture) is every page.
    const pages: number[][] = [[0, d.height / 8 - 1]];
    // g as createGraphics made it, until the first picture: that one skips the clear (drawPet).
    let fresh = true;
    return {
      show: function (world: World, nameText: string, change?: PictureChange, note?: string): boolean {
        try {
          const blank = fresh;
          fresh = false;
          drawPet(g, nameText, world.expression, note ? note : activityName(world.activity), blank);
          const k = change === undefined ? 0 : (change.name ? 1 : 0) + (change.expression ? 2 : 0) + (change.activity ? 4 : 0);
          let p = pages[k];
          if (p === undefined) {
            const rows = changedRows(change as PictureChange, d.height) as number[];
            p = pages[k] = [(rows[0] as number) >> 3, (rows[1] as number) >> 3];
          }
          panel.flush(g.buffer, p[0] as number, p[1] as number);
          return true;
        } catch (e) {
          print("display failed: " + errorText(e) + "; status lines from now on");
          return false;
        }
      },
    };
  } catch (e) {
    print("display unavailable: " + errorText(e));
    return null;
  }
}
