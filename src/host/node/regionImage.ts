/**
 * A region image file on disk that behaves as the board's reserved NOR flash region, for the
 * desktop simulator and the pet-save tool.
 *
 * The file is exactly the region (byte i of the file is flash address `address + i`). The flash is
 * a NorFlashSim whose every write and erase is written through to the file (one pwrite of the
 * changed cells) before the call returns, so killing the process at any instant, `kill -9`
 * included, leaves the file exactly as a power cut leaves the chip: every earlier operation
 * complete, none half-applied by us. With `durable: true` each change is also fsynced, which
 * extends that to an operating-system crash at the cost of speed.
 *
 * A missing file is created erased (all 0xFF) through writeFileAtomic, so a crash while creating
 * it never leaves a short file. A file of another size is refused rather than reinterpreted.
 */
import * as fs from "node:fs";
import { StatusFlash, FlashRead, FlashStatus } from "../../storage/flash";
import { NorFlashSim } from "../../storage/norFlashSim";
import { writeFileAtomic } from "./atomicFile";

export interface RegionImageOptions {
  path: string;
  /** Absolute flash address of the region (the board profile's petRegion.address). */
  address: number;
  /** Region size in bytes. */
  size: number;
  /** Erase page size of the simulated flash. */
  pageSize: number;
  /** Create an erased image when the file does not exist (default true). */
  create?: boolean;
  /** fsync after every write and erase (default false: kill -9 safe, not OS-crash safe). */
  durable?: boolean;
}

export type RegionImageStatus = "ok" | "created" | "missing" | "wrong-size" | "cannot-open" | "bad-config";

export interface RegionImage {
  /** The flash to hand to SlotLog. Fails with a status (never throws) once the file cannot be written. */
  flash: StatusFlash;
  /** The simulator underneath: counters, erase counts, image(). */
  sim: NorFlashSim;
  path: string;
  /** Why writing the file stopped working, or null. */
  fileError(): string | null;
  close(): void;
}

export interface OpenRegionImageResult {
  status: RegionImageStatus;
  image: RegionImage | null;
  message: string;
}

function fail(status: RegionImageStatus, message: string): OpenRegionImageResult {
  return { status, image: null, message };
}

function reason(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : e instanceof Error ? e.message : String(e);
}

export function openRegionImage(o: RegionImageOptions): OpenRegionImageResult {
  if (!(o.size > 0) || !(o.pageSize > 0) || o.size % o.pageSize !== 0 || !(o.address >= 0)) {
    return fail("bad-config", "region size must be a positive multiple of the page size");
  }
  let created = false;
  if (!fs.existsSync(o.path)) {
    if (o.create === false) return fail("missing", "no region image at " + o.path);
    const w = writeFileAtomic(o.path, new Uint8Array(o.size).fill(0xff));
    if (w.status !== "ok") return fail("cannot-open", w.message);
    created = true;
  }
  let fd: number;
  try {
    fd = fs.openSync(o.path, "r+");
  } catch (e) {
    return fail("cannot-open", "cannot open region image " + o.path + " for writing (" + reason(e) + ")");
  }
  const initial = new Uint8Array(o.size);
  try {
    const actual = fs.fstatSync(fd).size;
    if (actual !== o.size) {
      fs.closeSync(fd);
      return fail(
        "wrong-size",
        "region image " + o.path + " is " + actual + " bytes, but the region is " + o.size + " bytes: it is not an image of this region",
      );
    }
    let got = 0;
    while (got < o.size) {
      const n = fs.readSync(fd, initial, got, o.size - got, got);
      if (n <= 0) throw new Error("short read");
      got += n;
    }
  } catch (e) {
    try {
      fs.closeSync(fd);
    } catch {
      // nothing more to do
    }
    return fail("cannot-open", "cannot read region image " + o.path + " (" + reason(e) + ")");
  }

  let fileError: string | null = null;
  let open = true;
  const durable = o.durable === true;
  const sim = new NorFlashSim({
    size: o.size,
    pageSize: o.pageSize,
    baseAddress: o.address,
    initial,
    onChange: (offset: number, cells: Uint8Array) => {
      if (fileError !== null) return;
      try {
        let done = 0;
        while (done < cells.length) {
          const n = fs.writeSync(fd, cells, done, cells.length - done, offset + done);
          if (n <= 0) throw new Error("write made no progress");
          done += n;
        }
        if (durable) fs.fsyncSync(fd);
      } catch (e) {
        fileError = "writing region image " + o.path + " failed (" + reason(e) + ")";
      }
    },
  });

  // Once the file cannot follow the cells, memory and file disagree: stop, and say so in every status.
  const flash: StatusFlash = {
    pageSize: o.pageSize,
    read(length: number, address: number): FlashRead {
      if (fileError !== null || !open) return { status: "read-failed", bytes: null };
      return sim.read(length, address);
    },
    write(data: Uint8Array, address: number): FlashStatus {
      if (fileError !== null || !open) return "write-failed";
      const s = sim.write(data, address);
      return fileError !== null ? "write-failed" : s;
    },
    erasePage(address: number): FlashStatus {
      if (fileError !== null || !open) return "erase-failed";
      const s = sim.erasePage(address);
      return fileError !== null ? "erase-failed" : s;
    },
  };

  return {
    status: created ? "created" : "ok",
    message: created ? "created an erased region image at " + o.path : "opened " + o.path,
    image: {
      flash,
      sim,
      path: o.path,
      fileError: () => fileError,
      close: () => {
        if (!open) return;
        open = false;
        try {
          fs.closeSync(fd);
        } catch {
          // already closed or gone
        }
      },
    },
  };
}
