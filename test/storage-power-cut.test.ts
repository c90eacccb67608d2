/**
 * A power cut at any instant of any save restores the last completed save or the one in flight,
 * byte for byte, never nothing once something was saved and never a mixture; and the log keeps
 * working after the reboot, including when the first save after a cut is cut again.
 */
import { describe, expect, it } from "vitest";
import { ALL_TEARS, forkSweep, replaySweep } from "../src/storage/powerCut";
import { ESP32, SMALL, TINY, makePayload } from "./storage-fixtures";

/** Bound on validity checks per boot after any history of power cuts (docs/storage.md). */
const CUT_CHECK_BOUND = 1;

function payloads(from: number, count: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) out.push(makePayload(from + i));
  return out;
}

describe("SlotLog under power cuts", () => {
  it("every cut point on 4 x 512-byte sectors, three wraps, every tear mode, nested cuts", () => {
    // 4 sectors x 5 slots = 20 slots; 66 saves wrap the region three times.
    const report = replaySweep({
      geometry: SMALL,
      payloads: payloads(1000, 66),
      tears: ALL_TEARS,
      seeds: [1, 2],
      nested: true,
      continuation: payloads(5000, 6),
    });
    expect(report.problems.slice(0, 5)).toEqual([]);
    expect(report.reboots).toBeGreaterThan(1000);
    // Both outcomes must actually occur, or the sweep is not reaching the commit point.
    expect(report.restoredInFlight).toBeGreaterThan(0);
    expect(report.restoredInFlight).toBeLessThan(report.reboots);
    expect(report.worstChecks).toBeLessThanOrEqual(CUT_CHECK_BOUND);
  });

  it("every cut point on 4 x 512 with word-padded writes (Espruino's read-modify-write of partial words)", () => {
    // On the device a 1-byte mark write programs its whole 4-byte word, neighbouring marks
    // included (with their current values), and a cut tears that word.
    const report = replaySweep({
      geometry: SMALL,
      payloads: payloads(1500, 66),
      tears: ALL_TEARS,
      seeds: [5],
      nested: true,
      continuation: payloads(5500, 6),
      hooks: { wordPadded: true },
    });
    expect(report.problems.slice(0, 5)).toEqual([]);
    expect(report.reboots).toBeGreaterThan(1000);
    expect(report.restoredInFlight).toBeGreaterThan(0);
    expect(report.worstChecks).toBeLessThanOrEqual(CUT_CHECK_BOUND);
  });

  it("every cut point on 3 sectors, with sequence numbers wrapping past 2^32", () => {
    const report = replaySweep({
      geometry: TINY,
      payloads: payloads(2000, 50),
      tears: ALL_TEARS,
      seeds: [3],
      nested: true,
      continuation: payloads(6000, 6),
      initialSequence: 0xfffffffe,
    });
    expect(report.problems.slice(0, 5)).toEqual([]);
    expect(report.worstChecks).toBeLessThanOrEqual(CUT_CHECK_BOUND);
  });

  it("every mutation of every save on the ESP32 geometry (16 x 4096), three wraps", () => {
    // 16 x 48 = 768 slots; 2400 saves wrap three times. Every save is cut at every mutation with
    // one tear pair; a second pass uses all tear pairs on every 7th save.
    const history = payloads(10000, 2400);
    const report = forkSweep({ geometry: ESP32, payloads: history, tears: [{ write: "words", erase: "random" }], seed: 11, stride: 1 });
    forkSweep({ geometry: ESP32, payloads: history, tears: ALL_TEARS, seed: 12, stride: 7 }, report);
    expect(report.problems.slice(0, 5)).toEqual([]);
    expect(report.reboots).toBeGreaterThan(5000);
    expect(report.worstChecks).toBeLessThanOrEqual(CUT_CHECK_BOUND);
  });
});
