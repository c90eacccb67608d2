/**
 * The boot's quick scan (SlotLog reads every sector's sequence word in one native map and checks
 * only the largest one's header) must never answer differently from the full scan of every header.
 * Random regions (valid headers with sequence numbers near 0, 2^31 and 2^32, ties, erased, torn,
 * cleared and random headers; marks erased, committed, partly set or random; payloads good, damaged
 * or erased) are loaded twice: by a log as the device runs it, and by one whose flash misreports the
 * quick scan's 4-byte reads (they all read 0x80000000, which the quick scan leaves to the full
 * scan), which forces the full scan. Load, the save after it, and a save with no
 * load before it must agree in every field and leave the same bytes in the flash. QUICK_SCAN_RUNS
 * sets how many random regions (default 600 of four sectors, a tenth of that of sixteen).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { HEADER_WORDS, SEQ_WORDS, createSlotLog, type LogResult, type SlotLog } from "../src/storage/slotLog";
import { deviceFlash } from "../src/storage/flash";
import { HEADER_READ, computeLayout, encodeHeader } from "../src/storage/regionLayout";
import { ESP32, SMALL, type Geometry, crcValid, firstDifference, makePayload, newSim } from "./storage-fixtures";

/** Sequence numbers where the quick scan's shortcut has its edges. */
const SEQS = [0, 1, 2, 3, 7, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff];

const headerArb = fc.oneof(
  // A log as it is most of the time (small sequence numbers, its sectors' headers whole), where the
  // quick scan answers; then the edges and the damage where it must leave the answer to the full scan.
  { weight: 6, arbitrary: fc.oneof(fc.record({ kind: fc.constant("valid" as const), seq: fc.nat({ max: 40 }) }), fc.record({ kind: fc.constant("erased" as const) })) },
  fc.record({ kind: fc.constant("valid" as const), seq: fc.oneof(fc.constantFrom(...SEQS), fc.nat({ max: 40 })) }),
  fc.record({ kind: fc.constant("erased" as const) }),
  fc.record({ kind: fc.constant("torn" as const), seq: fc.oneof(fc.constantFrom(...SEQS), fc.nat({ max: 40 })), bits: fc.uint8Array({ minLength: 12, maxLength: 12 }) }),
  fc.record({ kind: fc.constant("cleared" as const), seq: fc.nat({ max: 40 }) }),
  fc.record({ kind: fc.constant("random" as const), bytes: fc.uint8Array({ minLength: 12, maxLength: 12 }) }),
);
const markArb = fc.oneof(fc.constant(0xff), fc.constant(0x00), fc.integer({ min: 0, max: 255 }));
const slotArb = fc.oneof(fc.constant("erased" as const), fc.constant("good" as const), fc.constant("bad" as const));
const sectorArb = fc.record({ header: headerArb, marks: fc.array(markArb, { minLength: 5, maxLength: 5 }), slots: fc.array(slotArb, { minLength: 5, maxLength: 5 }) });

type HeaderPlan =
  | { kind: "valid"; seq: number }
  | { kind: "erased" }
  | { kind: "torn"; seq: number; bits: Uint8Array }
  | { kind: "cleared"; seq: number }
  | { kind: "random"; bytes: Uint8Array };
interface SectorPlan {
  header: HeaderPlan;
  marks: number[];
  slots: ("erased" | "good" | "bad")[];
}

/** Writes the planned sectors into a fresh simulator of geometry `g` (plans repeat over the sectors). */
function build(g: Geometry, plans: SectorPlan[]): NorFlashSim {
  const l = computeLayout(g).layout!;
  const sim = newSim(g);
  for (let i = 0; i < l.sectorCount; i++) {
    const p = plans[i % plans.length]!;
    const base = g.address + i * g.sectorSize;
    const h = p.header;
    if (h.kind === "valid") sim.poke(base, encodeHeader(l, h.seq));
    else if (h.kind === "torn") sim.poke(base, encodeHeader(l, h.seq).map((b, k) => b | h.bits[k]!));
    else if (h.kind === "cleared") sim.poke(base, encodeHeader(l, h.seq).map((b, k) => (k < 4 ? 0 : b)));
    else if (h.kind === "random") sim.poke(base, h.bytes);
    if (h.kind === "erased") continue;
    for (let s = 0; s < l.slotsPerSector; s++) {
      const m = p.marks[s % p.marks.length]!;
      if (m !== 0xff) sim.poke(base + l.marksOffset + s, new Uint8Array([m]));
      const kind = p.slots[s % p.slots.length];
      const payload = makePayload(i * 100 + s);
      if (kind === "bad") payload[10] = payload[10]! ^ 1;
      if (kind !== "erased") sim.poke(base + l.slotsOffset + s * l.payloadLength, payload);
    }
  }
  return sim;
}

/** The simulator in the device's shape; with `fullOnly`, a log that never takes the boot's quick path. */
function open(sim: NorFlashSim, g: Geometry, fullOnly: boolean): SlotLog {
  const r = createSlotLog({ ...g, device: deviceFlash(sim), pageSize: sim.pageSize, isValidPayload: crcValid, fullScanOnly: fullOnly });
  if (r.log === null) throw new Error(r.message);
  return r.log;
}

function fields(r: LogResult): unknown {
  return { status: r.status, sector: r.sector, slot: r.slot, seq: r.seq, checks: r.checks, payload: r.payload === null ? null : Array.from(r.payload), erased: r.erased, flashStatus: r.flashStatus };
}

/** Holds the two paths equal on one planned region; answers whether the quick path answered the boot there. */
function agree(g: Geometry, plans: SectorPlan[]): boolean {
  const a = build(g, plans);
  const b = build(g, plans);
  const quick = open(a, g, false);
  const full = open(b, g, true);
  expect(fields(quick.load())).toEqual(fields(full.load()));
  const tookQuickPath = quick.stats().quickScans === 1;
  expect(full.stats().quickScans).toBe(0);
  expect(fields(quick.save(makePayload(9001)))).toEqual(fields(full.save(makePayload(9001))));
  expect(firstDifference(a.image(), b.image())).toBeNull();
  // A save with no load before it finds its position the same way.
  const c = build(g, plans);
  const d = build(g, plans);
  expect(fields(open(c, g, false).save(makePayload(9002)))).toEqual(fields(open(d, g, true).save(makePayload(9002))));
  expect(firstDifference(c.image(), d.image())).toBeNull();
  return tookQuickPath;
}

describe("the boot's quick scan answers what the full scan answers", () => {
  // Each property also counts the regions where the quick path really answered: a comparison that
  // never ran it would prove nothing.
  it("on random four-sector regions", () => {
    let quick = 0;
    const runs = Number(process.env.QUICK_SCAN_RUNS ?? 600);
    fc.assert(fc.property(fc.array(sectorArb, { minLength: 4, maxLength: 4 }), (plans) => void (agree(SMALL, plans) && quick++)), { numRuns: runs });
    // Both paths came up often: the quick one in a good share of the regions, the full one in the rest.
    expect(quick).toBeGreaterThan(runs / 5);
    expect(runs - quick).toBeGreaterThan(runs / 5);
  });

  it("when the largest word is 2^31 - 1 and an earlier sector holds a valid 0xFFFFFFFF (2^31 apart: neither is newer)", () => {
    // Found by the property above: the full scan keeps the lower sector index for such a pair, so
    // the quick scan must leave a largest word of 2^31 - 1 to it.
    const marks = [0, 0, 255, 255, 255];
    const slots: SectorPlan["slots"] = ["good", "good", "erased", "erased", "erased"];
    agree(SMALL, [
      { header: { kind: "torn", seq: 0, bits: new Uint8Array([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]) }, marks, slots },
      { header: { kind: "valid", seq: 0xffffffff }, marks, slots },
      { header: { kind: "erased" }, marks, slots },
      { header: { kind: "valid", seq: 0x7fffffff }, marks, slots },
    ]);
  });

  it("on random sixteen-sector (ESP32) regions", () => {
    let quick = 0;
    const runs = Math.ceil(Number(process.env.QUICK_SCAN_RUNS ?? 600) / 10);
    fc.assert(fc.property(fc.array(sectorArb, { minLength: 1, maxLength: 16 }), (plans) => void (agree(ESP32, plans) && quick++)), { numRuns: runs });
    expect(quick).toBeGreaterThan(2);
  });

  it("picks each sector's sequence word: SEQ_WORDS is word 1 of every HEADER_WORDS", () => {
    expect(Array.from(SEQ_WORDS)).toEqual(Array.from({ length: 16 }, (_, i) => 1 + i * HEADER_WORDS));
    expect(HEADER_WORDS * 4).toBe(HEADER_READ);
  });

  it("a region of more sectors than SEQ_WORDS names takes the full scan, and answers the same", () => {
    const g: Geometry = { address: 0x4000, size: 24 * 512, sectorSize: 512 };
    const sim = newSim(g);
    const log = open(sim, g, false);
    for (let i = 0; i < 130; i++) expect(log.save(makePayload(i)).status).toBe("ok");
    const quick = open(sim, g, false);
    const booted = quick.load();
    expect(quick.stats().quickScans).toBe(0);
    expect(fields(booted)).toEqual(fields(open(sim, g, true).load()));
    expect(booted.payload).toEqual(makePayload(129));
  });

  it("takes the quick path in a clean log, and a torn newest header sends it to the full scan", () => {
    const g = SMALL;
    const sim = newSim(g);
    const log = open(sim, g, false);
    for (let i = 0; i < 12; i++) expect(log.save(makePayload(i)).status).toBe("ok");
    let headerReads = 0;
    const dev = deviceFlash(sim);
    const counting = { read: (n: number, a: number) => (n === HEADER_READ && (a - g.address) % g.sectorSize === 0 && headerReads++, dev.read(n, a)), write: dev.write, erasePage: dev.erasePage };
    const l = computeLayout(g).layout!;
    const clean = createSlotLog({ ...g, device: counting, pageSize: sim.pageSize, isValidPayload: crcValid }).log!;
    const booted = clean.load();
    expect(booted.status).toBe("ok");
    expect(clean.stats().quickScans).toBe(1);
    // Every header read once, by the one scan both paths share.
    expect(headerReads).toBe(l.sectorCount);
    // Tear the newest header (its ~seq word loses a programmed bit): the boot must fall back to the
    // sector before it, which only the full scan can order.
    const at = g.address + booted.sector * g.sectorSize + 8;
    const word = sim.read(4, at).bytes!;
    const torn = word.slice();
    for (let k = 0; k < 4; k++) if (torn[k] !== 0xff) {
      torn[k] = 0xff;
      break;
    }
    const fresh = newSim(g);
    fresh.poke(g.address, sim.image());
    fresh.poke(at, torn);
    const tornLog = open(fresh, g, false);
    const after = tornLog.load();
    expect(tornLog.stats().quickScans).toBe(0);
    expect(after.status).toBe("ok");
    expect(after.sector).not.toBe(booted.sector);
    expect(fields(after)).toEqual(fields(open(fresh, g, true).load()));
  });
});
