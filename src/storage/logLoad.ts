/**
 * Reading where the log stands, without writing anything: the boot's search for the newest payload
 * that passes the caller's validity check (at most `maxBootChecks` checks), and the writer's cheaper
 * look at the same headers and marks when it has to save without such a boot. Both leave the writer
 * position adopted (slotLogState.ts). Why one check is enough after any run of power cuts is argued
 * in docs/storage.md ("Invariants").
 *
 * Runs on Espruino: plain functions, no Map/Set, functions defined before use.
 */
import { FlashStatus, safeRead } from "./flash";
import { ERASED, slotAddress } from "./regionLayout";
import { lastCommitted, readMarks, scanHeaders, solidifyMark, weakMarks } from "./logScan";
import { LoadResult, noPayload } from "./slotLogTypes";
import { SlotLogContext, adoptPosition } from "./slotLogState";

/** The caller's check, counted in the log's stats; a check that throws counts as invalid. */
function passesCheck(ctx: SlotLogContext, payload: Uint8Array): boolean {
  ctx.counts.validityChecks++;
  try {
    return ctx.isValidPayload(payload) === true;
  } catch (e) {
    return false;
  }
}

/**
 * Finds the newest payload that passes the validity check: sectors newest first, within each the
 * committed slots from the highest down. Reads only: a load never writes or erases, so rebooting
 * any number of times leaves the region unchanged.
 */
export function loadNewestSave(ctx: SlotLogContext): LoadResult {
  const l = ctx.layout;
  const pos = ctx.position;
  let checks = 0;
  pos.known = false;
  const scan = scanHeaders(ctx.flash, l);
  if (scan.status !== "ok") return noPayload("read-failed", "could not read a sector header (" + scan.status + ")", 0);
  if (scan.order.length === 0) {
    adoptPosition(pos, scan, null, -1, []);
    if (scan.erasedCount === l.sectorCount) return noPayload("empty", "the region is erased: nothing was saved yet", 0);
    return noPayload("no-log", "no sector carries a valid slot-log header: the region holds foreign or damaged data", 0);
  }
  let newestMarks: Uint8Array | null = null;
  const weak: number[] = [];
  // The sector of the newest committed slot, whatever its check says: protected when nothing passes.
  let firstCommitted = -1;
  let committedSeen = 0;
  for (let k = 0; k < scan.order.length; k++) {
    const sector = scan.order[k] as number;
    const marks = readMarks(ctx.flash, l, sector);
    if (marks === null) return noPayload("read-failed", "could not read the commit marks of sector " + sector, checks);
    if (k === 0) {
      newestMarks = marks;
      weakMarks(l, sector, marks, weak);
      solidifyMark(l, sector, lastCommitted(marks), weak);
    }
    for (let slot = marks.length - 1; slot >= 0; slot--) {
      if (marks[slot] === ERASED) continue;
      committedSeen++;
      if (firstCommitted < 0) firstCommitted = sector;
      if (checks >= ctx.maxBootChecks) {
        adoptPosition(pos, scan, newestMarks, firstCommitted, weak);
        return noPayload("no-valid-save", "gave up after " + ctx.maxBootChecks + " committed slots failed the validity check", checks);
      }
      const r = safeRead(ctx.flash, l.payloadLength, slotAddress(l, sector, slot));
      if (r.status !== "ok" || r.bytes === null) {
        return noPayload("read-failed", "could not read slot " + slot + " of sector " + sector, checks);
      }
      checks++;
      if (passesCheck(ctx, r.bytes)) {
        if (k !== 0) weakMarks(l, sector, marks, weak);
        solidifyMark(l, sector, slot, weak); // the mark this boot's answer rests on
        adoptPosition(pos, scan, newestMarks, sector, weak);
        return { status: "ok", payload: r.bytes, message: "ok", checks: checks, sector: sector, slot: slot, seq: scan.seqs[sector] as number };
      }
    }
  }
  adoptPosition(pos, scan, newestMarks, firstCommitted, weak);
  // No set mark in any valid sector means no save ever committed (docs/storage.md, "Booting").
  if (committedSeen === 0) return noPayload("no-committed-save", "the log has sectors but no committed save", checks);
  return noPayload("no-valid-save", committedSeen + " committed slots failed the validity check", checks);
}

/**
 * Reads headers and marks, newest sector first, down to the newest committed slot, and adopts the
 * writer position without any validity check: for a save with no load before it, or after a failed
 * mark write left the writer unsure of the flash.
 */
export function findWriterPosition(ctx: SlotLogContext): FlashStatus {
  const l = ctx.layout;
  const scan = scanHeaders(ctx.flash, l);
  if (scan.status !== "ok") return scan.status;
  if (scan.order.length === 0) {
    adoptPosition(ctx.position, scan, null, -1, []);
    return "ok";
  }
  let newestMarks: Uint8Array | null = null;
  const weak: number[] = [];
  let protectedSector = -1;
  for (let k = 0; k < scan.order.length && protectedSector < 0; k++) {
    const sector = scan.order[k] as number;
    const marks = readMarks(ctx.flash, l, sector);
    if (marks === null) return "read-failed";
    const hasCommitted = lastCommitted(marks) >= 0;
    if (k === 0) newestMarks = marks;
    if (k === 0 || hasCommitted) {
      weakMarks(l, sector, marks, weak);
      solidifyMark(l, sector, lastCommitted(marks), weak);
    }
    if (hasCommitted) protectedSector = sector;
  }
  adoptPosition(ctx.position, scan, newestMarks, protectedSector, weak);
  return "ok";
}
