/**
 * The board's pet drawn in the page from pet.status(): the firmware's own drawPet (firmware/face.ts)
 * on the emulator's 1-bit Graphics, painted on a canvas, with the name as the board's panel shows it
 * (nameForDisplay: "Zoë" drawn "Zoe"). The picture is the one the OLED shows, from the same code,
 * only fed from the status the board reports.
 */
import { drawPet } from "../../../firmware/face";
import { hexToBytes } from "../../core/hex";
import { nameForDisplay, utf8Encode } from "../../core/name";
import { ArrayBufferGraphics } from "../../host/emulator/graphics";
import { paintPixels } from "../oledCanvas";

const W = 128;
const H = 64;

/**
 * The name's bytes as the board reports them: nameHex, exact on every build (on the ESP32, whose
 * strings have no Unicode, `name` is the UTF-8 bytes one character each); the text's UTF-8 without it.
 */
export function statusNameBytes(status: Record<string, unknown>): Uint8Array {
  const exact = typeof status.nameHex === "string" ? hexToBytes(status.nameHex) : null;
  return exact !== null ? exact : utf8Encode(String(status.name));
}

export function paintPetFace(canvas: HTMLCanvasElement, status: Record<string, unknown>): void {
  const g = new ArrayBufferGraphics(W, H, true, false, { Uint8Array, ArrayBuffer });
  drawPet(g, nameForDisplay(statusNameBytes(status)), Number(status.expression), String(status.activityName));
  paintPixels(canvas, W, H, (x, y) => g.pixel(x, y) === 1);
}
