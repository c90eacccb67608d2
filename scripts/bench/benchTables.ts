/**
 * What the bench's firmware sections measure and the small helpers they share: the operations run
 * against the floor (floor.js's names) and what each is compared with, the interpreter primitives,
 * and how a part that fails is reported without hiding the others. The Linux interpreter's section
 * (firmware.ts) and the emulated chip's (chip.ts) run the same operations.
 */

export type Figures = Record<string, unknown>;

/** An operation of floor.js's benchOp, the floor operation it is divided by, and its safe floor. */
export interface BenchOp {
  name: string;
  floor: string | null;
  safe?: string;
  what: string;
}

export const OPS: BenchOp[] = [
  { name: "floorEncode", floor: "floorEncode", what: "floor: DataView encode of the 84-byte payload + E.CRC32" },
  { name: "floorSave", floor: "floorSave", what: "floor: encode + Flash.write 84 B + 4-byte mark into erased flash" },
  {
    name: "floorExport",
    floor: "floorEncode",
    what: "floor: the floor's encode and the 84 bytes as hex through one E.mapInPlace, the world not checked",
  },
  { name: "floorRestore", floor: "floorRestore", what: "floor: Flash.read 84 B + E.CRC32 + DataView decode" },
  {
    name: "safeFloorSave",
    floor: "floorSave",
    what: "safe floor: the world checked, then the floor save with the blank check, the payload read back and the 1-byte mark read back",
  },
  {
    name: "safeFloorRestore",
    floor: "floorRestore",
    what: "safe floor: 16 sequence words, 1 header, the marks classified, 1 slot, every acceptance check (pet region, read only)",
  },
  {
    name: "safeFloorExport",
    floor: "floorEncode",
    what: "safe floor: the world checked as the safe save checks it, the floor's encode, the 84 bytes as hex through one E.mapInPlace",
  },
  { name: "storageWrite", floor: "floorSave", what: "require(\"Storage\").write of an 84-byte file" },
  { name: "storageRead", floor: "floorRestore", what: "require(\"Storage\").readArrayBuffer of it" },
  { name: "petSave", floor: "floorSave", safe: "safeFloorSave", what: "pet.save() after an untimed pet.interact()" },
  { name: "petRestore", floor: "floorRestore", safe: "safeFloorRestore", what: "openPetStore(require(\"Flash\"), board.petRegion, board.petLayout).restore(wallMs)" },
  { name: "petStatus", floor: "floorEncode", what: "pet.status()" },
  { name: "petExportHex", floor: "floorEncode", safe: "safeFloorExport", what: "pet.exportHex()" },
  { name: "petInteract", floor: null, what: "pet.interact()" },
  {
    name: "regionCheck",
    floor: null,
    what: "the boot's region check: process.env.STORAGE, Flash.getFree(), two Flash.getPage() and the comparisons (src/boards/regionFit.ts)",
  },
];

/** A primitive of prims.js, operations per sample, and what it is. */
export const PRIMS: { name: string; n: number; what: string }[] = [
  { name: "call", n: 200, what: "call of a one-line function f(i)" },
  { name: "closure", n: 200, what: "creation of a closure (function expression in a loop)" },
  { name: "concat", n: 200, what: "string concatenation \"Benchmark\" + \"!\"" },
  { name: "subarray", n: 200, what: "Uint8Array.subarray(49, 80)" },
  { name: "typedSet", n: 200, what: "Uint8Array.set of 16 bytes" },
  { name: "dataView", n: 200, what: "DataView.setUint32(6, i, true)" },
  { name: "crc32", n: 200, what: "E.CRC32 over 80 bytes" },
  { name: "flashRead", n: 50, what: "Flash.read of 84 bytes" },
  { name: "flashWrite", n: 40, what: "Flash.write of 84 bytes into erased flash" },
  { name: "erasePage", n: 8, what: "Flash.erasePage (one page of the profile's pageSize)" },
];

export function round(x: number, digits = 4): number {
  const f = Math.pow(10, digits);
  return Math.round(x * f) / f;
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The first line of what went wrong, as a part's `{ skipped }`. */
export function skipped(e: unknown): { skipped: string } {
  return { skipped: errorText(e).split("\n")[0]! };
}

/** `fn()`, or `{ skipped: why }` when it throws: one broken part does not hide the others. */
export function attempt<T>(fn: () => T): T | { skipped: string } {
  try {
    return fn();
  } catch (e) {
    return skipped(e);
  }
}

/** The ratio n / ref to two decimals, or null without a usable reference. */
export function ratioTo(n: number, ref: unknown): number | null {
  return typeof ref !== "number" || ref <= 0 ? null : round(n / ref, 2);
}

/** The median of some numbers (the middle one of an odd count, the lower middle of an even one). */
export function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[(s.length - 1) >> 1]!;
}
