/**
 * Opens (or creates, erased) the region image file the desktop keeps the pet in, as NOR flash.
 * Every write and erase reaches the file before the call returns, so killing the process at any
 * moment leaves the file as a power cut leaves the chip.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { NorFlashSim } from "../../../storage/norFlashSim";

export interface OpenedRegion {
  flash: NorFlashSim;
  /** True when the file did not exist and was created erased. */
  created: boolean;
  close(): void;
}

export class RegionImageError extends Error {}

export function openRegionFile(path: string, size: number, sectorSize: number): OpenedRegion {
  const created = !existsSync(path);
  let fd: number;
  try {
    fd = openSync(path, created ? "wx+" : "r+");
  } catch (e) {
    throw new RegionImageError("cannot open region image " + path + ": " + (e instanceof Error ? e.message : String(e)));
  }
  const initial = new Uint8Array(size).fill(0xff);
  if (created) {
    writeSync(fd, initial, 0, size, 0);
  } else {
    const actual = fstatSync(fd).size;
    if (actual !== size) {
      closeSync(fd);
      throw new RegionImageError(
        "region image " + path + " is " + actual + " bytes but the board profile's region is " + size +
          " bytes: not an image of this region (use --image for another file)",
      );
    }
    readSync(fd, initial, 0, size, 0);
  }
  let flash: NorFlashSim | null = null;
  flash = new NorFlashSim({
    size,
    sectorSize,
    initial,
    // Write-through: the changed cells, synchronously, before the flash call returns. (The callback
    // has been given either the changed length or the changed cells; both are handled.)
    onChange: (offset: number, changed: unknown) => {
      if (changed instanceof Uint8Array) writeSync(fd, changed, 0, changed.length, offset);
      else writeSync(fd, (flash as NorFlashSim).image(), offset, Number(changed), offset);
    },
  });
  return {
    flash,
    created,
    close: () => closeSync(fd),
  };
}
