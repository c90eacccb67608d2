/**
 * Writing one save (steps 2 to 5 of a save in docs/storage.md): payload into the next blank slot,
 * read back, then its one-byte commit mark, opening a new sector (sectorOpen.ts) when the newest one
 * has no usable slot left. Before its first write after the log was adopted, the writer makes
 * solid what a cut may have left weakly programmed: set marks that are not exactly 0x00, the newest
 * set marks whatever they read, and the header of a newest sector with nothing committed in it. On any failure but "commit-unknown" the
 * previous save stays the newest readable one; after "commit-unknown" it is that one or this one.
 *
 * Runs on Espruino: plain functions, no Map/Set, functions defined before use.
 */
import { safeRead, safeWrite } from "./flash";
import { ERASED, MARK_COMMITTED, allErased, markAddress, sameBytes, slotAddress } from "./regionLayout";
import { findWriterPosition } from "./logLoad";
import { openNextSector, programHeader } from "./sectorOpen";
import { SaveResult, failSave } from "./slotLogTypes";
import { SlotLogContext } from "./slotLogState";

/** Payload read-back mismatches tolerated in one save before giving up. */
const MAX_VERIFY_FAILURES = 2;

/**
 * Programs the marks listed at adoption to 0x00: those set but not 0x00, and the newest set marks the
 * boot's answer rests on even when they read 0x00 (a weak cell can read 0x00 and decay later). Every
 * one is already set, so a cut here leaves it set whatever lands.
 */
function strengthenWeakMarks(ctx: SlotLogContext): SaveResult | null {
  const weak = ctx.position.weakMarks;
  const zero = new Uint8Array(1);
  zero[0] = MARK_COMMITTED;
  while (weak.length > 0) {
    const w = safeWrite(ctx.flash, zero, weak[weak.length - 1] as number);
    if (w !== "ok") return failSave("write-failed", "programming a partly set commit mark failed (" + w + ")", w);
    weak.pop();
  }
  return null;
}

/**
 * Programs the adopted newest sector's header again with the same bytes (its last bit may have
 * landed weakly in a cut). False when it does not read back exactly: the save moves on to a new sector.
 */
function refreshNewestHeader(ctx: SlotLogContext): SaveResult | boolean {
  const pos = ctx.position;
  const programmed = programHeader(ctx, pos.newest, pos.newestSeq, "programming the header of sector " + pos.newest + " again");
  if (programmed === true || programmed === false) pos.refreshHeader = false;
  return programmed;
}

/** Reads one mark, trying the read once more if it fails: its value, or -1 when both reads failed. */
function readMarkTwice(ctx: SlotLogContext, markAt: number): number {
  for (let k = 0; k < 2; k++) {
    const mb = safeRead(ctx.flash, 1, markAt);
    if (mb.status === "ok" && mb.bytes !== null) return mb.bytes[0] as number;
  }
  return -1;
}

/** Wording shared by every commit-unknown result: what the caller may and may not assume. */
const MAY_BE_NEWEST = ": this save may or may not be the one the next boot returns (save again to be sure)";

/**
 * Programs a commit mark to 0x00 and reads it back; a mark that reads anything but 0x00 is
 * programmed once more. Only a mark that still reads 0xFF after that is a failure (verify-failed):
 * any other value already commits the slot.
 *
 * Once the mark write has been issued, the mark may be set on the flash whatever the write call
 * said. So a failure that leaves its state unconfirmed (the read-back fails twice, or the write
 * reported an error but the mark reads set) is "commit-unknown", never a plain failure: a plain
 * failure promises that the previous save is still the newest, and that is only known when the
 * mark reads 0xFF. After any failure the next save reads the writer position from the flash again.
 */
function commitMark(ctx: SlotLogContext, markAt: number): SaveResult | null {
  const markBytes = new Uint8Array(1);
  markBytes[0] = MARK_COMMITTED;
  let tries = 0;
  for (;;) {
    tries++;
    const mw = safeWrite(ctx.flash, markBytes, markAt);
    const v = readMarkTwice(ctx, markAt);
    if (v < 0) {
      ctx.position.known = false;
      return failSave("commit-unknown", "reading back the commit mark failed" + MAY_BE_NEWEST, mw === "ok" ? "read-failed" : mw);
    }
    if (mw !== "ok") {
      ctx.position.known = false;
      // Read as 0xFF the mark is not set (a set bit never reads back as erased): nothing committed.
      if (v === ERASED) return failSave("write-failed", "writing the commit mark failed (" + mw + ")", mw);
      return failSave("commit-unknown", "writing the commit mark reported " + mw + " but the mark reads set" + MAY_BE_NEWEST, mw);
    }
    if (v === MARK_COMMITTED || (tries >= 2 && v !== ERASED)) return null;
    if (tries >= 2) {
      ctx.position.known = false;
      return failSave("verify-failed", "the commit mark did not program", "ok");
    }
  }
}

/** Stores `payload` as the newest save. */
export function writeSave(ctx: SlotLogContext, payload: Uint8Array): SaveResult {
  const l = ctx.layout;
  const pos = ctx.position;
  if (!(payload instanceof Uint8Array) || payload.length !== l.payloadLength) {
    return failSave("bad-length", "a payload must be exactly " + l.payloadLength + " bytes", "ok");
  }
  const data = new Uint8Array(payload);
  if (!pos.known) {
    const s = findWriterPosition(ctx);
    if (s !== "ok") return failSave("read-failed", "could not read the log before saving (" + s + ")", s);
  }
  const strengthened = strengthenWeakMarks(ctx);
  if (strengthened !== null) return strengthened;
  let erased = false;
  let verifyFailures = 0;
  let opens = 0;
  for (;;) {
    if (pos.newest < 0 || pos.nextSlot >= l.slotsPerSector) {
      // Two opens at most: a freshly erased sector full of unusable slots means the flash is failing.
      if (opens >= 2) return failSave("verify-failed", "no usable slot after erasing two sectors", "ok");
      opens++;
      erased = true;
      const failed = openNextSector(ctx);
      if (failed !== null) {
        failed.erased = true;
        // A read-back that disagrees (a write or erase the ESP32 port silently dropped) gets one
        // more erase; an error the flash reported ends the save.
        if (failed.status === "verify-failed" && opens < 2) continue;
        return failed;
      }
    }
    const slot = pos.nextSlot;
    const markAt = markAddress(l, pos.newest, slot);
    const slotAt = slotAddress(l, pos.newest, slot);
    const mark = safeRead(ctx.flash, 1, markAt);
    if (mark.status !== "ok" || mark.bytes === null) return failSave("read-failed", "could not read a commit mark", mark.status);
    const old = safeRead(ctx.flash, l.payloadLength, slotAt);
    if (old.status !== "ok" || old.bytes === null) return failSave("read-failed", "could not read a slot", old.status);
    if (mark.bytes[0] !== ERASED || !allErased(old.bytes)) {
      // Programmed by a save that never committed (power cut): never write over it before an erase.
      pos.nextSlot++;
      continue;
    }
    if (pos.refreshHeader) {
      // First write into a sector adopted with nothing committed: its header first (see refreshNewestHeader).
      const refreshed = refreshNewestHeader(ctx);
      if (refreshed === false) {
        pos.nextSlot = l.slotsPerSector;
        continue;
      }
      if (refreshed !== true) return refreshed;
    }
    // From here on the slot is no longer blank whatever happens, so it is used up.
    pos.nextSlot = slot + 1;
    const w = safeWrite(ctx.flash, data, slotAt);
    if (w !== "ok") return failSave("write-failed", "writing the payload failed (" + w + ")", w);
    const back = safeRead(ctx.flash, l.payloadLength, slotAt);
    if (back.status !== "ok" || back.bytes === null) return failSave("read-failed", "reading back the payload failed", back.status);
    if (!sameBytes(back.bytes, data)) {
      verifyFailures++;
      if (verifyFailures >= MAX_VERIFY_FAILURES) return failSave("verify-failed", "the payload did not program (read-back differs)", "ok");
      continue;
    }
    const committed = commitMark(ctx, markAt);
    if (committed !== null) return committed;
    pos.protectedSector = pos.newest;
    pos.protectedSeq = pos.newestSeq;
    ctx.counts.saves++;
    return { status: "ok", message: "ok", flashStatus: "ok", sector: pos.newest, slot: slot, seq: pos.newestSeq, erased: erased };
  }
}
