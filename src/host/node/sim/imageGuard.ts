/**
 * Before the desktop runs the firmware over an existing file, make sure the file is a pet region:
 * the firmware treats a region without a pet log as empty and formats it, which on a board is right
 * (the region is reserved for the pet) but on the desktop would silently destroy whatever file
 * `--image` was pointed at. So an existing file must have the region's size and either be erased or
 * hold at least one sector of our slot log; anything else is refused unless the user asked for a
 * reset, which starts from an erased region. A missing file is created erased as before.
 */
import * as fs from "node:fs";
import { NorFlashSim } from "../../../storage/norFlashSim";
import { computeLayout } from "../../../storage/regionLayout";
import { scanRegion } from "../../../storage/regionScan";
import { writeFileAtomic } from "../atomicFile";
import { isLoadablePayload } from "../../../save/codec";

export type ImageVerdict = "absent" | "pet-region" | "wrong-size" | "foreign";

export interface ImageCheck {
  verdict: ImageVerdict;
  /** Why the file is not usable ("it is 1000 bytes, ..."), for wrong-size and foreign; else "". */
  reason: string;
}

export interface GuardRegion {
  size: number;
  pageSize: number;
}

/** What the file at `path` is, judged by its size and the storage layer's own region scan. */
export function checkRegionImage(path: string, region: GuardRegion): ImageCheck {
  let size: number;
  try {
    size = fs.statSync(path).size;
  } catch (e) {
    if ((e as { code?: unknown }).code === "ENOENT") return { verdict: "absent", reason: "" };
    throw e;
  }
  if (size !== region.size) {
    return {
      verdict: "wrong-size",
      reason: "it is " + size + " bytes, but a region image of this board is " + region.size + " bytes",
    };
  }
  const bytes = new Uint8Array(fs.readFileSync(path));
  const computed = computeLayout({ address: 0, size: region.size, sectorSize: region.pageSize }, region.pageSize);
  if (computed.layout === null) throw new Error("board region: " + computed.message);
  const flash = new NorFlashSim({ size: region.size, pageSize: region.pageSize, initial: bytes });
  const scan = scanRegion(flash, computed.layout, isLoadablePayload);
  let logSectors = 0;
  let otherSectors = 0;
  for (const s of scan.sectors) {
    if (s.state === "log") logSectors++;
    else if (s.state !== "erased") otherSectors++;
  }
  if (scan.status !== "ok" || (logSectors === 0 && otherSectors > 0)) {
    return {
      verdict: "foreign",
      reason:
        "it holds data but no pet save log (" + otherSectors + " of " + scan.sectors.length +
        " sectors are neither erased nor a pet log): some other file, or a region of another layout",
    };
  }
  return { verdict: "pet-region", reason: "" };
}

/**
 * Throws (with a message naming the file and the way out) when `path` exists and is not a pet region,
 * unless `reset`; with `reset` the file is replaced by an erased region (atomically) first.
 * Returns what the file was.
 */
export function guardRegionImage(path: string, region: GuardRegion, reset: boolean): ImageVerdict {
  const check = checkRegionImage(path, region);
  if (check.verdict === "absent" || (check.verdict === "pet-region" && !reset)) return check.verdict;
  if (!reset) {
    throw new Error(
      "refusing to use " + path + " as the pet region: " + check.reason +
        ". The file was left untouched; start with --reset to erase it and hatch a new pet, or use --image for another file",
    );
  }
  const w = writeFileAtomic(path, new Uint8Array(region.size).fill(0xff));
  if (w.status !== "ok") throw new Error(w.message);
  return check.verdict;
}
