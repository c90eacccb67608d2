/**
 * Bits a power cut may have programmed only weakly are made solid by the first save after a boot,
 * never by the boot itself: a commit mark found set but not 0x00 is programmed to 0x00, and a newest
 * sector with no committed slot gets its header programmed again (same bytes) before the save
 * writes into it; and the newest set mark the boot relied on is programmed to 0x00 again whatever it
 * reads (a weak cell can read 0x00 and decay: test/storage-weak-mark-reads-zero.test.ts). After a
 * clean history the first save writes only that one mark, its payload and its own mark.
 */
import { describe, expect, it } from "vitest";
import { StatusFlash } from "../src/storage/flash";
import { computeLayout, encodeHeader, markAddress, sectorAddress, slotAddress } from "../src/storage/regionLayout";
import { createSlotLog } from "../src/storage/slotLog";
import { NorFlashSim, TraceEntry } from "../src/storage/norFlashSim";
import { SMALL, crcValid, makePayload, newSim, openLog, sameBytes } from "./storage-fixtures";

const l = computeLayout(SMALL).layout!;

function writes(sim: NorFlashSim): TraceEntry[] {
  return sim.trace.filter((t) => t.op === "write");
}

/** Boots, reboots twice more (must write nothing), then saves once and returns that save's writes. */
function firstSaveWrites(sim: NorFlashSim, payload: Uint8Array): TraceEntry[] {
  for (let i = 0; i < 3; i++) openLog(sim, SMALL).load();
  expect(writes(sim)).toEqual([]);
  const log = openLog(sim, SMALL);
  log.load();
  sim.resetStats();
  expect(log.save(payload).status).toBe("ok");
  return writes(sim);
}

describe("strengthening on the first save after a boot", () => {
  it("after a clean history the first save programs the newest mark again (once per boot), its payload and its mark, nothing else", () => {
    const sim = newSim(SMALL, { strict: true, trace: true });
    const log = openLog(sim, SMALL);
    for (let i = 0; i < 7; i++) log.save(makePayload(i));
    sim.resetStats();
    const w = firstSaveWrites(sim, makePayload(99));
    // 7 saves: sector 0 full (5 slots), the newest in sector 1 slot 1
    expect(w[0]).toMatchObject({ address: markAddress(l, 1, 1), length: 1, status: "ok" });
    expect(w.map((t) => t.length)).toEqual([1, l.payloadLength, 1]);
  });

  it("a mark set but not 0x00 (a cut mark write) is programmed to 0x00 by the next save, not by the boot", () => {
    const sim = newSim(SMALL, { strict: true, trace: true });
    const log = openLog(sim, SMALL);
    for (let i = 0; i < 3; i++) log.save(makePayload(i));
    const at = markAddress(l, 0, 2);
    sim.poke(at, new Uint8Array([0x7e])); // only some bits of the newest mark landed
    const boot = openLog(sim, SMALL).load();
    expect(sameBytes(boot.payload, makePayload(2))).toBe(true);
    sim.resetStats();
    const w = firstSaveWrites(sim, makePayload(3));
    expect(w[0]).toMatchObject({ address: at, length: 1, status: "ok" });
    expect(w.slice(1).map((t) => t.length)).toEqual([l.payloadLength, 1]);
    expect(sim.read(1, at).bytes![0]).toBe(0);
    // the next boot's first save has only the newest mark (save 3's, slot 3) to program again
    const again = openLog(sim, SMALL);
    again.load();
    sim.resetStats();
    again.save(makePayload(4));
    expect(writes(sim)[0]).toMatchObject({ address: markAddress(l, 0, 3), length: 1 });
    expect(writes(sim).map((t) => t.length)).toEqual([1, l.payloadLength, 1]);
    // and a second save after the same boot programs no old mark: it opens sector 1 (header), then
    // writes its payload and its own mark
    sim.resetStats();
    again.save(makePayload(5));
    expect(writes(sim).map((t) => t.length)).toEqual([12, l.payloadLength, 1]);
  });

  it("the sector of the save the boot returned is strengthened too when it is not the newest", () => {
    const sim = newSim(SMALL, { strict: true, trace: true });
    const log = openLog(sim, SMALL);
    for (let i = 0; i < 5; i++) log.save(makePayload(i)); // sector 0 full
    sim.poke(markAddress(l, 0, 4), new Uint8Array([0xef]));
    sim.poke(sectorAddress(l, 1), encodeHeader(l, 2)); // a newest sector with nothing committed (a cut open)
    sim.resetStats();
    const w = firstSaveWrites(sim, makePayload(5));
    expect(w[0]).toMatchObject({ address: markAddress(l, 0, 4), length: 1 });
    expect(w[1]).toMatchObject({ address: sectorAddress(l, 1), length: 12 });
    expect(w.slice(2).map((t) => t.length)).toEqual([l.payloadLength, 1]);
    expect(sameBytes(sim.read(12, sectorAddress(l, 1)).bytes, encodeHeader(l, 2))).toBe(true);
  });

  it("a newest sector left without a committed slot by a cut gets its header programmed again, once", () => {
    const sim = newSim(SMALL, { strict: true, trace: true });
    const log = openLog(sim, SMALL);
    for (let i = 0; i < 5; i++) log.save(makePayload(i));
    // the 6th save opens sector 1; cut it at its payload write (after the header landed)
    sim.cutPowerAfter({ afterMutations: 2, writeTear: "none" });
    log.save(makePayload(5));
    expect(sim.poweredOff).toBe(true);
    sim.powerOn();
    const boot = openLog(sim, SMALL).load();
    expect(sameBytes(boot.payload, makePayload(4))).toBe(true);
    sim.resetStats();
    const w = firstSaveWrites(sim, makePayload(6));
    // the mark of the save the boot returned (sector 0 slot 4) first, then the header
    expect(w[0]).toMatchObject({ address: markAddress(l, 0, 4), length: 1 });
    expect(w[1]).toMatchObject({ address: sectorAddress(l, 1), length: 12 });
    expect(w.slice(2).map((t) => t.length)).toEqual([l.payloadLength, 1]);
    const after = openLog(sim, SMALL).load();
    expect(after.sector).toBe(1);
    expect(sameBytes(after.payload, makePayload(6))).toBe(true);
  });

  it("a header that does not read back after programming it again: the save moves on to a new sector", () => {
    const sim = newSim(SMALL, { trace: true });
    const log = openLog(sim, SMALL);
    for (let i = 0; i < 5; i++) log.save(makePayload(i));
    sim.poke(sectorAddress(l, 1), encodeHeader(l, 2));
    // a flash on which that header write leaves a bit reading differently (a weak cell)
    const weakHeader: StatusFlash = {
      pageSize: sim.pageSize,
      read: (n, a) => sim.read(n, a),
      erasePage: (a) => sim.erasePage(a),
      write: (d, a) => {
        const s = sim.write(d, a);
        if (a === sectorAddress(l, 1) && d.length === 12) sim.poke(a + 4, new Uint8Array([0x00]));
        return s;
      },
    };
    const w = createSlotLog({ ...SMALL, flash: weakHeader, isValidPayload: crcValid }).log!;
    w.load();
    const r = w.save(makePayload(5));
    expect(r.status).toBe("ok");
    expect(r.sector).toBe(2);
    expect(sameBytes(openLog(sim, SMALL).load().payload, makePayload(5))).toBe(true);
  });

  it("a payload slot is never programmed twice: strengthening touches marks and headers only", () => {
    const sim = newSim(SMALL, { strict: true, trace: true });
    const log = openLog(sim, SMALL);
    for (let i = 0; i < 3; i++) log.save(makePayload(i));
    sim.poke(markAddress(l, 0, 1), new Uint8Array([0x80]));
    sim.poke(markAddress(l, 0, 2), new Uint8Array([0x01]));
    sim.resetStats();
    const w = firstSaveWrites(sim, makePayload(3));
    const slotsStart = slotAddress(l, 0, 0);
    const strengthening = w.slice(0, w.length - 2);
    expect(strengthening.length).toBe(2);
    for (const t of strengthening) expect(t.address < slotsStart && t.length === 1).toBe(true);
  });
});
