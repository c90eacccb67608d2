/**
 * What the panel shows on its top rows for a name typed in plain ASCII, drawn in Node by the
 * firmware's own drawPet on the emulator's Graphics: the picture a name the font cannot draw as
 * typed ("Zoë") must match once the page and the board have turned it into the letters the font has.
 */
import { drawPet } from "../firmware/face";
import { ArrayBufferGraphics } from "../src/host/emulator/graphics";

/** The name's text line (the top NAME_ROWS rows), as "#"/"." strings, for `asciiName`. */
export const NAME_ROWS = 5;
export function nameRows(asciiName: string): string[] {
  const g = new ArrayBufferGraphics(128, 64, true, false, { Uint8Array, ArrayBuffer });
  drawPet(g, asciiName, 0, "idle");
  const out: string[] = [];
  for (let y = 0; y < NAME_ROWS; y++) {
    let row = "";
    for (let x = 0; x < 128; x++) row += g.pixel(x, y) === 1 ? "#" : ".";
    out.push(row);
  }
  return out;
}
