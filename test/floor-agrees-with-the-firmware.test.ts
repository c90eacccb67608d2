/**
 * The bench's and board-check's floor (src/host/node/boardCheck/floor.js) is a written-out copy of
 * the codec, the world's rules, the time away and the slot log's boot scan, in the interpreter's
 * fastest terms. Here it is held to the real code, run as the plain-ES5 text it is, over a NOR flash
 * simulator in Espruino's Flash shape, with the emulator's `E`:
 *
 * - its encode gives saveWorld's bytes, for any valid world and save stamp;
 * - its safe save writes exactly what saveWorld gives (and its mark) when validateWorld accepts the
 *   world and the slot is erased, and refuses and writes nothing otherwise;
 * - its safe export gives saveWorld's bytes as hex when validateWorld accepts the world, and nothing
 *   otherwise;
 * - its plain restore reads back what the codec decodes;
 * - its safe restore finds, on random regions (headers valid, erased, torn, cleared or random, with
 *   sequence numbers at the quick scan's edges; marks erased, committed or partly set; slots good,
 *   damaged, torn by a cut, readable only at a later clock, past the clock's end, or erased), at any
 *   wall clock, the world the firmware's store restores (firmware/store.ts), or nothing when the store
 *   has no usable save;
 * - every flash read it makes is 1 byte or at least 24, the only sizes safe on Espruino's ESP32
 *   builds (src/storage/flash.ts, SAFE_READ_MIN), and it is ES5 the bundle checks accept.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { floorFile } from "../src/host/node/boardCheck/onBoard";
import { createEspruinoE, espruinoBytes } from "../src/host/emulator/espruinoE";
import { saveWorld, loadWorld } from "../src/save/codec";
import { crc32Bitwise } from "../src/save/crc32";
import { validateWorld } from "../src/core/world";
import type { World } from "../src/core/types";
import type { U64 } from "../src/core/u64";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { deviceFlash, SAFE_READ_MIN } from "../src/storage/flash";
import { encodeHeader, layoutForRegion, type RegionLayout } from "../src/storage/regionLayout";
import { openPetStore } from "../firmware/store";
import { checkBundle, formatFindings } from "../scripts/lib/bundleCheck.js";
import { fromBig, validWorld, U64_MAX_BIG } from "./core-arbitraries";

const FLOOR = readFileSync(floorFile(), "utf8");

interface FloorWorld extends World {
  savedAt?: U64;
}
interface Restored {
  world: World;
  savedAt: U64;
  absenceMs: number;
}
interface Floor {
  encode(w: FloorWorld): Uint8Array;
  restore(addr: number): (World & { savedAt: U64 }) | null;
  safeSave(w: World, addr: number): boolean;
  safeRestore(layout: RegionLayout, now: number): Restored | null;
  safeExport(w: FloorWorld): string | null;
  plainExport(w: FloorWorld): string;
}

/** The floor loaded over `sim` as the interpreter would run it; `reads` gets every read's length. */
function loadFloor(sim: NorFlashSim): { floor: Floor; reads: number[]; maps: { count: number } } {
  const reads: number[] = [];
  const maps = { count: 0 };
  const dev = deviceFlash(sim); // refuses reads of 2 to 22 bytes, as the emulated Flash does
  const flash = {
    read: (n: number, a: number) => {
      reads.push(n);
      return dev.read(n, a);
    },
    write: (d: Uint8Array, a: number) => dev.write(d, a),
    erasePage: (a: number) => dev.erasePage(a),
  };
  // E.toUint8Array as the interpreter flattens its argument (a string, bytes, an array of them; the
  // emulator leaves it out).
  const flat = (v: unknown): number[] => (Array.isArray(v) ? v.flatMap(flat) : typeof v === "number" ? [v & 0xff] : Array.from(espruinoBytes(v)));
  const emulated = createEspruinoE();
  const E = {
    ...emulated,
    toUint8Array: (v: unknown) => Uint8Array.from(flat(v)),
    mapInPlace: (...args: Parameters<typeof emulated.mapInPlace>) => {
      maps.count++;
      emulated.mapInPlace(...args);
    },
  };
  const modules: Record<string, unknown> = { Flash: flash, Storage: {} };
  const global: Record<string, unknown> = {};
  new Function("require", "E", "global", "getTime", FLOOR)((name: string) => modules[name], E, global, () => performance.now() / 1000);
  return { floor: global.benchFloor as Floor, reads, maps };
}

const u64 = fc.bigInt({ min: 0n, max: U64_MAX_BIG }).map(fromBig);
const savedAtArb = fc.oneof(fc.constant({ hi: 0, lo: 0 }), u64, fc.integer({ min: 1, max: 2 ** 44 }).map((n) => fromBig(BigInt(n))));

/** Worlds valid and not: an activity, expression or name out of range, a stamp past the clock, a half that is no u32. */
const spoiled = fc.tuple(validWorld, fc.integer({ min: 0, max: 11 })).map(([w, how]): World => {
  switch (how) {
    case 0:
      return { ...w, activity: 5 };
    case 1:
      return { ...w, expression: 6.5 };
    case 2:
      return { ...w, name: new Uint8Array(32).fill(65) };
    case 3:
      return { ...w, name: new Uint8Array([65, 0, 66]) };
    case 4:
      return w.elapsed.lo < 0xffffffff ? { ...w, activitySince: { hi: w.elapsed.hi, lo: w.elapsed.lo + 1 } } : w;
    case 5:
      return { ...w, updateCount: { hi: -1, lo: 0 } };
    default:
      return w;
  }
});

function same(a: World, b: World): void {
  expect({ ...a, name: Array.from(a.name) }).toEqual({ ...b, name: Array.from(b.name) });
}

describe("the floor's save is the codec's", () => {
  it("encode gives saveWorld's 84 bytes for any valid world and save stamp", () => {
    const { floor } = loadFloor(new NorFlashSim({ size: 4096, pageSize: 4096 }));
    fc.assert(
      fc.property(validWorld, savedAtArb, (world, savedAt) => {
        const bytes = floor.encode({ ...world, savedAt }).slice();
        expect(Buffer.from(bytes).toString("hex")).toBe(Buffer.from(saveWorld(world, savedAt).bytes as Uint8Array).toString("hex"));
      }),
      { numRuns: 500 },
    );
  });

  it("the safe save writes saveWorld's bytes and its mark when validateWorld accepts, and nothing otherwise", () => {
    let written = 0;
    let refused = 0;
    fc.assert(
      fc.property(spoiled, fc.integer({ min: 0, max: 3 }).map((n) => n === 0), (world, dirty) => {
        const sim = new NorFlashSim({ size: 4096, pageSize: 4096 });
        if (dirty) sim.poke(40, new Uint8Array([0]));
        const { floor } = loadFloor(sim);
        const ok = floor.safeSave({ ...world, savedAt: { hi: 0, lo: 0 } } as FloorWorld, 0);
        const valid = validateWorld(world) === "ok";
        expect(ok).toBe(valid && !dirty);
        const region = sim.read(85, 0).bytes as Uint8Array;
        if (ok) {
          written++;
          expect(Buffer.from(region.subarray(0, 84)).toString("hex")).toBe(Buffer.from(saveWorld(world, 0).bytes as Uint8Array).toString("hex"));
          expect(region[84]).toBe(0);
        } else {
          refused++;
          expect(region.every((b, i) => b === (dirty && i === 40 ? 0 : 255))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
    // About 110 written and 190 refused in 300: both far above these.
    expect(written).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(80);
  });

  it("the plain export is saveWorld's bytes as hex for any valid world, through one native map", () => {
    const { floor, maps } = loadFloor(new NorFlashSim({ size: 4096, pageSize: 4096 }));
    let runs = 0;
    fc.assert(
      fc.property(validWorld, savedAtArb, (world, savedAt) => {
        runs++;
        expect(floor.plainExport({ ...world, savedAt })).toBe(Buffer.from(saveWorld(world, savedAt).bytes as Uint8Array).toString("hex"));
      }),
      { numRuns: 300 },
    );
    expect(maps.count).toBe(runs);
  });

  it("the safe export is saveWorld's bytes as hex when validateWorld accepts, and nothing otherwise", () => {
    const { floor, maps } = loadFloor(new NorFlashSim({ size: 4096, pageSize: 4096 }));
    let exported = 0;
    let refused = 0;
    fc.assert(
      fc.property(spoiled, savedAtArb, (world, savedAt) => {
        const hex = floor.safeExport({ ...world, savedAt });
        if (validateWorld(world) !== "ok") {
          refused++;
          expect(hex).toBeNull();
          return;
        }
        exported++;
        expect(hex).toBe(Buffer.from(saveWorld(world, savedAt).bytes as Uint8Array).toString("hex"));
      }),
      { numRuns: 300 },
    );
    expect(exported).toBeGreaterThan(80);
    expect(refused).toBeGreaterThan(50);
    expect(maps.count).toBe(exported); // one native map an export, none for a refusal
  });

  it("the plain restore reads back what the codec decodes, and refuses a damaged checksum", () => {
    fc.assert(
      fc.property(validWorld, savedAtArb, fc.integer({ min: 0, max: 83 }), (world, savedAt, flip) => {
        const sim = new NorFlashSim({ size: 4096, pageSize: 4096 });
        const bytes = saveWorld(world, savedAt).bytes as Uint8Array;
        sim.poke(0, bytes);
        const { floor } = loadFloor(sim);
        const got = floor.restore(0);
        const want = loadWorld(bytes, 0);
        expect(got).not.toBeNull();
        const { savedAt: gotSavedAt, ...gotWorld } = got as World & { savedAt: U64 };
        same(gotWorld, want.world as World);
        expect(gotSavedAt).toEqual(want.savedAt);
        const bad = bytes.slice();
        bad[flip] = (bad[flip] as number) ^ 0x10;
        sim.poke(100, bad);
        expect(floor.restore(100)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

/** Sequence numbers where the quick path has its edges. */
const SEQS = [0, 1, 2, 7, 0x7ffffffe, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];

type SlotPlan = "erased" | "good" | "bad-crc" | "torn" | "later" | "overflow" | "bad-name";
type HeaderPlan = { kind: "valid"; seq: number } | { kind: "erased" } | { kind: "torn"; seq: number; bits: Uint8Array } | { kind: "cleared"; seq: number } | { kind: "random"; bytes: Uint8Array };
interface SectorPlan {
  header: HeaderPlan;
  marks: number[];
  slots: SlotPlan[];
}

const headerArb: fc.Arbitrary<HeaderPlan> = fc.oneof(
  // A log as it mostly is (small sequence numbers, whole headers), then the edges and the damage.
  { weight: 6, arbitrary: fc.oneof(fc.record({ kind: fc.constant("valid" as const), seq: fc.nat({ max: 40 }) }), fc.record({ kind: fc.constant("erased" as const) })) },
  fc.record({ kind: fc.constant("valid" as const), seq: fc.constantFrom(...SEQS) }),
  fc.record({ kind: fc.constant("torn" as const), seq: fc.oneof(fc.constantFrom(...SEQS), fc.nat({ max: 40 })), bits: fc.uint8Array({ minLength: 12, maxLength: 12 }) }),
  fc.record({ kind: fc.constant("cleared" as const), seq: fc.nat({ max: 40 }) }),
  fc.record({ kind: fc.constant("random" as const), bytes: fc.uint8Array({ minLength: 12, maxLength: 12 }) }),
);
const sectorArb: fc.Arbitrary<SectorPlan> = fc.record({
  header: headerArb,
  marks: fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(0x00, 0xff) }, fc.integer({ min: 0, max: 255 })), { minLength: 6, maxLength: 6 }),
  slots: fc.array(fc.oneof({ weight: 4, arbitrary: fc.constant<SlotPlan>("good") }, fc.constantFrom<SlotPlan>("erased", "bad-crc", "torn", "later", "overflow", "bad-name")), { minLength: 6, maxLength: 6 }),
});

const WALL = Date.UTC(2026, 0, 1);
/** A wall clock: unknown, at, after (up to past the seven-day clamp) or before the saves' stamps. */
const nowArb = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10 * 86400000 }).map((d) => WALL + d), fc.integer({ min: 1, max: 86400000 }).map((d) => WALL - d), fc.double({ min: WALL, max: WALL + 1e6, noNaN: true }));

/** The payload for a slot of the plan: the codec's, spoiled as planned (re-checksummed where the plan needs a valid CRC). */
function payloadFor(plan: SlotPlan, id: number, rand: Uint8Array): Uint8Array {
  const elapsed = plan === "overflow" ? { hi: 0xffffffff, lo: 0xffffff00 } : { hi: 0, lo: 1000000 + id * 1000 };
  const world: World = {
    name: new Uint8Array([80, 101, 116, 48 + (id % 10)]),
    activity: id % 5,
    expression: id % 6,
    activitySince: { hi: elapsed.hi, lo: elapsed.lo - 500 },
    expressionSince: { hi: elapsed.hi, lo: elapsed.lo - 200 },
    elapsed,
    updateCount: { hi: 0, lo: id },
  };
  const bytes = saveWorld(world, WALL - 60000 + id).bytes as Uint8Array;
  const dv = new DataView(bytes.buffer);
  const resign = (): void => dv.setUint32(80, crc32Bitwise(bytes, 0, 80), true);
  if (plan === "bad-crc") bytes[20] = (bytes[20] as number) ^ 4;
  if (plan === "torn") for (let i = 0; i < 84; i++) bytes[i] = (bytes[i] as number) | (rand[i % rand.length] as number);
  if (plan === "later") {
    // A since stamp a minute past the stored clock: loads only with time away added, never without a clock.
    dv.setUint32(32, elapsed.lo + 60000, true);
    resign();
  }
  if (plan === "bad-name") {
    bytes[48] = 0;
    resign();
  }
  return bytes;
}

/** Writes the planned sectors into a fresh simulator of `region` (plans repeat over the sectors). */
function build(region: { address: number; size: number; pageSize: number }, layout: RegionLayout, plans: SectorPlan[], rand: Uint8Array): NorFlashSim {
  const sim = new NorFlashSim({ size: region.size, pageSize: region.pageSize, baseAddress: region.address });
  for (let i = 0; i < layout.sectorCount; i++) {
    const p = plans[i % plans.length] as SectorPlan;
    const base = region.address + i * layout.sectorSize;
    const h = p.header;
    if (h.kind === "erased") continue;
    if (h.kind === "valid") sim.poke(base, encodeHeader(layout, h.seq));
    else if (h.kind === "torn") sim.poke(base, encodeHeader(layout, h.seq).map((b, k) => b | (h.bits[k] as number)));
    else if (h.kind === "cleared") sim.poke(base, encodeHeader(layout, h.seq).map((b, k) => (k < 4 ? 0 : b)));
    else sim.poke(base, h.bytes);
    for (let s = 0; s < layout.slotsPerSector; s++) {
      const m = p.marks[s % p.marks.length] as number;
      if (m !== 0xff) sim.poke(base + layout.marksOffset + s, new Uint8Array([m]));
      const plan = p.slots[s % p.slots.length] as SlotPlan;
      if (plan !== "erased") sim.poke(base + layout.slotsOffset + s * layout.payloadLength, payloadFor(plan, i * 100 + s, rand));
    }
  }
  return sim;
}

/** The floor's safe restore and the firmware's store over the same region: the same world, or both nothing. Answers how the floor read it. */
function agree(region: { address: number; size: number; pageSize: number }, plans: SectorPlan[], rand: Uint8Array, now: number): { quick: boolean; found: boolean } {
  const layout = layoutForRegion(region).layout as RegionLayout;
  const sim = build(region, layout, plans, rand);
  const opened = openPetStore(deviceFlash(sim), region, layout);
  const restored = (opened.store as NonNullable<typeof opened.store>).restore(now);
  const { floor, reads, maps } = loadFloor(sim);
  maps.count = 0;
  const got = floor.safeRestore(layout, now);
  const usable = restored.loaded !== null && restored.loaded.status === "ok" ? restored.loaded : null;
  if (usable === null) {
    expect(got).toBeNull();
  } else {
    expect(got).not.toBeNull();
    const g = got as Restored;
    same(g.world, usable.world as World);
    expect(g.savedAt).toEqual(usable.savedAt);
    expect(g.absenceMs).toBe(usable.absenceMs);
  }
  for (const n of reads) expect(n === 1 || n >= SAFE_READ_MIN, "a read of " + n + " bytes").toBe(true);
  // The quick path picks the sequence words and classifies one sector's marks natively (two maps,
  // which the full path never makes) and reads every header, those marks and one slot, nothing more.
  return { quick: maps.count === 2 && reads.length === layout.sectorCount + 2, found: got !== null };
}

describe("the floor's safe restore is the firmware's", () => {
  const seen = { quick: 0, full: 0, found: 0, none: 0 };
  const count = (r: { quick: boolean; found: boolean }): void => {
    if (r.quick) seen.quick++;
    else seen.full++;
    if (r.found) seen.found++;
    else seen.none++;
  };

  it("on random four-sector regions of small sectors, at any wall clock", () => {
    const region = { address: 0x1000, size: 2048, pageSize: 512 };
    fc.assert(
      fc.property(fc.array(sectorArb, { minLength: 4, maxLength: 4 }), fc.uint8Array({ minLength: 8, maxLength: 8 }), nowArb, (plans, rand, now) => count(agree(region, plans, rand, now))),
      { numRuns: 400 },
    );
  });

  it("on random sixteen-sector regions of the ESP32's 4 KiB sectors", () => {
    const region = { address: 0x310000, size: 65536, pageSize: 4096 };
    fc.assert(
      fc.property(fc.array(sectorArb, { minLength: 1, maxLength: 16 }), fc.uint8Array({ minLength: 8, maxLength: 8 }), nowArb, (plans, rand, now) => count(agree(region, plans, rand, now))),
      { numRuns: 60 },
    );
  });

  it("took its quick path and its full one, and found a save and none, many times each", () => {
    expect(seen.quick).toBeGreaterThan(60);
    expect(seen.full).toBeGreaterThan(60);
    expect(seen.found).toBeGreaterThan(60);
    expect(seen.none).toBeGreaterThan(30);
  });

  it("a region of more sectors than its quick path picks takes the full one, and agrees", () => {
    const region = { address: 0x4000, size: 24 * 512, pageSize: 512 };
    const plans: SectorPlan[] = Array.from({ length: 24 }, (_, i) => ({ header: { kind: "valid", seq: i }, marks: [0, 0, 0, 0xff, 0xff, 0xff], slots: ["good", "good", "good", "good", "good", "good"] }));
    expect(agree(region, plans, new Uint8Array(8), WALL)).toEqual({ quick: false, found: true });
  });
});

describe("the floor is text Espruino runs", () => {
  it("passes the bundle checks: ES5, no API Espruino lacks", () => {
    // (Not the bundle's declaration-order check, which expects hoisted code: the floor's load calls
    // only built-ins, and its functions are called after it has loaded.)
    const findings = checkBundle(FLOOR, { order: false });
    expect(findings.length === 0 ? "" : formatFindings(FLOOR, findings)).toBe("");
  });
});
