/**
 * The pet on an SSD1306 panel: sets up I2C, the panel and a 1-bit Graphics buffer, and draws the pet
 * into it whenever the firmware asks. Any failure turns the display off with one printed line; the
 * firmware then falls back to console status lines.
 */
import { nameForDisplay } from "../src/core/name";
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
  /** Draws `world` and sends it; false (after printing why) when the panel failed. */
  /**
   * Draws `world` and sends it: all of it, or with `change` only the pages under the parts that
   * changed (face.ts changedRows). False (after printing why) when the panel failed.
   */
  show(world: World, change?: PictureChange): boolean;
}

/** The display for the board, or null when it has none, the env cannot drive one, or setup failed. */
export function createDisplay(board: PetBoard, env: PetEnv, print: (line: string) => void): PetDisplay | null {
  const d = board.display;
  if (d === undefined) return null;
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
    return {
      show: function (world: World, change?: PictureChange): boolean {
        try {
          drawPet(g, nameForDisplay(world.name), world.expression, activityName(world.activity));
          const rows = change === undefined ? null : changedRows(change, d.height);
          if (rows === null) panel.flush(g.buffer);
          else panel.flush(g.buffer, (rows[0] as number) >> 3, (rows[1] as number) >> 3);
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
