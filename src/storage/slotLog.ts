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
import { HeaderScan, lastCommitted, readMarks, scanHeaders, weakMarks } from "./logScan";

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
/** Bytes of the header's magic word ("PL", layout version, payload length). */
const MAGIC_SIZE = 4;
/** Payload read-back mismatches tolerated in one save before giving up. */
const MAX_VERIFY_FAILURES = 2;

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
  /** Writer state, known once the headers and the marks up to the newest committed slot were read. */
  private scanned = false;
  private newest = -1;
  private newestSeq = 0;
  private nextSlot = 0;
  /**
   * The sector holding the newest committed save (the one the boot returns), -1 when there is none.
   * It is never erased: saves cut before their commit use up slots without moving it, so round
   * robin would otherwise come back to it.
   */
  private keep = -1;
  private keepSeq = 0;
  /** Marks found set but not exactly 0x00 when the log was adopted; the next save programs them to 0x00. */
  private weak: number[] = [];
  /** The adopted newest sector has no committed slot: program its header again before the first write into it. */
  private refreshHeader = false;
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

  /** Takes over the log as found: where to write next, which sector to protect, what to strengthen. */
  private adopt(scan: HeaderScan, newestMarks: Uint8Array | null, keep: number, weak: number[]): void {
    if (scan.order.length === 0 || newestMarks === null) {
      this.newest = -1;
      this.newestSeq = 0;
      this.nextSlot = 0;
      this.keep = -1;
      this.keepSeq = 0;
      this.weak = [];
      this.refreshHeader = false;
    } else {
      this.newest = scan.order[0] as number;
      this.newestSeq = scan.seqs[this.newest] as number;
      const last = lastCommitted(newestMarks);
      this.nextSlot = last + 1;
      this.refreshHeader = last < 0;
      this.keep = keep;
      this.keepSeq = keep < 0 ? 0 : (scan.seqs[keep] as number);
      this.weak = weak;
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
    const scan = scanHeaders(this.flash, l);
    if (scan.status !== "ok") return noPayload("read-failed", "could not read a sector header (" + scan.status + ")", 0);
    if (scan.order.length === 0) {
      this.adopt(scan, null, -1, []);
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
      const marks = readMarks(this.flash, l, sector);
      if (marks === null) {
        return noPayload("read-failed", "could not read the commit marks of sector " + sector, this.checks - checksBefore);
      }
      if (k === 0) {
        newestMarks = marks;
        weakMarks(l, sector, marks, weak);
      }
      for (let slot = marks.length - 1; slot >= 0; slot--) {
        if (marks[slot] === ERASED) continue;
        committedSeen++;
        if (firstCommitted < 0) firstCommitted = sector;
        if (this.checks - checksBefore >= this.maxChecks) {
          this.adopt(scan, newestMarks, firstCommitted, weak);
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
          if (k !== 0) weakMarks(l, sector, marks, weak);
          this.adopt(scan, newestMarks, sector, weak);
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
    this.adopt(scan, newestMarks, firstCommitted, weak);
    if (committedSeen === 0) {
      return noPayload("no-valid-save", "the log has sectors but no committed save", this.checks - checksBefore);
    }
    return noPayload("no-valid-save", committedSeen + " committed slots failed the validity check", this.checks - checksBefore);
  }

  /**
   * Reads headers and marks, newest sector first, down to the newest committed slot: the writer
   * state without any validity check (a save without a load before it, or after a failed mark write).
   */
  private scanForWriter(): FlashStatus {
    const l = this.layout;
    const scan = scanHeaders(this.flash, l);
    if (scan.status !== "ok") return scan.status;
    if (scan.order.length === 0) {
      this.adopt(scan, null, -1, []);
      return "ok";
    }
    let newestMarks: Uint8Array | null = null;
    const weak: number[] = [];
    let keep = -1;
    for (let k = 0; k < scan.order.length && keep < 0; k++) {
      const sector = scan.order[k] as number;
      const marks = readMarks(this.flash, l, sector);
      if (marks === null) return "read-failed";
      if (k === 0) newestMarks = marks;
      if (k === 0 || lastCommitted(marks) >= 0) weakMarks(l, sector, marks, weak);
      if (lastCommitted(marks) >= 0) keep = sector;
    }
    this.adopt(scan, newestMarks, keep, weak);
    return "ok";
  }

  /**
   * Picks the sector to open: the one after the newest (round robin), or the one after that when
   * the first is the sector of the newest committed save. With two or more sectors the second
   * choice is never that sector too; it may be the newest sector itself, when the newest holds
   * only slots of saves that never committed.
   */
  private nextTarget(): number {
    if (this.newest < 0) return 0;
    const n = this.layout.sectorCount;
    const target = (this.newest + 1) % n;
    return target === this.keep ? (target + 1) % n : target;
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
  private invalidateHeader(target: number): SaveResult | null {
    const l = this.layout;
    if (this.keep < 0) return null;
    const base = sectorAddress(l, target);
    const r = safeRead(this.flash, HEADER_SIZE, base);
    if (r.status !== "ok" || r.bytes === null) return failSave("read-failed", "reading the header of sector " + target + " failed", r.status);
    const h = decodeHeader(l, r.bytes);
    if (h.kind === "erased" || (h.kind === "valid" && seqNewer(this.keepSeq, h.seq))) return null;
    const w = safeWrite(this.flash, new Uint8Array(MAGIC_SIZE), base);
    if (w !== "ok") return failSave("write-failed", "clearing the header of sector " + target + " failed (" + w + ")", w);
    const back = safeRead(this.flash, HEADER_SIZE, base);
    if (back.status !== "ok" || back.bytes === null) {
      return failSave("read-failed", "reading back the header of sector " + target + " failed", back.status);
    }
    if (decodeHeader(l, back.bytes).kind === "valid") return failSave("verify-failed", "the header of sector " + target + " did not clear", "ok");
    return null;
  }

  /** Erases the next sector (never the one holding the newest committed save) and writes its header. */
  private openNextSector(): SaveResult | null {
    const l = this.layout;
    const target = this.nextTarget();
    const seq = this.newest < 0 ? this.initialSeq : (this.newestSeq + 1) >>> 0;
    const base = sectorAddress(l, target);
    const cleared = this.invalidateHeader(target);
    if (cleared !== null) return cleared;
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
    this.refreshHeader = false;
    return null;
  }

  /** Programs the marks found set but not 0x00 at adoption to 0x00 (any set mark stays set whatever a cut does). */
  private strengthenMarks(): SaveResult | null {
    const zero = new Uint8Array(1);
    zero[0] = MARK_COMMITTED;
    while (this.weak.length > 0) {
      const w = safeWrite(this.flash, zero, this.weak[this.weak.length - 1] as number);
      if (w !== "ok") return failSave("write-failed", "programming a partly set commit mark failed (" + w + ")", w);
      this.weak.pop();
    }
    return null;
  }

  /**
   * Programs the adopted newest sector's header again with the same bytes (its last bit may have
   * landed weakly in a cut). False when it does not read back exactly: the save moves on to a new sector.
   */
  private refreshNewestHeader(): SaveResult | boolean {
    const l = this.layout;
    const header = encodeHeader(l, this.newestSeq);
    const base = sectorAddress(l, this.newest);
    const w = safeWrite(this.flash, header, base);
    if (w !== "ok") return failSave("write-failed", "programming the header of sector " + this.newest + " again failed (" + w + ")", w);
    const back = safeRead(this.flash, HEADER_SIZE, base);
    if (back.status !== "ok" || back.bytes === null) {
      return failSave("read-failed", "reading back the header of sector " + this.newest + " failed", back.status);
    }
    this.refreshHeader = false;
    return sameBytes(back.bytes, header);
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
    const strengthened = this.strengthenMarks();
    if (strengthened !== null) return strengthened;
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
      if (this.refreshHeader) {
        // First write into a sector adopted with nothing committed: its header first (see refreshNewestHeader).
        const refreshed = this.refreshNewestHeader();
        if (refreshed === false) {
          this.nextSlot = l.slotsPerSector;
          continue;
        }
        if (refreshed !== true) return refreshed;
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
      const committed = this.commit(markAt);
      if (committed !== null) return committed;
      this.keep = this.newest;
      this.keepSeq = this.newestSeq;
      this.saves++;
      return { status: "ok", message: "ok", flashStatus: "ok", sector: this.newest, slot: slot, seq: this.newestSeq, erased: erased };
    }
  }

  /**
   * Programs a commit mark to 0x00 and reads it back; a mark that reads anything but 0x00 is
   * programmed once more. Only a mark that still reads 0xFF after that is a failure (verify-failed):
   * any other value already commits the slot. After a failure the mark's state on the flash is not
   * known for sure, so the next save reads the writer state from the flash again.
   */
  private commit(markAt: number): SaveResult | null {
    const markBytes = new Uint8Array(1);
    markBytes[0] = MARK_COMMITTED;
    let tries = 0;
    for (;;) {
      tries++;
      const mw = safeWrite(this.flash, markBytes, markAt);
      if (mw !== "ok") {
        this.scanned = false;
        return failSave("write-failed", "writing the commit mark failed (" + mw + ")", mw);
      }
      const mb = safeRead(this.flash, 1, markAt);
      if (mb.status !== "ok" || mb.bytes === null) {
        this.scanned = false;
        return failSave("read-failed", "reading back the commit mark failed", mb.status);
      }
      const v = mb.bytes[0] as number;
      if (v === MARK_COMMITTED || (tries >= 2 && v !== ERASED)) return null;
      if (tries >= 2) {
        this.scanned = false;
        return failSave("verify-failed", "the commit mark did not program", "ok");
      }
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
