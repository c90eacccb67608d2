/**
 * NorFlashSim: an in-memory NOR flash that behaves like the chip under the ESP32 and like the
 * emulated block device littlefs tests with (lfs_emubd): an erase sets a page to 0xFF, a write
 * ANDs (it can only clear bits), and power can be cut in the middle of any write or erase.
 *
 * What it adds for tests and benches:
 * - strict mode: a write that cannot give every byte the value it asks for (it wants a 1 where a 0
 *   is already programmed, so the result would be a mixture of old and new) fails with "not-erased";
 *   writing a value again, or clearing more bits of a partly programmed byte, is allowed;
 * - word-padded writes (option `wordPadded`): like Espruino's Flash.write on the device, a write
 *   that does not cover whole 4-byte words is widened to them, the extra bytes carrying the cells'
 *   current values (read-modify-write), and the whole words are programmed;
 * - per-page erase counters, counts of reads/writes/erases and bytes read/written, an optional trace;
 * - power-loss injection: after N more mutating operations (writes and erases) the next one is
 *   torn (some of its words or bits land, or the page is left partly erased or random) and returns
 *   "power-lost", and so does every later call until powerOn(); a cut during a read changes
 *   nothing, so only mutations are counted;
 * - failure injection: a read/write/erase that reports a failure status, throws, or (writes and
 *   erases) silently does nothing ("silent") or only its first half ("half") while reporting "ok",
 *   as the ESP32 port can (it ignores the flash driver's errors). The same faults, by the same
 *   names, are injected into Espruino's Linux build by src/host/node/interpreter/espruinoShim.c (docs/storage.md,
 *   "Flash that lies");
 * - seeded randomness (xorshift32) so every tear is reproducible; no Math.random.
 */
import { StatusFlash, FlashRead, FlashStatus } from "./flash";

/** How a torn write lands. */
export type WriteTear =
  /** nothing reaches the cells */
  | "none"
  /** everything lands, but power dies before the call returns */
  | "all"
  /** the first k of its 4-byte words land (k random, may be 0) */
  | "prefix"
  /** each 4-byte word lands or not, independently */
  | "words"
  /** each bit that should be cleared is cleared or not, independently */
  | "bits";

/** How a torn erase leaves its page. */
export type EraseTear =
  /** the page is untouched */
  | "none"
  /** the first k words are erased, the rest keep their old contents */
  | "prefix"
  /** each word is erased or keeps its old contents, independently */
  | "words"
  /** every byte is random (cells left half way) */
  | "random"
  /** each word independently keeps its old contents, is erased, or is random: an old header can
   *  survive over random commit marks */
  | "mixed";

export interface PowerCutPlan {
  /** Mutating operations that still complete before the torn one. 0 tears the very next one. */
  afterMutations: number;
  writeTear?: WriteTear;
  eraseTear?: EraseTear;
}

export type FailureMode = "status" | "throw" | "silent" | "half";

export interface FailureRule {
  op: "read" | "write" | "erase";
  /** "status": report read-failed/write-failed/erase-failed; "throw": throw an Error;
   *  "silent" (write/erase only): do nothing and report "ok";
   *  "half" (write/erase only): only the first half lands (whole 4-byte words: a write's first
   *  half of its bytes rounded down to a word, an erase's first half of the page), and report "ok". */
  mode: FailureMode;
  /** Matching operations to let through first (default 0). */
  after?: number;
  /** How many matching operations fail (default: all). */
  count?: number;
}

export interface TraceEntry {
  op: "read" | "write" | "erase";
  address: number;
  length: number;
  status: FlashStatus;
  torn: boolean;
}

export interface NorFlashSimOptions {
  /** Bytes of flash simulated, a multiple of pageSize. */
  size: number;
  /** Erase page size. */
  pageSize: number;
  /** Absolute address of the first simulated byte (e.g. 0x310000). Default 0. */
  baseAddress?: number;
  /** Refuse writes whose result would differ from the data written (see the file comment). */
  strict?: boolean;
  /**
   * Widen every write to whole 4-byte words (of absolute addresses), the padding carrying
   * the current cell values, as Espruino's jshFlashWriteAligned does on the device. Counters, tears
   * and onChange then see the widened write. Default false.
   */
  wordPadded?: boolean;
  /** Seed for tears and random fills. Default 1. */
  seed?: number;
  /** Initial contents (copied); default all 0xFF. */
  initial?: Uint8Array;
  /** Record every operation in `trace`. Default false. */
  trace?: boolean;
  /**
   * Called synchronously after every change to the cells with the changed range: its offset from
   * the base address and a view of the new cell values (valid only during the call). A file-backed
   * device writes them through here before the operation returns.
   */
  onChange?: (offset: number, cells: Uint8Array) => void;
}

export interface NorFlashStats {
  reads: number;
  writes: number;
  erases: number;
  bytesRead: number;
  bytesWritten: number;
  /** Writes plus erases attempted while powered (the unit PowerCutPlan counts in). */
  mutations: number;
}

/** xorshift32: small, seedable, the same on every platform. */
export function createPrng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return function next(): number {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

function emptyStats(): NorFlashStats {
  return { reads: 0, writes: 0, erases: 0, bytesRead: 0, bytesWritten: 0, mutations: 0 };
}

export class NorFlashSim implements StatusFlash {
  readonly pageSize: number;
  readonly baseAddress: number;
  readonly size: number;
  readonly strict: boolean;
  readonly wordPadded: boolean;
  stats: NorFlashStats = emptyStats();
  trace: TraceEntry[] = [];
  private readonly cells: Uint8Array;
  private readonly eraseCounters: number[];
  private readonly rand: () => number;
  private readonly tracing: boolean;
  private readonly onChange: ((offset: number, cells: Uint8Array) => void) | null;
  private plan: PowerCutPlan | null = null;
  private lost = false;
  private rules: { rule: FailureRule; seen: number; failed: number }[] = [];

  constructor(o: NorFlashSimOptions) {
    if (!(o.pageSize > 0) || !(o.size > 0) || o.size % o.pageSize !== 0) {
      throw new Error("NorFlashSim: size must be a positive multiple of pageSize");
    }
    this.pageSize = o.pageSize;
    this.size = o.size;
    this.baseAddress = o.baseAddress === undefined ? 0 : o.baseAddress;
    this.strict = o.strict === true;
    this.wordPadded = o.wordPadded === true;
    this.cells = new Uint8Array(o.size);
    this.cells.fill(0xff);
    if (o.initial !== undefined) {
      if (o.initial.length !== o.size) throw new Error("NorFlashSim: initial image must be exactly size bytes");
      this.cells.set(o.initial);
    }
    this.eraseCounters = [];
    for (let i = 0; i < o.size / o.pageSize; i++) this.eraseCounters.push(0);
    this.rand = createPrng(o.seed === undefined ? 1 : o.seed);
    this.tracing = o.trace === true;
    this.onChange = o.onChange === undefined ? null : o.onChange;
  }

  // ---- inspection -------------------------------------------------------------------------

  /** A copy of every cell. */
  image(): Uint8Array {
    return new Uint8Array(this.cells);
  }

  /** Erase count of every page, in address order. */
  eraseCounts(): number[] {
    return this.eraseCounters.slice(0);
  }

  resetStats(): void {
    this.stats = emptyStats();
    this.trace = [];
  }

  get poweredOff(): boolean {
    return this.lost;
  }

  // ---- fault injection --------------------------------------------------------------------

  /** Tears the mutation after `afterMutations` more complete ones, then stays off until powerOn(). */
  cutPowerAfter(plan: PowerCutPlan): void {
    this.plan = { afterMutations: plan.afterMutations, writeTear: plan.writeTear, eraseTear: plan.eraseTear };
  }

  /** Power comes back: operations work again (the cells keep whatever the cut left). */
  powerOn(): void {
    this.lost = false;
    this.plan = null;
  }

  injectFailure(rule: FailureRule): void {
    this.rules.push({ rule: rule, seen: 0, failed: 0 });
  }

  clearFailures(): void {
    this.rules = [];
  }

  /** Overwrites cells directly (no NOR rules, no counters): for building test fixtures. */
  poke(address: number, data: Uint8Array): void {
    const off = address - this.baseAddress;
    if (off < 0 || off + data.length > this.size) throw new Error("NorFlashSim.poke: out of range");
    this.cells.set(data, off);
    this.changed(off, data.length);
  }

  /** Fills the whole device with seeded random bytes (a region nobody formatted). */
  fillRandom(): void {
    for (let i = 0; i < this.size; i++) this.cells[i] = this.rand() & 0xff;
    this.changed(0, this.size);
  }

  private failureFor(op: "read" | "write" | "erase"): FailureMode | null {
    for (const r of this.rules) {
      if (r.rule.op !== op) continue;
      r.seen++;
      if (r.seen <= (r.rule.after === undefined ? 0 : r.rule.after)) continue;
      if (r.rule.count !== undefined && r.failed >= r.rule.count) continue;
      r.failed++;
      return r.rule.mode;
    }
    return null;
  }

  private record(op: "read" | "write" | "erase", address: number, length: number, status: FlashStatus, torn: boolean): void {
    if (this.tracing) this.trace.push({ op: op, address: address, length: length, status: status, torn: torn });
  }

  private inRange(address: number, length: number): boolean {
    const off = address - this.baseAddress;
    return Math.floor(address) === address && Math.floor(length) === length && length >= 0 && off >= 0 && off + length <= this.size;
  }

  /** True when this mutation is the one power dies in. */
  private tearsNow(): boolean {
    if (this.plan === null) return false;
    if (this.plan.afterMutations > 0) {
      this.plan.afterMutations--;
      return false;
    }
    return true;
  }

  private changed(off: number, length: number): void {
    if (this.onChange !== null && length > 0) this.onChange(off, this.cells.subarray(off, off + length));
  }

  // ---- the StatusFlash interface ------------------------------------------------------------

  read(length: number, address: number): FlashRead {
    if (this.lost) {
      this.record("read", address, length, "power-lost", false);
      return { status: "power-lost", bytes: null };
    }
    if (!this.inRange(address, length)) {
      this.record("read", address, length, "out-of-range", false);
      return { status: "out-of-range", bytes: null };
    }
    const f = this.failureFor("read");
    if (f === "throw") throw new Error("NorFlashSim: injected read failure");
    if (f !== null) {
      this.record("read", address, length, "read-failed", false);
      return { status: "read-failed", bytes: null };
    }
    const off = address - this.baseAddress;
    this.stats.reads++;
    this.stats.bytesRead += length;
    this.record("read", address, length, "ok", false);
    return { status: "ok", bytes: new Uint8Array(this.cells.subarray(off, off + length)) };
  }

  write(data: Uint8Array, address: number): FlashStatus {
    let length = data.length;
    if (this.lost) {
      this.record("write", address, length, "power-lost", false);
      return "power-lost";
    }
    if (!this.inRange(address, length)) {
      this.record("write", address, length, "out-of-range", false);
      return "out-of-range";
    }
    const f = this.failureFor("write");
    if (f === "throw") throw new Error("NorFlashSim: injected write failure");
    let off = address - this.baseAddress;
    if (this.wordPadded && (address % 4 !== 0 || length % 4 !== 0)) {
      // The interpreter reads the partial words and programs them whole with the new bytes merged in
      // (words of absolute addresses; clamped to the simulated range).
      const start = Math.max(0, off - (address % 4));
      const tail = (address + length) % 4;
      const end = Math.min(this.size, off + length + (tail === 0 ? 0 : 4 - tail));
      const padded = new Uint8Array(this.cells.subarray(start, end));
      padded.set(data, off - start);
      data = padded;
      off = start;
      address = this.baseAddress + start;
      length = padded.length;
    }
    this.stats.mutations++;
    this.stats.writes++;
    this.stats.bytesWritten += length;
    if (f === "status") {
      this.record("write", address, length, "write-failed", false);
      return "write-failed";
    }
    if (f === "silent") {
      this.record("write", address, length, "ok", false);
      return "ok";
    }
    if (f === "half") {
      length = (length >> 1) & ~3;
      data = data.subarray(0, length);
    }
    if (this.strict) {
      for (let i = 0; i < length; i++) {
        const want = data[i] as number;
        if (((this.cells[off + i] as number) & want) !== want) {
          this.record("write", address, length, "not-erased", false);
          return "not-erased";
        }
      }
    }
    if (this.tearsNow()) {
      this.tearWrite(data, off, this.plan === null || this.plan.writeTear === undefined ? "words" : this.plan.writeTear);
      this.lost = true;
      this.record("write", address, length, "power-lost", true);
      return "power-lost";
    }
    for (let i = 0; i < length; i++) this.cells[off + i] = (this.cells[off + i] as number) & (data[i] as number);
    this.changed(off, length);
    this.record("write", address, length, "ok", false);
    return "ok";
  }

  erasePage(address: number): FlashStatus {
    if (this.lost) {
      this.record("erase", address, this.pageSize, "power-lost", false);
      return "power-lost";
    }
    if (!this.inRange(address, 1)) {
      this.record("erase", address, this.pageSize, "out-of-range", false);
      return "out-of-range";
    }
    const f = this.failureFor("erase");
    if (f === "throw") throw new Error("NorFlashSim: injected erase failure");
    this.stats.mutations++;
    this.stats.erases++;
    const page = Math.floor((address - this.baseAddress) / this.pageSize);
    const start = page * this.pageSize;
    if (f === "status") {
      this.record("erase", address, this.pageSize, "erase-failed", false);
      return "erase-failed";
    }
    if (f === "silent") {
      this.record("erase", address, this.pageSize, "ok", false);
      return "ok";
    }
    if (f === "half") {
      this.eraseCounters[page] = (this.eraseCounters[page] as number) + 1;
      this.cells.fill(0xff, start, start + this.pageSize / 2);
      this.changed(start, this.pageSize / 2);
      this.record("erase", address, this.pageSize, "ok", false);
      return "ok";
    }
    // A torn erase still wears the page.
    this.eraseCounters[page] = (this.eraseCounters[page] as number) + 1;
    if (this.tearsNow()) {
      this.tearErase(start, this.plan === null || this.plan.eraseTear === undefined ? "words" : this.plan.eraseTear);
      this.lost = true;
      this.record("erase", address, this.pageSize, "power-lost", true);
      return "power-lost";
    }
    this.cells.fill(0xff, start, start + this.pageSize);
    this.changed(start, this.pageSize);
    this.record("erase", address, this.pageSize, "ok", false);
    return "ok";
  }

  // ---- tears ------------------------------------------------------------------------------

  private tearWrite(data: Uint8Array, off: number, mode: WriteTear): void {
    const end = off + data.length;
    const firstWord = off & ~3;
    const words = Math.ceil((end - firstWord) / 4);
    const prefix = mode === "prefix" ? this.rand() % (words + 1) : 0;
    for (let w = 0; w < words; w++) {
      let lands: boolean;
      if (mode === "all") lands = true;
      else if (mode === "none") lands = false;
      else if (mode === "prefix") lands = w < prefix;
      else if (mode === "words") lands = (this.rand() & 1) === 1;
      else lands = true; // "bits": decided per bit below
      if (!lands) continue;
      for (let b = 0; b < 4; b++) {
        const i = firstWord + w * 4 + b;
        if (i < off || i >= end) continue;
        let v = data[i - off] as number;
        if (mode === "bits") v = v | (this.rand() & 0xff); // a set bit in the mask means "did not land"
        this.cells[i] = (this.cells[i] as number) & v;
      }
    }
    this.changed(off, data.length);
  }

  private tearErase(start: number, mode: EraseTear): void {
    const end = start + this.pageSize;
    if (mode === "none") return;
    if (mode === "random") {
      for (let i = start; i < end; i++) this.cells[i] = this.rand() & 0xff;
    } else if (mode === "mixed") {
      for (let w = start; w < end; w += 4) {
        const r = this.rand() % 3;
        if (r === 1) this.cells.fill(0xff, w, w + 4);
        else if (r === 2) for (let i = w; i < w + 4; i++) this.cells[i] = this.rand() & 0xff;
      }
    } else {
      const words = this.pageSize / 4;
      const prefix = mode === "prefix" ? this.rand() % (words + 1) : 0;
      for (let w = 0; w < words; w++) {
        const erase = mode === "prefix" ? w < prefix : (this.rand() & 1) === 1;
        if (erase) this.cells.fill(0xff, start + w * 4, start + w * 4 + 4);
      }
    }
    this.changed(start, this.pageSize);
  }
}
