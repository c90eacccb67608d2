/**
 * The region part of boardFit.ts's rule, in the form the firmware runs at every boot before it
 * touches the pet's region (firmware/runningPet.ts): inside a free area of Flash.getFree(), inside
 * the chip (Flash.getPage() answers pages of the profile's size where the profile's first and last
 * pages start), outside Storage (process.env.STORAGE is the size the profile expects). Same steps,
 * same order, same codes as regionVerdict in boardFit.ts; test/boards-region-fit-fast-agrees.test.ts
 * holds the two equal on random and real boards.
 *
 * Why a second form: on the interpreter every statement costs 20 000 to 45 000 x86 instructions and
 * every call re-reads the callee's text, so the boot gets one function of a few statements (a loop
 * of one statement an area, two native getPage calls) instead of the original's helpers, closures
 * and messages. The check must cost at most 0.5 M instructions of the boot (npm run bench:
 * `regionCheck`). The original also checks that the region misses storageArea; the build has
 * already refused a profile where it does not (checkBoardProfile), so the device need not.
 *
 * Runs on the device: ES5 only.
 */
import type { BoardFlash, FlashArea } from "../platform/env";

/**
 * "" when the region fits the board, else why not: a code of boardFit.ts's FIT ("region-not-free",
 * "region-outside-chip", "region-in-storage") and a few words in brackets. `storageSize` is what
 * process.env.STORAGE must be (the build derives it from the profile), `storage` what it is.
 */
export function regionMisfit(r: { address: number; size: number; pageSize: number }, storageSize: number, flash: BoardFlash, storage: unknown): string {
  const a = r.address;
  const e = a + r.size;
  const p = r.pageSize;
  const free = flash.getFree !== undefined ? flash.getFree() : [];
  let f: FlashArea | undefined;
  let i = free.length;
  // Back to front, one statement an area; stops at the area that holds the region (i >= 0).
  while (i-- > 0 && !((f = free[i] as FlashArea).addr <= a && e <= f.addr + f.length));
  if (i < 0) return "region-not-free (" + a.toString(16) + ".." + (e - 1).toString(16) + " is not inside Flash.getFree())";
  f = flash.getPage !== undefined ? flash.getPage(a) : undefined;
  const l = flash.getPage !== undefined ? flash.getPage(e - 1) : undefined;
  if (!f || !l || f.addr !== a || f.length !== p || l.addr !== e - p || l.length !== p) {
    return "region-outside-chip (Flash.getPage() answers no " + p + "-byte pages at " + a.toString(16) + ".." + (e - 1).toString(16) + ")";
  }
  if (storage !== storageSize) return "region-in-storage (process.env.STORAGE is " + storage + ", not " + storageSize + ")";
  return "";
}
