/**
 * Paints a 1-bit picture on a canvas the size of the panel (128x64); CSS scales it up with
 * `image-rendering: pixelated`, so every OLED pixel is a crisp square. Lit pixels are the pale blue
 * of the common SSD1306 modules, on black.
 */
const LIT = [0xbf, 0xe6, 0xff];

export function paintPixels(canvas: HTMLCanvasElement, width: number, height: number, lit: (x: number, y: number) => boolean): void {
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const ctx = canvas.getContext("2d");
  if (ctx === null) return;
  const img = ctx.createImageData(width, height);
  const d = img.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const on = lit(x, y);
      d[i] = on ? (LIT[0] as number) : 0;
      d[i + 1] = on ? (LIT[1] as number) : 0;
      d[i + 2] = on ? (LIT[2] as number) : 0;
      d[i + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
}
