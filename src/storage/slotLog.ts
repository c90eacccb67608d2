/**
 * SlotLog: keeps the newest save payload in a reserved NOR flash region so that a power cut at any
 * instant leaves either the last completed save or the one being written, never nothing and never a
 * mixture. Layout in regionLayout.ts; the argument case by case in docs/storage.md.
 *
 * The payload is an opaque fixed-length blob. Which save is newest is decided by the log (sector
 * sequence numbers and slot order), never by anything inside the payload, so hatching a new pet or
 * importing an old save behaves like any other save. Validity of a payload is the caller's check
 * (the firmware passes "CRC-32 over bytes 0..79 equals the u32 at 80"); it is expensive on the
 * device, so the log calls it as rarely as it can: once per boot unless something outside the
 * power-cut model (bit rot, a buggy writer) damaged the newest slot, and never more than
 * `maxBootChecks` times.
 *
 * Every method returns a status; nothing throws, including when the flash adapter throws.
 * Runs on Espruino: no classes with `extends`, no Map/Set, functions defined before use.
 */
import { Flash, FlashStatus, safeErase, safeRead, safeWrite } from "./flash";
import {
  ERASED,
  HEADER_SIZE,
  MARK_COMMITTED,
  RegionLayout,
  RegionParams,
  allErased,
  computeLayout,
  decodeHeader,
  encodeHeader,
  markAddress,
  sectorAddress,
  seqNewer,
  slotAddress,
} from "./regionLayout";

export interface SlotLogConfig extends RegionParams {
  flash: Flash;
  /** The caller's validity check for a stored payload; each call is counted. */
  isValidPayload: (payload: Uint8Array) => boolean;
  /** Upper bound on validity checks in one load (default 4). */
  maxBootChecks?: number;
  /** Sequence number given to the first sector of a brand-new log (default 1; tests use values near 2^32). */
  initialSequence?: number;
}

export type LoadStatus =
  | "ok"
  /** Every sector header is erased: nothing was ever saved here. */
  | "empty"
  /** No sector carries a valid header: the region holds random or foreign data. */
  | "no-log"
  /** Sectors of ours exist but no committed slot passed the validity check. */
  | "no-valid-save"
  | "read-failed";

export interface LoadResult {
  status: LoadStatus;
  /** The newest valid payload (a fresh copy) when status is "ok", else null. */
  payload: Uint8Array | null;
  /** Human-readable reason, e.g. why there is no pet. */
  message: string;
  /** Validity checks this load performed. */
  checks: number;
  /** Where the payload came from (sector index, slot index, sector sequence number); -1 when none. */
  sector: number;
  slot: number;
  seq: number;
}

export type SaveStatus =
  | "ok"
  | "bad-length"
  | "read-failed"
  | "write-failed"
  | "erase-failed"
  /** A read-back after writing did not match: the flash silently failed (ESP32 ignores write errors). */
  | "verify-failed";

export interface SaveResult {
  status: SaveStatus;
  message: string;
  /** The flash status that caused a failure ("ok" otherwise). */
  flashStatus: FlashStatus;
  sector: number;
  slot: number;
  seq: number;
  /** Whether this save erased a sector (an erase blocks the CPU for tens of ms on the device). */
  erased: boolean;
}

export interface SlotLogStats {
  /** Validity checks since this SlotLog was created. */
  validityChecks: number;
  saves: number;
  sectorErases: number;
}

export interface CreateResult {
  status: "ok" | "bad-config";
  log: SlotLog | null;
  message: string;
}

const DEFAULT_MAX_BOOT_CHECKS = 4;
/** Payload read-back mismatches tolerated in one save before giving up. */
const MAX_VERIFY_FAILURES = 2;

interface HeaderScan {
  status: FlashStatus;
  /** Sector indexes with a valid header, newest first. */
  order: number[];
  seqs: number[];
  erasedCount: number;
}

function failSave(status: SaveStatus, message: string, flashStatus: FlashStatus): SaveResult {
  return { status: status, message: message, flashStatus: flashStatus, sector: -1, slot: -1, seq: -1, erased: false };
}

function noPayload(status: LoadStatus, message: string, checks: number): LoadResult {
  return { status: status, payload: null, message: message, checks: checks, sector: -1, slot: -1, seq: -1 };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class SlotLog {
  readonly layout: RegionLayout;
  private readonly flash: Flash;
  private readonly isValid: (payload: Uint8Array) => boolean;
  private readonly maxChecks: number;
  private readonly initialSeq: number;
  private readonly pageSize: number;
  /** Writer state, known once the headers and the newest sector's marks were read. */
  private scanned = false;
  private newest = -1;
  private newestSeq = 0;
  private nextSlot = 0;
  private checks = 0;
  private saves = 0;
  private erases = 0;

  constructor(layout: RegionLayout, config: SlotLogConfig) {
    this.layout = layout;
    this.flash = config.flash;
    this.isValid = config.isValidPayload;
    this.maxChecks = config.maxBootChecks === undefined ? DEFAULT_MAX_BOOT_CHECKS : config.maxBootChecks;
    this.initialSeq = config.initialSequence === undefined ? 1 : config.initialSequence >>> 0;
    this.pageSize = config.flash.sectorSize;
  }

  stats(): SlotLogStats {
    return { validityChecks: this.checks, saves: this.saves, sectorErases: this.erases };
  }

  /** Calls the caller's check, counting it; a check that throws counts as invalid. */
  private check(payload: Uint8Array): boolean {
    this.checks++;
    try {
      return this.isValid(payload) === true;
    } catch (e) {
      return false;
    }
  }

  /** Reads every sector header (12 bytes each) and orders the valid ones newest first. */
  private scanHeaders(): HeaderScan {
    const l = this.layout;
    const order: number[] = [];
    const seqs: number[] = [];
    let erasedCount = 0;
    for (let i = 0; i < l.sectorCount; i++) {
      const r = safeRead(this.flash, HEADER_SIZE, sectorAddress(l, i));
      if (r.status !== "ok" || r.bytes === null) return { status: r.status, order: [], seqs: [], erasedCount: 0 };
      const h = decodeHeader(l, r.bytes);
      seqs.push(h.seq);
      if (h.kind === "valid") order.push(i);
      else if (h.kind === "erased") erasedCount++;
    }
    if (order.length > 1) {
      // The newest is the one no other header is newer than; the rest sort by distance behind it.
      // With our own headers all sequence numbers lie within sectorCount of each other, so this is
      // a total order even across the 2^32 wrap.
      let top = order[0] as number;
      for (let k = 1; k < order.length; k++) {
        const s = order[k] as number;
        if (seqNewer(seqs[s] as number, seqs[top] as number)) top = s;
      }
      const topSeq = seqs[top] as number;
      for (let a = 1; a < order.length; a++) {
        const x = order[a] as number;
        const dx = (topSeq - (seqs[x] as number)) >>> 0;
        let b = a - 1;
        while (b >= 0 && ((topSeq - (seqs[order[b] as number] as number)) >>> 0) > dx) {
          order[b + 1] = order[b] as number;
          b--;
        }
        order[b + 1] = x;
      }
    }
    return { status: "ok", order: order, seqs: seqs, erasedCount: erasedCount };
  }

  /** Reads the commit marks of sector `i`; null on a read failure. */
  private readMarks(i: number): Uint8Array | null {
    const l = this.layout;
    const r = safeRead(this.flash, l.slotsPerSector, markAddress(l, i, 0));
    return r.status === "ok" ? r.bytes : null;
  }

  private static lastCommitted(marks: Uint8Array): number {
    for (let k = marks.length - 1; k >= 0; k--) if (marks[k] !== ERASED) return k;
    return -1;
  }

  private setWriter(scan: HeaderScan, newestMarks: Uint8Array | null): void {
    if (scan.order.length === 0) {
      this.newest = -1;
      this.newestSeq = 0;
      this.nextSlot = 0;
    } else {
      this.newest = scan.order[0] as number;
      this.newestSeq = scan.seqs[this.newest] as number;
      this.nextSlot = newestMarks === null ? 0 : SlotLog.lastCommitted(newestMarks) + 1;
    }
    this.scanned = true;
  }

  /**
   * Finds the newest payload that passes the validity check. Reads only: a load never writes or
   * erases, so rebooting any number of times leaves the region unchanged.
   */
  load(): LoadResult {
    const l = this.layout;
    const checksBefore = this.checks;
    this.scanned = false;
    const scan = this.scanHeaders();
    if (scan.status !== "ok") return noPayload("read-failed", "could not read a sector header (" + scan.status + ")", 0);
    if (scan.order.length === 0) {
      this.setWriter(scan, null);
      if (scan.erasedCount === l.sectorCount) return noPayload("empty", "the region is erased: nothing was saved yet", 0);
      return noPayload("no-log", "no sector carries a valid slot-log header: the region holds foreign or damaged data", 0);
    }
    let committedSeen = 0;
    for (let k = 0; k < scan.order.length; k++) {
      const sector = scan.order[k] as number;
      const marks = this.readMarks(sector);
      if (marks === null) {
        return noPayload("read-failed", "could not read the commit marks of sector " + sector, this.checks - checksBefore);
      }
      if (k === 0) this.setWriter(scan, marks);
      for (let slot = marks.length - 1; slot >= 0; slot--) {
        if (marks[slot] === ERASED) continue;
        committedSeen++;
        if (this.checks - checksBefore >= this.maxChecks) {
          return noPayload(
            "no-valid-save",
            "gave up after " + this.maxChecks + " committed slots failed the validity check",
            this.checks - checksBefore,
          );
        }
        const r = safeRead(this.flash, l.payloadLength, slotAddress(l, sector, slot));
        if (r.status !== "ok" || r.bytes === null) {
          return noPayload("read-failed", "could not read slot " + slot + " of sector " + sector, this.checks - checksBefore);
        }
        if (this.check(r.bytes)) {
          return {
            status: "ok",
            payload: r.bytes,
            message: "ok",
            checks: this.checks - checksBefore,
            sector: sector,
            slot: slot,
            seq: scan.seqs[sector] as number,
          };
        }
      }
    }
    if (committedSeen === 0) {
      return noPayload("no-valid-save", "the log has sectors but no committed save", this.checks - checksBefore);
    }
    return noPayload("no-valid-save", committedSeen + " committed slots failed the validity check", this.checks - checksBefore);
  }

  /** Reads headers and the newest sector's marks, without any validity check. */
  private scanForWriter(): FlashStatus {
    const scan = this.scanHeaders();
    if (scan.status !== "ok") return scan.status;
    let marks: Uint8Array | null = null;
    if (scan.order.length > 0) {
      marks = this.readMarks(scan.order[0] as number);
      if (marks === null) return "read-failed";
    }
    this.setWriter(scan, marks);
    return "ok";
  }

  /** Erases the sector after the newest (round robin) and writes its header. Never touches the newest. */
  private openNextSector(): SaveResult | null {
    const l = this.layout;
    const target = this.newest < 0 ? 0 : (this.newest + 1) % l.sectorCount;
    const seq = this.newest < 0 ? this.initialSeq : (this.newestSeq + 1) >>> 0;
    const base = sectorAddress(l, target);
    this.erases++;
    for (let off = 0; off < l.sectorSize; off += this.pageSize) {
      const s = safeErase(this.flash, base + off);
      if (s !== "ok") return failSave("erase-failed", "erasing sector " + target + " failed (" + s + ")", s);
    }
    // The ESP32 port ignores erase errors: check that the header and the marks really are blank.
    const blank = safeRead(this.flash, l.slotsOffset, base);
    if (blank.status !== "ok" || blank.bytes === null) {
      return failSave("read-failed", "reading back erased sector " + target + " failed", blank.status);
    }
    if (!allErased(blank.bytes)) return failSave("verify-failed", "sector " + target + " did not erase", "ok");
    const header = encodeHeader(l, seq);
    const w = safeWrite(this.flash, header, base);
    if (w !== "ok") return failSave("write-failed", "writing the header of sector " + target + " failed (" + w + ")", w);
    const back = safeRead(this.flash, HEADER_SIZE, base);
    if (back.status !== "ok" || back.bytes === null) {
      return failSave("read-failed", "reading back the header of sector " + target + " failed", back.status);
    }
    if (!sameBytes(back.bytes, header)) return failSave("verify-failed", "the header of sector " + target + " did not program", "ok");
    this.newest = target;
    this.newestSeq = seq;
    this.nextSlot = 0;
    return null;
  }

  /**
   * Stores `payload` as the newest save: payload into the next blank slot, read back, then its
   * one-byte commit mark. On any failure the previous save stays the newest readable one.
   */
  save(payload: Uint8Array): SaveResult {
    const l = this.layout;
    if (!(payload instanceof Uint8Array) || payload.length !== l.payloadLength) {
      return failSave("bad-length", "a payload must be exactly " + l.payloadLength + " bytes", "ok");
    }
    const data = new Uint8Array(payload);
    if (!this.scanned) {
      const s = this.scanForWriter();
      if (s !== "ok") return failSave("read-failed", "could not read the log before saving (" + s + ")", s);
    }
    let erased = false;
    let verifyFailures = 0;
    let opens = 0;
    for (;;) {
      if (this.newest < 0 || this.nextSlot >= l.slotsPerSector) {
        // Two opens at most: a freshly erased sector full of unusable slots means the flash is failing.
        if (opens >= 2) return failSave("verify-failed", "no usable slot after erasing two sectors", "ok");
        opens++;
        erased = true;
        const failed = this.openNextSector();
        if (failed !== null) {
          failed.erased = true;
          // A read-back that disagrees (a write or erase the ESP32 port silently dropped) gets one
          // more erase; an error the flash reported ends the save.
          if (failed.status === "verify-failed" && opens < 2) continue;
          return failed;
        }
      }
      const slot = this.nextSlot;
      const markAt = markAddress(l, this.newest, slot);
      const slotAt = slotAddress(l, this.newest, slot);
      const mark = safeRead(this.flash, 1, markAt);
      if (mark.status !== "ok" || mark.bytes === null) return failSave("read-failed", "could not read a commit mark", mark.status);
      const old = safeRead(this.flash, l.payloadLength, slotAt);
      if (old.status !== "ok" || old.bytes === null) return failSave("read-failed", "could not read a slot", old.status);
      if (mark.bytes[0] !== ERASED || !allErased(old.bytes)) {
        // Programmed by a save that never committed (power cut): never write over it before an erase.
        this.nextSlot++;
        continue;
      }
      // From here on the slot is no longer blank whatever happens, so it is used up.
      this.nextSlot = slot + 1;
      const w = safeWrite(this.flash, data, slotAt);
      if (w !== "ok") return failSave("write-failed", "writing the payload failed (" + w + ")", w);
      const back = safeRead(this.flash, l.payloadLength, slotAt);
      if (back.status !== "ok" || back.bytes === null) return failSave("read-failed", "reading back the payload failed", back.status);
      if (!sameBytes(back.bytes, data)) {
        verifyFailures++;
        if (verifyFailures >= MAX_VERIFY_FAILURES) return failSave("verify-failed", "the payload did not program (read-back differs)", "ok");
        continue;
      }
      const markBytes = new Uint8Array(1);
      markBytes[0] = MARK_COMMITTED;
      const mw = safeWrite(this.flash, markBytes, markAt);
      if (mw !== "ok") return failSave("write-failed", "writing the commit mark failed (" + mw + ")", mw);
      let mb = safeRead(this.flash, 1, markAt);
      if (mb.status !== "ok" || mb.bytes === null) return failSave("read-failed", "reading back the commit mark failed", mb.status);
      if (mb.bytes[0] !== MARK_COMMITTED) {
        // Any cleared bit already commits the slot; programming again makes the mark solid.
        const again = safeWrite(this.flash, markBytes, markAt);
        if (again !== "ok") return failSave("write-failed", "writing the commit mark failed (" + again + ")", again);
        mb = safeRead(this.flash, 1, markAt);
        if (mb.status !== "ok" || mb.bytes === null) return failSave("read-failed", "reading back the commit mark failed", mb.status);
        if (mb.bytes[0] === ERASED) return failSave("verify-failed", "the commit mark did not program", "ok");
      }
      this.saves++;
      return { status: "ok", message: "ok", flashStatus: "ok", sector: this.newest, slot: slot, seq: this.newestSeq, erased: erased };
    }
  }
}

/** Checks the region parameters against the flash and builds a SlotLog (reads nothing yet). */
export function createSlotLog(config: SlotLogConfig): CreateResult {
  if (!config || typeof config !== "object") return { status: "bad-config", log: null, message: "missing configuration" };
  if (!config.flash || typeof config.flash.read !== "function") {
    return { status: "bad-config", log: null, message: "missing flash" };
  }
  if (typeof config.isValidPayload !== "function") {
    return { status: "bad-config", log: null, message: "missing isValidPayload check" };
  }
  if (config.maxBootChecks !== undefined && !(config.maxBootChecks >= 1)) {
    return { status: "bad-config", log: null, message: "maxBootChecks must be at least 1" };
  }
  const r = computeLayout(config, config.flash.sectorSize);
  if (r.status !== "ok" || r.layout === null) return { status: "bad-config", log: null, message: r.message };
  return { status: "ok", log: new SlotLog(r.layout, config), message: "ok" };
}
