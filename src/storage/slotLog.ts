/**
 * SlotLog: keeps the newest save payload in a reserved NOR flash region so that a power cut at any
 * instant leaves either the last completed save or the one being written, never nothing and never a
 * mixture. The byte layout is regionLayout.ts; the argument, case by case, is docs/storage.md.
 *
 * The whole log is this one module, the way a commit sits beside the invariants it keeps: the
 * writer's position is a handful of fields changed only by the named steps below, each next to the
 * invariant (docs/storage.md, "Invariants") it exists for:
 *
 *   load()            boot: the newest payload that passes the check; reads only (I1)
 *   save()            one save: payload into a blank slot, read back, then its commit mark (I2)
 *   adopt/forget      take over the position as the flash shows it, or drop it after a failure
 *   openSector()      erase and head the next sector, never the protected one (I3), clearing the
 *                     magic of a sector the boot would walk first (I4)
 *   strengthen()      program again the marks the boot's answer rests on (I5)
 *   commit            the one-byte mark and its read-back at the end of save() (commitRest_ for
 *                     anything unusual): the instant a save becomes the newest
 *
 * The payload is an opaque fixed-length blob. Which save is newest is decided by the log (sector
 * sequence numbers and slot order), never by anything inside the payload, so hatching a new pet or
 * importing an old save behaves like any other save. Validity of a payload is the caller's check
 * (the firmware's is "loads with the codec"); it is expensive, so the log calls it as rarely as it
 * can: once per boot unless something outside the power-cut model damaged the newest slot, and
 * never more than `maxBootChecks` times.
 *
 * Every operation answers one shape, LogResult; nothing throws, even when the flash does. The log
 * calls the flash in Espruino's own shape (EspruinoFlash: answers or throws), which on the device is
 * require("Flash") itself; a StatusFlash (the simulator) is wrapped into that shape.
 * Runs on Espruino: a class without `extends`, no Map/Set, functions defined before use, and few
 * calls on the save path (each call re-reads the callee's text inside the interpreter).
 *
 * Names ending in "_" are names the build shortens: terser renames every property whose name ends
 * in "_" to one or two characters (scripts/lib/build.js, TERSER_OPTIONS), because the interpreter
 * reads every character of a name each time a path uses it. The "_" does not mean private: other
 * files of the bundle use such members (petConsole.ts and app.ts call RunningPet's). It means the
 * name never leaves the bundle: nothing outside it (the `pet` console object, pet.status(), a board
 * profile, the flash) holds or reads a name that ends in "_".
 */
import { SAFE_READ_MIN, deviceFlash, thrownStatus, type EspruinoFlash, type FlashStatus, type StatusFlash } from "./flash";
import {
  ERASED,
  HEADER_READ,
  HEADER_SIZE,
  MARK_COMMITTED,
  RegionLayout,
  RegionParams,
  lastSet,
  MARK_KIND,
  computeLayout,
  HEADER_ERASED,
  decodeHeader,
  encodeHeader,
  headerSeqAt,
  orderNewestFirst,
  seqNewer,
} from "./regionLayout";
import { allErased, byteKinds, bytesEqual, joinBytes, pickWords } from "../core/bytes";

export interface SlotLogConfig extends RegionParams {
  /** A StatusFlash (the simulator, a region image file); or else `device`. */
  flash?: StatusFlash;
  /** The flash in Espruino's shape, called directly (on the device: require("Flash")); needs `pageSize`. */
  device?: EspruinoFlash;
  /** The erase page of `device` (a StatusFlash brings its own). */
  pageSize?: number;
  /**
   * The caller's validity check for a stored payload; each call is counted. It accepts a payload by
   * answering true, or an object: whatever it worked out while checking (the firmware's check
   * decodes the payload), handed back as LogResult.accepted so nothing is done twice.
   */
  isValidPayload: (payload: Uint8Array) => boolean | object;
  /** Upper bound on validity checks in one load (default 4). */
  maxBootChecks?: number;
  /** Sequence number given to the first sector of a brand-new log (default 1; tests use values near 2^32). */
  initialSequence?: number;
  /** Never take the boot's quick path (tests hold the quick path to the full scan with it). */
  fullScanOnly?: boolean;
}

/** Every status a log operation answers. */
export type LogStatus =
  | "ok"
  /** load: every sector header is erased: nothing was ever saved here. */
  | "empty"
  /** load: no sector carries a valid header: the region holds random or foreign data. */
  | "no-log"
  /**
   * load: sectors of ours exist but not one commit mark is set in them: no save ever committed here
   * (a sector holding a committed save is never erased, so one would have left a set mark).
   * Typically the very first save was cut before its mark. Nothing to lose.
   */
  | "no-committed-save"
  /** load: committed slots exist but none passed the validity check: a save may be there, unreadable. */
  | "no-valid-save"
  /** createSlotLog: the region parameters do not fit the flash. */
  | "bad-config"
  /** save: the payload is not exactly the layout's payload length. */
  | "bad-length"
  | "read-failed"
  | "write-failed"
  | "erase-failed"
  /** save: a read-back after writing did not match: the flash silently failed (ESP32 ignores write errors). */
  | "verify-failed"
  /**
   * save: the commit mark was written but its state could not be confirmed (its read-back failed, or
   * the write reported an error and the mark reads set). The next boot returns either this save or
   * the previous one; every other failure leaves the previous one newest. Save again to settle it.
   */
  | "commit-unknown";

/** What every log operation answers. */
export interface LogResult {
  status: LogStatus;
  /** Human-readable reason ("ok" on success), e.g. why there is no pet. */
  message: string;
  /** The flash status behind a failure ("ok" otherwise). */
  flashStatus: FlashStatus;
  /** load: the newest valid payload (a fresh copy) when status is "ok", else null. */
  payload: Uint8Array | null;
  /** load: validity checks this load performed (0 for a save). */
  checks: number;
  /** load: what the validity check answered for the payload returned, when it answered an object; else null. */
  accepted: object | null;
  /** Where the payload is or went (sector index, slot index, sector sequence number); -1 when none. */
  sector: number;
  slot: number;
  seq: number;
  /** save: whether this save erased a sector (an erase blocks the CPU for tens of ms on the device). */
  erased: boolean;
}

export interface SlotLogStats {
  /** Validity checks since this SlotLog was created. */
  validityChecks: number;
  saves: number;
  sectorErases: number;
  /** Header scans the quick path answered (the rest went to the full scan). */
  quickScans: number;
}

export interface CreateResult {
  status: "ok" | "bad-config";
  log: SlotLog | null;
  message: string;
}

const DEFAULT_MAX_BOOT_CHECKS = 4;
/** Payload read-back mismatches tolerated in one save before giving up. */
const MAX_VERIFY_FAILURES = 2;
/** Bytes of the header's magic word ("PL", layout version, payload length). */
const MAGIC_SIZE = 4;
/** The commit mark's value, as the one byte a commit programs (never written to: shared). */
const MARK_BYTES = new Uint8Array([MARK_COMMITTED]);
/** A save's count of rare events, made only when one happens. */
interface SaveProgress {
  erased: boolean;
  opens: number;
  verifyFailures: number;
}
/** Wording shared by every commit-unknown result: what the caller may and may not assume. */
const MAY_BE_NEWEST = ": this save may or may not be the one the next boot returns (save again to be sure)";

/**
 * What a write that did not read back as written did, in words for the failure message, naming the
 * fault the way the simulator's failure injection and the interpreter's fault shim name it
 * (docs/storage.md, "Flash that lies"): no effect at all (the cells still read erased: "write
 * silent") or only a part of it ("write half"; also said of bytes that read back as neither).
 * Only called on a mismatch, so a save's own path carries none of it; the cells were erased before.
 */
function writeMiss(back: Uint8Array, wanted: Uint8Array): string {
  "rarely called";
  if (allErased(back)) return "the write had no effect";
  let same = 0;
  for (let i = 0; i < back.length; i++) if (back[i] === wanted[i]) same++;
  return "the write landed only partly: " + same + " of " + back.length + " bytes as written";
}

/** What an erase that did not read back blank left ("erase silent", "erase half"), for the failure message. */
function eraseMiss(sector: number, blank: Uint8Array): string {
  let left = 0;
  for (let i = 0; i < blank.length; i++) if (blank[i] !== ERASED) left++;
  return "sector " + sector + " did not erase: " + left + " of its " + blank.length + " header and mark bytes read back unerased";
}

/** A result with nothing located; `checks` for loads that gave up after checking. */
function fail(status: LogStatus, message: string, flashStatus: FlashStatus, checks?: number): LogResult {
  return { status: status, message: message, flashStatus: flashStatus, payload: null, checks: checks || 0, accepted: null, sector: -1, slot: -1, seq: -1, erased: false };
}

/**
 * What the internal steps of a save answer when they succeed. Shared, so the happy path allocates
 * nothing for it; never handed out (save builds its own result) and only ever compared by identity,
 * so it carries its status alone: on Espruino every field of an object is a variable held for as
 * long as the program runs, and a full result has ten.
 */
const STEP_OK = { status: "ok" } as LogResult;
/** What a step answers when the save should go round its loop again (internal, like STEP_OK). */
const RETRY = { status: "ok" } as LogResult;

/**
 * Sector headers as the boot reads them: valid ones newest first, every sequence number, erased
 * count. A `partial` scan is the quick scan's answer, which knows only the newest sector (`order`
 * holds it alone, `seqs` only its number): whoever needs an older sector completes it with the full
 * scan of the same bytes first.
 */
interface HeaderScan {
  status: FlashStatus;
  order: number[];
  seqs: number[];
  erasedCount: number;
  /** The quick scan's answer: the headers' bytes, for the full scan that completes it; else null. */
  partial: Uint8Array | null;
}

/** Whether this machine stores a 32-bit word low byte first, as the flash does (then the quick scan can read words). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** 32-bit words in each sector's HEADER_READ bytes, as scan_ reads them back to back. */
export const HEADER_WORDS = HEADER_READ / 4;
/**
 * Where each sector's sequence word lies among the words of the headers scan_ reads (word 1 of every
 * HEADER_WORDS), sector by sector, for regions of up to 16 sectors: the quick scan picks them out in
 * one native pass (pickWords); a larger region takes the full scan. A typed array: its bytes are one
 * block of RAM on the interpreter. test/storage-quick-scan-agrees.test.ts holds it to HEADER_WORDS.
 */
export const SEQ_WORDS = new Uint8Array([1, 7, 13, 19, 25, 31, 37, 43, 49, 55, 61, 67, 73, 79, 85, 91]);

export class SlotLog {
  readonly layout: RegionLayout;
  private readonly dev_: EspruinoFlash;
  /** The flash's erase page: a sector spanning several pages is erased page by page. */
  private readonly pageSize_: number;
  private readonly isValidPayload_: (payload: Uint8Array) => boolean | object;
  private readonly maxBootChecks_: number;
  private readonly initialSequence_: number;
  private readonly counts_: SlotLogStats;
  private readonly fullScanOnly_: boolean;

  // The writer's position. Only clearPosition_ (no log), adopt_, forget_, openSector_,
  // strengthen_ and save change it.
  /** False until headers and marks down to the newest committed slot were read (by a load or a save). */
  private known_: boolean;
  /** The sector with the newest valid header, -1 when the region holds no log sector. */
  private newest_!: number;
  private newestSeq_!: number;
  /** The next slot of the newest sector to try; slotsPerSector or more means a sector must be opened. */
  private nextSlot_!: number;
  /**
   * The sector holding the newest committed save (the one the boot returns), -1 when there is none.
   * Never erased (I3): saves cut before their commit use up slots without moving it, so round robin
   * would otherwise come back to it.
   */
  private protectedSector_!: number;
  private protectedSeq_!: number;
  /**
   * Mark addresses the next save programs to 0x00 before anything else (I5): those found set but not
   * exactly 0x00 when the log was adopted, and the newest set mark of the newest and of the
   * protected sector whatever they read.
   */
  private weakMarks_!: number[];
  /** The adopted newest sector has no committed slot: program its header again before writing into it. */
  private refreshHeader_!: boolean;

  constructor(layout: RegionLayout, config: SlotLogConfig, dev: EspruinoFlash, pageSize: number) {
    this.layout = layout;
    this.dev_ = dev;
    this.pageSize_ = pageSize;
    this.isValidPayload_ = config.isValidPayload;
    this.maxBootChecks_ = config.maxBootChecks === undefined ? DEFAULT_MAX_BOOT_CHECKS : config.maxBootChecks;
    this.initialSequence_ = config.initialSequence === undefined ? 1 : config.initialSequence >>> 0;
    this.counts_ = { validityChecks: 0, saves: 0, sectorErases: 0, quickScans: 0 };
    this.fullScanOnly_ = config.fullScanOnly === true;
    // No position yet: known_ false sends the first save (or the load) through adopt_, which sets it.
    this.known_ = false;
  }

  /** The position of a region with no log sector: the first save opens sector 0. */
  private clearPosition_(): void {
    this.newest_ = -1;
    this.newestSeq_ = 0;
    this.nextSlot_ = 0;
    this.protectedSector_ = -1;
    this.protectedSeq_ = 0;
    this.weakMarks_ = [];
    this.refreshHeader_ = false;
  }

  stats(): SlotLogStats {
    const c = this.counts_;
    return { validityChecks: c.validityChecks, saves: c.saves, sectorErases: c.sectorErases, quickScans: c.quickScans };
  }

  // ---- Reading where the log stands (no writes) -------------------------------------------------

  /**
   * Where the log stands as the headers say, answered by the quick path when it can (scanQuick_),
   * else by the full scan over the same bytes. The headers are read once: every sector's first
   * HEADER_READ bytes (its header, then the first marks), back to back in sector order, by one
   * native map of reads and one join. HEADER_READ and not the header's 12 bytes, because a read of 2
   * to 22 bytes is not safe on every Espruino ESP32 build (flash.ts, SAFE_READ_MIN).
   */
  private scan_(): HeaderScan {
    let bytes: Uint8Array;
    try {
      bytes = joinBytes(this.layout.headerAddresses.map(this.dev_.read.bind(this.dev_, HEADER_READ)));
    } catch (e) {
      return { status: thrownStatus(e, "read-failed"), order: [], seqs: [], erasedCount: 0, partial: null };
    }
    const quick = this.fullScanOnly_ ? null : this.scanQuick_(bytes);
    if (quick === null) return this.scanHeaders_(bytes);
    this.counts_.quickScans++;
    return quick;
  }

  /**
   * Judges every sector header in `bytes` (scan_'s) and orders the
   * valid ones newest first: the exact answer whatever the flash holds. The boot usually needs only
   * the newest sector, which scanQuick_ finds for a fraction of the cost; this runs when it cannot,
   * or when an older sector is needed. The headers are judged word by word (headerSeqAt).
   */
  private scanHeaders_(bytes: Uint8Array): HeaderScan {
    "rarely called";
    const l = this.layout;
    const dv = new DataView(bytes.buffer);
    const order: number[] = [];
    const seqs: number[] = [];
    let erasedCount = 0;
    for (let i = 0; i < l.sectorCount; i++) {
      const seq = headerSeqAt(l, dv, i * HEADER_READ);
      seqs.push(seq < 0 ? 0 : seq);
      if (seq >= 0) order.push(i);
      else if (seq === HEADER_ERASED) erasedCount++;
    }
    orderNewestFirst(order, seqs);
    return { status: "ok", order: order, seqs: seqs, erasedCount: erasedCount, partial: null };
  }

  /**
   * The newest sector from the headers' sequence words (scan_'s bytes, picked out natively), or null
   * when only the full scan can tell. When every sector's sequence word, read as a signed 32-bit
   * number, is -1 (0xFFFFFFFF: erased, say) or lies in 0 .. 2^31 - 1, and the largest lies below
   * 2^31 - 1, the largest is newer than every other valid sequence number in serial order
   * (seqNewer): than a smaller one by less than 2^31, and than 0xFFFFFFFF by largest + 1, at most
   * 2^31 - 1. (At exactly 2^31 - 1 it would be 2^31 apart from 0xFFFFFFFF, where neither is newer
   * and orderNewestFirst keeps the lower sector index.) So the first sector holding it is the answer
   * orderNewestFirst gives, provided its header is valid: that one header is checked exactly.
   * Otherwise (no log yet, numbers from 2^31 - 1 on, a torn header holding the largest word) the
   * answer is null and the full scan decides, so the quick path never answers differently.
   */
  private scanQuick_(bytes: Uint8Array): HeaderScan | null {
    const l = this.layout;
    if (!LITTLE_ENDIAN || l.sectorCount > SEQ_WORDS.length) return null;
    const words = new Int32Array(bytes.buffer);
    const seqWords = new Int32Array(l.sectorCount);
    pickWords(SEQ_WORDS, seqWords, words);
    const top = Math.max.apply(null, seqWords as unknown as number[]);
    if (!(top >= 0 && top < 0x7fffffff) || Math.min.apply(null, seqWords as unknown as number[]) < -1) return null;
    const first = seqWords.indexOf(top);
    // headerSeqAt(l, header, 0) === top, over the words already there: the sequence word is top
    // (picked from this header), so the header is valid when its magic is exact and the word after
    // the sequence word is top's complement (on the emulated ESP32 a DataView and three getUint32
    // calls cost about 70 000 instructions more).
    const at = SEQ_WORDS[first] as number;
    if ((words[at - 1] as number) >>> 0 !== l.headerMagic || ((top ^ (words[at + 1] as number)) >>> 0) !== 0xffffffff) return null;
    const seqs: number[] = [];
    seqs[first] = top;
    return { status: "ok", order: [first], seqs: seqs, erasedCount: 0, partial: bytes };
  }

  /**
   * The commit marks of sector `i`, or null on a read failure. At least SAFE_READ_MIN bytes are read
   * (a region of small sectors has fewer marks than that) and only the marks are handed back.
   */
  private readMarks_(i: number): Uint8Array | null {
    const l = this.layout;
    const n = l.slotsPerSector;
    try {
      const m = this.dev_.read(n < SAFE_READ_MIN ? SAFE_READ_MIN : n, l.address + i * l.sectorSize + l.marksOffset);
      return n < SAFE_READ_MIN ? new Uint8Array(m.buffer, m.byteOffset, n) : m;
    } catch (e) {
      return null;
    }
  }

  /**
   * Notes for strengthen() the marks of sector `i` that are set but not exactly 0x00 (a write cut
   * short, or bits programmed weakly: they count as committed already), found in the sector's
   * kinds string (byteKinds over MARK_KIND), and the mark of `slot` whatever it reads (a weak cell can read 0x00 now and
   * 0xFF later). `kinds` null adds only the latter, `slot` below 0 only the former.
   */
  private noteWeakMarks_(i: number, kinds: string | null, slot: number): void {
    const l = this.layout;
    const base = l.address + i * l.sectorSize + l.marksOffset;
    if (kinds !== null) for (let k = kinds.indexOf("\x02"); k >= 0; k = kinds.indexOf("\x02", k + 1)) this.weakMarks_.push(base + k);
    if (slot >= 0 && this.weakMarks_.indexOf(base + slot) < 0) this.weakMarks_.push(base + slot);
  }

  /**
   * Takes over the log as found: where to write next, which sector to protect. `newestLast` is the
   * newest sector's highest set mark (-1: none); null (or no valid header in `scan`) means there is
   * no log yet. The weak marks were noted already.
   */
  private adopt_(scan: HeaderScan, newestLast: number | null, protectedSector: number): void {
    if (scan.order.length === 0 || newestLast === null) {
      this.clearPosition_();
    } else {
      this.newest_ = scan.order[0] as number;
      this.newestSeq_ = scan.seqs[this.newest_] as number;
      const last = newestLast;
      this.nextSlot_ = last + 1;
      this.refreshHeader_ = last < 0;
      this.protectedSector_ = protectedSector;
      this.protectedSeq_ = protectedSector < 0 ? 0 : (scan.seqs[protectedSector] as number);
    }
    this.known_ = true;
  }

  /** The flash may not be what the position says (a failure mid-step): the next save reads it again. */
  private forget_(): void {
    this.known_ = false;
  }

  /**
   * Finds the newest payload that passes the validity check: sectors newest first, within each the
   * committed slots from the highest down. Reads only (I1): a load never writes or erases, so
   * rebooting any number of times leaves the region unchanged. Why one check is enough after any
   * run of power cuts is argued in docs/storage.md ("Invariants").
   */
  load(): LogResult {
    const l = this.layout;
    let checks = 0;
    this.known_ = false;
    this.weakMarks_ = [];
    let scan = this.scan_();
    if (scan.status !== "ok") return fail("read-failed", "could not read a sector header (" + scan.status + ")", scan.status);
    if (scan.order.length === 0) {
      this.adopt_(scan, null, -1);
      if (scan.erasedCount === l.sectorCount) return fail("empty", "the region is erased: nothing was saved yet", "ok");
      return fail("no-log", "no sector carries a valid slot-log header: the region holds foreign or damaged data", "ok");
    }
    let newestLast: number | null = null;
    // The sector of the newest committed slot, whatever its check says: protected when nothing passes.
    let firstCommitted = -1;
    let committedSeen = 0;
    for (let k = 0; ; k++) {
      if (k === 1 && scan.partial !== null) {
        // Past the newest sector: the older ones need the full scan (its newest is the same sector).
        scan = this.scanHeaders_(scan.partial);
        if (scan.status !== "ok") return fail("read-failed", "could not read a sector header (" + scan.status + ")", scan.status, checks);
      }
      if (k >= scan.order.length) break;
      const sector = scan.order[k] as number;
      const marks = this.readMarks_(sector);
      if (marks === null) return fail("read-failed", "could not read the commit marks of sector " + sector, "read-failed", checks);
      const kinds = byteKinds(marks, MARK_KIND);
      const last = lastSet(kinds);
      if (k === 0) {
        newestLast = last;
        this.noteWeakMarks_(sector, kinds, last);
      }
      for (let slot = last; slot >= 0; slot--) {
        if (marks[slot] === ERASED) continue;
        committedSeen++;
        if (firstCommitted < 0) firstCommitted = sector;
        if (checks >= this.maxBootChecks_) {
          this.adopt_(scan, newestLast, firstCommitted);
          return fail("no-valid-save", "gave up after " + this.maxBootChecks_ + " committed slots failed the validity check", "ok", checks);
        }
        let payload: Uint8Array;
        try {
          payload = this.dev_.read(l.payloadLength, l.address + sector * l.sectorSize + l.slotsOffset + slot * l.payloadLength);
        } catch (e) {
          return fail("read-failed", "could not read slot " + slot + " of sector " + sector, thrownStatus(e, "read-failed"), checks);
        }
        checks++;
        // The caller's check, counted in the stats: it accepts with true or an object (anything
        // else, or a throw, is a refusal).
        this.counts_.validityChecks++;
        let answer: boolean | object | null = null;
        try {
          answer = this.isValidPayload_(payload);
        } catch (e) {
          // refused
        }
        if (answer === true || (typeof answer === "object" && answer !== null)) {
          // The mark this boot's answer rests on, and (for an older sector) its other weak marks;
          // the newest slot of the newest sector (the usual boot) was noted above.
          if (k !== 0 || slot !== last) this.noteWeakMarks_(sector, k !== 0 ? kinds : null, slot);
          this.adopt_(scan, newestLast, sector);
          const seq = scan.seqs[sector] as number;
          const accepted = answer === true ? null : answer;
          return { status: "ok", message: "ok", flashStatus: "ok", payload: payload, checks: checks, accepted: accepted, sector: sector, slot: slot, seq: seq, erased: false };
        }
      }
    }
    this.adopt_(scan, newestLast, firstCommitted);
    // No set mark in any valid sector means no save ever committed (docs/storage.md, "Booting").
    if (committedSeen === 0) return fail("no-committed-save", "the log has sectors but no committed save", "ok", checks);
    return fail("no-valid-save", committedSeen + " committed slots failed the validity check", "ok", checks);
  }

  /**
   * Reads headers and marks, newest sector first, down to the newest committed slot, and adopts the
   * position without any validity check: for a save with no load before it, or after a failure left
   * the writer unsure of the flash.
   */
  private findPosition_(): FlashStatus {
    "rarely called";
    this.weakMarks_ = [];
    let scan = this.scan_();
    if (scan.status !== "ok") return scan.status;
    if (scan.order.length === 0) {
      this.adopt_(scan, null, -1);
      return "ok";
    }
    let newestLast: number | null = null;
    let protectedSector = -1;
    for (let k = 0; protectedSector < 0; k++) {
      if (k === 1 && scan.partial !== null) {
        scan = this.scanHeaders_(scan.partial);
        if (scan.status !== "ok") return scan.status;
      }
      if (k >= scan.order.length) break;
      const sector = scan.order[k] as number;
      const marks = this.readMarks_(sector);
      if (marks === null) return "read-failed";
      const kinds = byteKinds(marks, MARK_KIND);
      const last = lastSet(kinds);
      if (k === 0) newestLast = last;
      if (k === 0 || last >= 0) this.noteWeakMarks_(sector, kinds, last);
      if (last >= 0) protectedSector = sector;
    }
    this.adopt_(scan, newestLast, protectedSector);
    return "ok";
  }

  // ---- Writing -----------------------------------------------------------------------------------

  /** One read as a status and the bytes, for the rare paths (the save's common path calls the flash inline). */
  private read_(length: number, address: number): { status: FlashStatus; bytes: Uint8Array | null } {
    "rarely called";
    try {
      return { status: "ok", bytes: this.dev_.read(length, address) };
    } catch (e) {
      return { status: thrownStatus(e, "read-failed"), bytes: null };
    }
  }

  /** One byte of the flash, or -1 when the read fails. */
  private readByte_(address: number): number {
    "rarely called";
    const r = this.read_(1, address);
    return r.bytes === null ? -1 : (r.bytes[0] as number);
  }

  /** One write: "ok" or the failure status. */
  private write_(data: Uint8Array, address: number): FlashStatus {
    "rarely called";
    try {
      this.dev_.write(data, address);
      return "ok";
    } catch (e) {
      return thrownStatus(e, "write-failed");
    }
  }

  /** One page erase: "ok" or the failure status. */
  private erase_(address: number): FlashStatus {
    "rarely called";
    try {
      this.dev_.erasePage(address);
      return "ok";
    } catch (e) {
      return thrownStatus(e, "erase-failed");
    }
  }

  /**
   * Programs the header of `sector` for sequence number `seq` and reads it back. `what` names the
   * write in a failure message. "ok" when the read-back matches exactly, "verify-failed" when it
   * does not (the caller decides what that means), else the flash failure.
   */
  private programHeader_(sector: number, seq: number, what: string): LogResult {
    "rarely called";
    const header = encodeHeader(this.layout, seq);
    const base = this.layout.address + sector * this.layout.sectorSize;
    const w = this.write_(header, base);
    if (w !== "ok") return fail("write-failed", what + " failed (" + w + ")", w);
    const back = this.read_(HEADER_READ, base);
    if (back.status !== "ok" || back.bytes === null) return fail("read-failed", "reading back the header of sector " + sector + " failed", back.status);
    const got = new Uint8Array(back.bytes.buffer, back.bytes.byteOffset, HEADER_SIZE);
    return bytesEqual(got, header) ? STEP_OK : fail("verify-failed", "the header of sector " + sector + " did not program (" + writeMiss(got, header) + ")", "ok");
  }

  /**
   * I5: programs to 0x00 the marks noted at adoption (set but not 0x00, and the newest set marks the
   * boot's answer rests on even when they read 0x00). Every one is already set, so a cut here leaves
   * it set whatever lands.
   */
  private strengthen_(): LogResult {
    "rarely called";
    const weak = this.weakMarks_;
    while (weak.length > 0) {
      const w = this.write_(MARK_BYTES, weak[weak.length - 1] as number);
      if (w !== "ok") return fail("write-failed", "programming a partly set commit mark failed (" + w + ")", w);
      weak.pop();
    }
    return STEP_OK;
  }

  /**
   * I4: before erasing a sector that the boot would walk before the newest committed save (a valid
   * header no older than it) or whose header is damaged, programs the header's magic word to 0x00,
   * so that no torn erase can leave a valid-looking header there over random commit marks in front
   * of that save: once any bit of the magic is cleared, only random bits that form the exact magic
   * again could make the header valid. (The magic alone, not all 12 bytes: a cut while clearing the
   * sequence words too could leave s = 0 next to an intact magic, and an erased ~s completes that.)
   */
  private clearMagic_(target: number): LogResult {
    "rarely called";
    const l = this.layout;
    if (this.protectedSector_ < 0) return STEP_OK;
    const base = l.address + target * l.sectorSize;
    const r = this.read_(HEADER_READ, base);
    if (r.status !== "ok" || r.bytes === null) return fail("read-failed", "reading the header of sector " + target + " failed", r.status);
    const h = decodeHeader(l, r.bytes);
    if (h.kind === "erased" || (h.kind === "valid" && seqNewer(this.protectedSeq_, h.seq))) return STEP_OK;
    const w = this.write_(new Uint8Array(MAGIC_SIZE), base);
    if (w !== "ok") return fail("write-failed", "clearing the header of sector " + target + " failed (" + w + ")", w);
    const back = this.read_(HEADER_READ, base);
    if (back.status !== "ok" || back.bytes === null) return fail("read-failed", "reading back the header of sector " + target + " failed", back.status);
    if (decodeHeader(l, back.bytes).kind === "valid") return fail("verify-failed", "the header of sector " + target + " did not clear (the write had no effect)", "ok");
    return STEP_OK;
  }

  /**
   * I3: erases the next sector and writes its header; on success it is the newest sector and the
   * next save goes to its slot 0. The sector chosen is the one after the newest (round robin), or the
   * one after that when the first is the protected sector; with two or more sectors the second
   * choice is never the protected sector too (it may be the newest itself, when the newest holds
   * only slots of saves that never committed).
   */
  private openSector_(): LogResult {
    "rarely called";
    const l = this.layout;
    let target = 0;
    if (this.newest_ >= 0) {
      target = (this.newest_ + 1) % l.sectorCount;
      if (target === this.protectedSector_) target = (target + 1) % l.sectorCount;
    }
    const seq = this.newest_ < 0 ? this.initialSequence_ : (this.newestSeq_ + 1) >>> 0;
    const base = l.address + target * l.sectorSize;
    const cleared = this.clearMagic_(target);
    if (cleared !== STEP_OK) return cleared;
    this.counts_.sectorErases++;
    for (let off = 0; off < l.sectorSize; off += this.pageSize_) {
      const s = this.erase_(base + off);
      if (s !== "ok") return fail("erase-failed", "erasing sector " + target + " failed (" + s + ")", s);
    }
    // The ESP32 port ignores erase errors: check that the header and the marks really are blank.
    // The header and the marks; at least SAFE_READ_MIN bytes, which after an erase are all blank too.
    const blank = this.read_(l.slotsOffset < SAFE_READ_MIN ? SAFE_READ_MIN : l.slotsOffset, base);
    if (blank.status !== "ok" || blank.bytes === null) return fail("read-failed", "reading back erased sector " + target + " failed", blank.status);
    if (!allErased(blank.bytes)) return fail("verify-failed", eraseMiss(target, blank.bytes), "ok");
    const programmed = this.programHeader_(target, seq, "writing the header of sector " + target);
    if (programmed !== STEP_OK) return programmed;
    this.newest_ = target;
    this.newestSeq_ = seq;
    this.nextSlot_ = 0;
    this.refreshHeader_ = false;
    return STEP_OK;
  }

  /**
   * The rest of a commit whose first mark write `mw` and read-back `v` (-1: the read failed) were
   * not both clean: a failed read-back is read once more, and a mark that reads anything but 0x00
   * is programmed once more (and read back, twice if need be). Only a mark that still reads 0xFF
   * after that is a failure (verify-failed): any other value already commits the slot.
   */
  private commitRest_(markAt: number, mw: FlashStatus, v: number): LogResult {
    "rarely called";
    for (let tries = 1; ; tries++) {
      if (tries > 1) {
        mw = this.write_(MARK_BYTES, markAt);
        v = this.readByte_(markAt);
      }
      if (v < 0) v = this.readByte_(markAt);
      if (v === MARK_COMMITTED && mw === "ok") return STEP_OK;
      if (v < 0 || mw !== "ok" || tries >= 2) return this.commitFailed_(mw, v);
    }
  }

  /**
   * Why a commit did not go through, after its last write `mw` and read-back `v` (-1: the read
   * failed twice). Once the mark write has been issued, the mark may be set on the flash whatever
   * the write call said. So a failure that leaves its state unconfirmed (the read-back fails, or
   * the write reported an error but the mark reads set) is "commit-unknown", never a plain failure:
   * a plain failure promises that the previous save is still the newest, and that is only known
   * when the mark reads 0xFF. A second write whose mark reads neither 0xFF nor fails commits the
   * slot (any cleared bit counts). After any failure the next save reads the position again.
   */
  private commitFailed_(mw: FlashStatus, v: number): LogResult {
    "rarely called";
    if (mw === "ok" && v >= 0 && v !== ERASED) return STEP_OK;
    this.forget_();
    if (v < 0) return fail("commit-unknown", "reading back the commit mark failed" + MAY_BE_NEWEST, mw === "ok" ? "read-failed" : mw);
    // Read as 0xFF the mark is not set (a set bit never reads back as erased): nothing committed.
    if (mw !== "ok" && v === ERASED) return fail("write-failed", "writing the commit mark failed (" + mw + ")", mw);
    if (mw !== "ok") return fail("commit-unknown", "writing the commit mark reported " + mw + " but the mark reads set" + MAY_BE_NEWEST, mw);
    return fail("verify-failed", "the commit mark did not program (the write had no effect)", "ok");
  }

  /**
   * Stores `payload` as the newest save (I2): payload into the next blank slot, read back, then its
   * one-byte commit mark, opening a new sector when the newest has no usable slot left. On any
   * failure but "commit-unknown" the previous save stays the newest readable one; after
   * "commit-unknown" the next boot returns that one or this one.
   *
   * The common case (a blank slot in the newest sector, everything reading back) runs straight
   * through; every rarer case is a call, so its text is not read on every save.
   */
  save(payload: Uint8Array): LogResult {
    "not called at boot"; // a boot that restores never saves: its text is read at the first save
    const l = this.layout;
    const dev = this.dev_;
    if (!(payload instanceof Uint8Array) || payload.length !== l.payloadLength) return this.badLength_();
    if (!this.known_ || this.weakMarks_.length > 0) {
      const ready = this.prepare_();
      if (ready !== STEP_OK) return ready;
    }
    // Made only when a rare case needs it (an object costs on the interpreter).
    let progress: SaveProgress | null = null;
    for (;;) {
      if (this.newest_ < 0 || this.nextSlot_ >= l.slotsPerSector) {
        if (progress === null) progress = { erased: false, opens: 0, verifyFailures: 0 };
        const opened = this.openForSave_(progress);
        if (opened === RETRY) continue;
        if (opened !== STEP_OK) return opened;
      }
      const slot = this.nextSlot_;
      const sectorBase = l.address + this.newest_ * l.sectorSize;
      const markAt = sectorBase + l.marksOffset + slot;
      const slotAt = sectorBase + l.slotsOffset + slot * l.payloadLength;
      let mark: Uint8Array | null = null;
      let old: Uint8Array;
      try {
        mark = dev.read(1, markAt);
        old = dev.read(l.payloadLength, slotAt);
      } catch (e) {
        return fail("read-failed", mark === null ? "could not read a commit mark" : "could not read a slot", thrownStatus(e, "read-failed"));
      }
      if (mark[0] !== ERASED || !allErased(old)) {
        // Programmed by a save that never committed (power cut): never write over it before an erase.
        this.nextSlot_++;
        continue;
      }
      if (this.refreshHeader_) {
        const refreshed = this.refreshNewestHeader_();
        if (refreshed === RETRY) continue;
        if (refreshed !== STEP_OK) return refreshed;
      }
      // From here on the slot is no longer blank whatever happens, so it is used up.
      this.nextSlot_ = slot + 1;
      try {
        dev.write(payload, slotAt);
      } catch (e) {
        return this.payloadWriteFailed_(e);
      }
      let back: Uint8Array;
      try {
        back = dev.read(l.payloadLength, slotAt);
      } catch (e) {
        return fail("read-failed", "reading back the payload failed", thrownStatus(e, "read-failed"));
      }
      if (!bytesEqual(back, payload)) {
        if (progress === null) progress = { erased: false, opens: 0, verifyFailures: 0 };
        if (++progress.verifyFailures >= MAX_VERIFY_FAILURES) return fail("verify-failed", "the payload did not program (" + writeMiss(back, payload) + ")", "ok");
        continue;
      }
      // The commit: the mark programmed to 0x00 and read back; anything unusual is commitRest_'s.
      let mw: FlashStatus = "ok";
      let v = -1;
      try {
        dev.write(MARK_BYTES, markAt);
      } catch (e) {
        mw = thrownStatus(e, "write-failed");
      }
      try {
        v = dev.read(1, markAt)[0] as number;
      } catch (e) {
        // v stays -1: commitRest_ reads once more
      }
      if (v !== MARK_COMMITTED || mw !== "ok") {
        const committed = this.commitRest_(markAt, mw, v);
        if (committed !== STEP_OK) return committed;
      }
      this.protectedSector_ = this.newest_;
      this.protectedSeq_ = this.newestSeq_;
      this.counts_.saves++;
      return { status: "ok", message: "ok", flashStatus: "ok", payload: null, checks: 0, accepted: null, sector: this.newest_, slot: slot, seq: this.newestSeq_, erased: progress !== null && progress.erased };
    }
  }

  private payloadWriteFailed_(e: unknown): LogResult {
    "rarely called";
    const w = thrownStatus(e, "write-failed");
    return fail("write-failed", "writing the payload failed (" + w + ")", w);
  }

  private badLength_(): LogResult {
    "rarely called";
    return fail("bad-length", "a payload must be exactly " + this.layout.payloadLength + " bytes", "ok");
  }

  /** Before the first write after a boot or a failure: the position read from the flash, then I5. */
  private prepare_(): LogResult {
    "rarely called";
    if (!this.known_) {
      const s = this.findPosition_();
      if (s !== "ok") return fail("read-failed", "could not read the log before saving (" + s + ")", s);
    }
    return this.strengthen_();
  }

  /**
   * The newest sector has no usable slot: open the next one. Two opens at most in one save: a
   * freshly erased sector full of unusable slots means the flash is failing. A read-back that
   * disagrees (a write or erase the ESP32 port silently dropped) gets one more erase (RETRY); an
   * error the flash reported ends the save.
   */
  private openForSave_(progress: { erased: boolean; opens: number }): LogResult {
    "rarely called";
    if (progress.opens >= 2) return fail("verify-failed", "no usable slot after erasing two sectors", "ok");
    progress.opens++;
    progress.erased = true;
    const opened = this.openSector_();
    if (opened === STEP_OK) return STEP_OK;
    if (opened.status === "verify-failed" && progress.opens < 2) return RETRY;
    opened.erased = true;
    return opened;
  }

  /**
   * First write into a sector adopted with nothing committed: program its header again (its last
   * bit may have landed weakly in a cut). When it does not read back exactly, the save moves on to
   * a new sector (RETRY with the newest sector used up).
   */
  private refreshNewestHeader_(): LogResult {
    "rarely called";
    const programmed = this.programHeader_(this.newest_, this.newestSeq_, "programming the header of sector " + this.newest_ + " again");
    if (programmed === STEP_OK) {
      this.refreshHeader_ = false;
      return STEP_OK;
    }
    if (programmed.status !== "verify-failed") return programmed;
    this.refreshHeader_ = false;
    this.nextSlot_ = this.layout.slotsPerSector;
    return RETRY;
  }
}

/** Checks the region parameters against the flash and builds a SlotLog (reads nothing yet). */
export function createSlotLog(config: SlotLogConfig): CreateResult {
  if (!config || typeof config !== "object") return { status: "bad-config", log: null, message: "missing configuration" };
  const dev = config.device !== undefined ? config.device : config.flash && typeof config.flash.read === "function" ? deviceFlash(config.flash) : null;
  const pageSize = config.device !== undefined ? config.pageSize : config.flash ? config.flash.pageSize : undefined;
  if (dev === null || !dev || typeof dev.read !== "function") {
    return { status: "bad-config", log: null, message: "missing flash" };
  }
  if (typeof config.isValidPayload !== "function") {
    return { status: "bad-config", log: null, message: "missing isValidPayload check" };
  }
  if (config.maxBootChecks !== undefined && !(config.maxBootChecks >= 1)) {
    return { status: "bad-config", log: null, message: "maxBootChecks must be at least 1" };
  }
  if (typeof pageSize !== "number") return { status: "bad-config", log: null, message: "missing flash page size" };
  const r = computeLayout(config, pageSize);
  if (r.status !== "ok" || r.layout === null) return { status: "bad-config", log: null, message: r.message };
  return { status: "ok", log: new SlotLog(r.layout, config, dev, pageSize), message: "ok" };
}
