/**
 * The region part of boardFit.ts's rule, in the form the firmware runs at every boot before it
 * touches the pet's region (firmware/runningPet.ts): inside a free area of Flash.getFree(), inside
 * the chip (Flash.getPage() of its last byte answers a page of the profile's size that ends where the
 * region ends), outside Storage (process.env.STORAGE is one of the sizes the profile knows). Same steps,
 * same order, same codes as regionVerdict in boardFit.ts; test/boards-region-fit-fast-agrees.test.ts
 * holds the two equal on random and real boards.
 *
 * Why a second form: on the interpreter every statement costs 20 000 to 45 000 x86 instructions and
 * every call re-reads the callee's text, so the boot gets one function of a few statements (a loop
 * of one test an area, one native getPage call) instead of the original's helpers, closures and
 * messages. The check must cost at most 0.5 M instructions of the boot; what it costs is the bench's
 * `regionCheckBootInstructions` (docs/figures.md). The original also checks that the region misses storageArea; the build has
 * already refused a profile where it does not (checkBoardProfile), so the device need not.
 *
 * Runs on the device: ES5 only.
 */
import type { EspruinoFlash, FlashArea } from "../storage/flash";

/**
 * 0 when the region from `address` up to (not including) `end`, erased in pages of `pageSize`, fits
 * the board, else why not, as a number misfitCode names: 1 not inside a free area of getFree(), 2
 * the page of its last byte is not a page of the profile's size ending where it ends, 3
 * process.env.STORAGE (`storage`) is none of `storageSizes`, what the build derived from the profile.
 * `flash` is require("Flash"): its getFree and getPage are called (a flash without them throws, and
 * the boot then stores nothing). The board's answers come first and the profile's numbers last, so
 * that terser, given those as constants, drops them from the call.
 *
 * Written for the interpreter, which reads a function's whole text when it defines it and again
 * when it runs it, and spends 5 000 to 10 000 instructions on each property read: numbers in, a
 * number out (misfitWords has the words, for a refusal), a loop of one test an area. The device
 * build passes the profile's numbers as constants, which terser writes into the body in place of
 * the parameters.
 */
export function regionMisfit(flash: Pick<EspruinoFlash, "getFree" | "getPage">, storage: unknown, address: number, end: number, pageSize: number, storageSizes: number[]): number {
  const free = (flash.getFree as () => FlashArea[])();
  let i = free.length;
  // Back to front; stops at the area that holds the region (i >= 0), or at -1.
  while (i-- && ((free[i] as FlashArea).addr > address || end > (free[i] as FlashArea).addr + (free[i] as FlashArea).length));
  if (i < 0) return 1;
  const last = (flash.getPage as (addr: number) => FlashArea | undefined)(end - 1);
  return last && last.addr + last.length === end && last.length === pageSize ? (storageSizes.indexOf(storage as number) < 0 ? 3 : 0) : 2;
}

/** regionMisfit's answer as boardFit.ts's FIT code: "ok", "region-not-free", "region-outside-chip", "region-in-storage". */
export function misfitCode(n: number): string {
  return n === 0 ? "ok" : n === 1 ? "region-not-free" : n === 2 ? "region-outside-chip" : "region-in-storage";
}

/** A few words on what the board reported, for the boot line of a refusal (`code` from misfitCode). */
export function misfitWords(code: string, r: { address: number; size: number; pageSize: number }, storageSizes: number[], storage: unknown): string {
  const span = r.address.toString(16) + ".." + (r.address + r.size - 1).toString(16);
  if (code === "region-not-free") return span + " is not inside Flash.getFree()";
  if (code === "region-outside-chip") return "Flash.getPage(" + (r.address + r.size - 1).toString(16) + ") answers no " + r.pageSize + "-byte page ending at the region's end";
  return "process.env.STORAGE is " + storage + ", not " + storageSizes.join(" or ");
}
