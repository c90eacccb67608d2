/**
 * Opening the next sector of the log (step 1 of a save in docs/storage.md): choose it so that the
 * sector holding the newest committed save is never erased, clear its magic word first when a torn
 * erase could otherwise leave a valid-looking header in front of that save, erase it, check it is
 * blank and program its header with the next sequence number. Also the header write with read-back
 * that the writer's lazy strengthening (slotWrite.ts) uses again.
 *
 * Runs on Espruino: plain functions, no Map/Set, functions defined before use.
 */
import { safeErase, safeRead, safeWrite } from "./flash";
import { HEADER_SIZE, allErased, decodeHeader, encodeHeader, sameBytes, sectorAddress, seqNewer } from "./regionLayout";
import { SaveResult, failSave } from "./slotLogTypes";
import { SlotLogContext, WriterPosition } from "./slotLogState";

/** Bytes of the header's magic word ("PL", layout version, payload length). */
const MAGIC_SIZE = 4;

/**
 * Programs the header of `sector` for sequence number `seq` and reads it back. `what` names the
 * write in a failure message. Returns a failed save, or whether the read-back matched exactly.
 */
export function programHeader(ctx: SlotLogContext, sector: number, seq: number, what: string): SaveResult | boolean {
  const header = encodeHeader(ctx.layout, seq);
  const base = sectorAddress(ctx.layout, sector);
  const w = safeWrite(ctx.flash, header, base);
  if (w !== "ok") return failSave("write-failed", what + " failed (" + w + ")", w);
  const back = safeRead(ctx.flash, HEADER_SIZE, base);
  if (back.status !== "ok" || back.bytes === null) {
    return failSave("read-failed", "reading back the header of sector " + sector + " failed", back.status);
  }
  return sameBytes(back.bytes, header);
}

/**
 * The sector to open: the one after the newest (round robin), or the one after that when the first
 * is the protected sector. With two or more sectors the second choice is never the protected sector
 * too; it may be the newest sector itself, when the newest holds only slots of saves that never
 * committed.
 */
function sectorToOpen(pos: WriterPosition, sectorCount: number): number {
  if (pos.newest < 0) return 0;
  const target = (pos.newest + 1) % sectorCount;
  return target === pos.protectedSector ? (target + 1) % sectorCount : target;
}

/**
 * Before erasing a sector that the boot would walk before the newest committed save (a valid
 * header no older than it) or whose header is damaged, programs the header's magic word to 0x00,
 * so that no torn erase can leave a valid-looking header there over random commit marks in front
 * of that save: once any bit of the magic is cleared, only random bits that form the exact magic
 * again could make the header valid. (The magic alone, not all 12 bytes: a cut while clearing the
 * sequence words too could leave s = 0 next to an intact magic, and an erased ~s completes that.)
 * Returns null when done or not needed.
 */
function clearMagicBeforeErase(ctx: SlotLogContext, target: number): SaveResult | null {
  const l = ctx.layout;
  const pos = ctx.position;
  if (pos.protectedSector < 0) return null;
  const base = sectorAddress(l, target);
  const r = safeRead(ctx.flash, HEADER_SIZE, base);
  if (r.status !== "ok" || r.bytes === null) return failSave("read-failed", "reading the header of sector " + target + " failed", r.status);
  const h = decodeHeader(l, r.bytes);
  if (h.kind === "erased" || (h.kind === "valid" && seqNewer(pos.protectedSeq, h.seq))) return null;
  const w = safeWrite(ctx.flash, new Uint8Array(MAGIC_SIZE), base);
  if (w !== "ok") return failSave("write-failed", "clearing the header of sector " + target + " failed (" + w + ")", w);
  const back = safeRead(ctx.flash, HEADER_SIZE, base);
  if (back.status !== "ok" || back.bytes === null) {
    return failSave("read-failed", "reading back the header of sector " + target + " failed", back.status);
  }
  if (decodeHeader(l, back.bytes).kind === "valid") return failSave("verify-failed", "the header of sector " + target + " did not clear", "ok");
  return null;
}

/**
 * Erases the next sector (never the protected one) and writes its header; on success it is the
 * newest sector and the next save goes to its slot 0. Returns null on success, else the failure.
 */
export function openNextSector(ctx: SlotLogContext): SaveResult | null {
  const l = ctx.layout;
  const pos = ctx.position;
  const target = sectorToOpen(pos, l.sectorCount);
  const seq = pos.newest < 0 ? ctx.initialSequence : (pos.newestSeq + 1) >>> 0;
  const base = sectorAddress(l, target);
  const cleared = clearMagicBeforeErase(ctx, target);
  if (cleared !== null) return cleared;
  ctx.counts.sectorErases++;
  for (let off = 0; off < l.sectorSize; off += ctx.pageSize) {
    const s = safeErase(ctx.flash, base + off);
    if (s !== "ok") return failSave("erase-failed", "erasing sector " + target + " failed (" + s + ")", s);
  }
  // The ESP32 port ignores erase errors: check that the header and the marks really are blank.
  const blank = safeRead(ctx.flash, l.slotsOffset, base);
  if (blank.status !== "ok" || blank.bytes === null) {
    return failSave("read-failed", "reading back erased sector " + target + " failed", blank.status);
  }
  if (!allErased(blank.bytes)) return failSave("verify-failed", "sector " + target + " did not erase", "ok");
  const programmed = programHeader(ctx, target, seq, "writing the header of sector " + target);
  if (programmed === false) return failSave("verify-failed", "the header of sector " + target + " did not program", "ok");
  if (programmed !== true) return programmed;
  pos.newest = target;
  pos.newestSeq = seq;
  pos.nextSlot = 0;
  pos.refreshHeader = false;
  return null;
}
