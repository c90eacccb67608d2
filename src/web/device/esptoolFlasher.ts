/**
 * Writing Espruino with esptool-js: the narrow boundary between the page and the library. The page
 * calls only `EspFlasher`; `esptoolFlasher` implements it with esptool-js's Transport and ESPLoader
 * over the Web Serial port. Tests replace the whole boundary by setting
 * `globalThis.__espruinoPetFlasher` to a factory of their own (a fake that records offsets, order
 * and progress, or fails), which is the only thing that hook is for.
 */
import { ESPLoader, Transport } from "esptool-js";
import type { FlashImage } from "./espruinoImages";

export interface EspFlasher {
  /** Puts the chip in its download mode and returns its name ("ESP32", "ESP32-S3", ...). */
  connect(): Promise<string>;
  /** Writes the images (each at its address, in the order given); progress in bytes over all of them. */
  write(images: FlashImage[], eraseAll: boolean, progress: (written: number, total: number) => void): Promise<void>;
  /** Hard reset into the new firmware, and let go of the port. */
  finish(): Promise<void>;
}

export type EspFlasherFactory = (port: unknown) => EspFlasher;

const FLASH_BAUD = 921600;

export function esptoolFlasher(port: unknown): EspFlasher {
  const transport = new Transport(port as ConstructorParameters<typeof Transport>[0], false);
  const loader = new ESPLoader({ transport, baudrate: FLASH_BAUD, romBaudrate: 115200 });
  return {
    async connect() {
      try {
        await loader.main();
      } catch (e) {
        // The page carries the ESP32's flasher stub only (scripts/lib/buildWeb.js): on another chip
        // main() fails after recognising it, and its name is the clearer answer.
        const chip = (loader as { chip?: { CHIP_NAME?: string } }).chip;
        if (chip && chip.CHIP_NAME && chip.CHIP_NAME !== "ESP32") return chip.CHIP_NAME;
        throw e;
      }
      return loader.chip.CHIP_NAME;
    },
    async write(images, eraseAll, progress) {
      const total = images.reduce((n, i) => n + i.bytes.length, 0);
      const before = images.map((_, k) => images.slice(0, k).reduce((n, i) => n + i.bytes.length, 0));
      await loader.writeFlash({
        fileArray: images.map((i) => ({ data: i.bytes, address: i.address })),
        flashSize: "keep",
        flashMode: "keep",
        flashFreq: "keep",
        eraseAll,
        compress: true,
        // esptool-js reports per file, in compressed bytes written of that file's compressed size.
        reportProgress: (index, written, size) => {
          const file = (images[index] as FlashImage).bytes.length;
          progress((before[index] as number) + Math.round((written / Math.max(1, size)) * file), total);
        },
      });
    },
    async finish() {
      await loader.after("hard_reset");
      await transport.disconnect();
    },
  };
}

/** The factory in use: a test's, when one is installed, else esptool-js. */
export function flasherFactory(): EspFlasherFactory {
  const hook = (globalThis as { __espruinoPetFlasher?: EspFlasherFactory }).__espruinoPetFlasher;
  return typeof hook === "function" ? hook : esptoolFlasher;
}
