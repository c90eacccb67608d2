/**
 * board-check's result as a person reads it: what the board is against the profile, the region as
 * `pet-save inspect` shows it (src/inspect/regionReport.ts regionText), the on-board timings beside
 * the floor as a table with ratios, the pet before and after, and what went wrong.
 */
import { regionText } from "../../../inspect/regionReport";
import type { DeviceBoardProfile } from "../../../boards/boardProfile";
import type { BoardCheck } from "./check";

function hex(n: number): string {
  return "0x" + n.toString(16).toUpperCase();
}

function yes(b: boolean): string {
  return b ? "yes" : "NO";
}

function ms(v: number | null): string {
  return (v === null ? "-" : v.toFixed(3)).padStart(9);
}

function times(v: number | null): string {
  return (v === null ? "-" : v.toFixed(2) + "x").padStart(11);
}

export function checkText(c: BoardCheck, profile: DeviceBoardProfile): string {
  const r = c.region;
  const want = profile.espruino;
  const free = c.report.free === null ? "none reported" : c.report.free.map((a) => hex(a.addr) + ".." + hex(a.addr + a.length - 1)).join(", ");
  let out = "board-check of " + c.port + " against " + c.profile + "\n\n";
  out += "board    Espruino " + c.version + " on " + c.board + " (the profile is for " + want.board + ", " + want.minVersion + " or later): " + (c.fits ? "fits" : "does NOT fit") + "\n";
  out += "flash    free by Flash.getFree(): " + free + "; Storage " + c.report.storage + " bytes (process.env.STORAGE)\n";
  out += "region   " + hex(r.address) + ".." + hex(r.address + r.size - 1) + " (" + r.size + " bytes): inside free flash " + yes(r.inFreeFlash) + ", inside the chip " + yes(r.inChip) +
    ", outside Storage " + yes(r.outsideStorage) + "\n";
  for (const p of c.problems) out += "         " + p.code + ": " + p.message + "\n";
  if (r.contents !== null) out += "\n" + regionText(r.contents, "on the board", false, c.profile);
  const t = c.timings;
  if (t.petSaveMs !== null || t.floorSaveMs !== null) {
    out += "\ntimings on the board, by its own clock (getTime()), median of " + t.runs + " runs, in ms:\n";
    out += "                  pet      floor   pet/floor\n";
    out += "  save      " + ms(t.petSaveMs) + "  " + ms(t.floorSaveMs) + times(c.ratios.save) + "   pet.save() / the floor's save (its writes are all-ones: docs/board.md)\n";
    out += "  restore   " + ms(t.restoreMs) + "  " + ms(t.floorRestoreMs) + times(c.ratios.restore) + "   pet.checkSave() / the floor's restore of the same save\n";
    out += "  status    " + ms(t.statusMs) + "  " + ms(t.floorEncodeMs) + times(c.ratios.status) + "   pet.status() / the floor's encode\n";
    out += "  idle tick " + ms(t.tickMs) + "  " + ms(null) + times(null) + "   pet.tick(), 2 ms after the one before\n";
  }
  if (c.pet !== null) {
    const a = c.pet.after;
    out += "\npet      " + c.pet.before.name + ", updates " + c.pet.before.updateCount + (a ? " -> " + a.name + ", updates " + a.updateCount : " -> none") +
      "; storage " + c.pet.before.storage + (c.pet.checkSave !== null ? "; its newest save: pet.checkSave() " + c.pet.checkSave : "") + "\n";
  }
  for (const s of c.skipped) out += "skipped  " + s + "\n";
  if (c.failures.length === 0 && c.skipped.length === 0) out += "\nresult   ok: the board fits, its region reads as above, and the pet is as it was found\n";
  else for (const f of c.failures) out += "FAILED   " + f + "\n";
  return out;
}
