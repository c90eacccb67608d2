/**
 * The board's pet drawn in the page from pet.status(): the firmware's own drawPet (firmware/face.ts)
 * on the emulator's 1-bit Graphics, painted on a canvas. The picture is the one the OLED shows, from
 * the same code, only fed from the status the board reports.
 */
import { drawPet } from "../../../firmware/face";
import { ArrayBufferGraphics } from "../../host/emulator/graphics";
import { paintPixels } from "../oledCanvas";

const W = 128;
const H = 64;

export function paintPetFace(canvas: HTMLCanvasElement, status: Record<string, unknown>): void {
  const g = new ArrayBufferGraphics(W, H, true, false, { Uint8Array, ArrayBuffer });
  drawPet(g, String(status.name), Number(status.expression), String(status.activityName));
  paintPixels(canvas, W, H, (x, y) => g.pixel(x, y) === 1);
}
