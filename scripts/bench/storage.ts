/**
 * Storage bench: wear and boot cost of SlotLog on the ESP32 region geometry (16 x 4096 bytes),
 * and the worst boot seen in a power-cut sweep. All figures are counts from NorFlashSim and from
 * SlotLog's own validity-check counter, so they are exact and repeatable (no timings).
 */
import { NorFlashSim } from "../../src/storage/norFlashSim";
import { computeLayout } from "../../src/storage/regionLayout";
import { createSlotLog, SlotLog } from "../../src/storage/slotLog";
import { ALL_TEARS, crcValid, cutStorm, emptyReport, forkSweep, makePayload, PAYLOAD, replaySweep } from "../../src/storage/powerCut";

const REGION = { address: 0x310000, size: 65536, sectorSize: 4096 };
const SMALL = { address: 0x1000, size: 2048, sectorSize: 512 };

function newLog(sim: NorFlashSim): SlotLog {
  return createSlotLog({ ...REGION, flash: sim, isValidPayload: crcValid }).log!;
}

function bootFigures(saves: number): { bytesRead: number; checks: number; reads: number } {
  const sim = new NorFlashSim({ size: REGION.size, pageSize: REGION.sectorSize, baseAddress: REGION.address });
  const log = newLog(sim);
  for (let i = 0; i < saves; i++) log.save(makePayload(i));
  sim.resetStats();
  const boot = newLog(sim).load();
  return { bytesRead: sim.stats.bytesRead, checks: boot.checks, reads: sim.stats.reads };
}

export async function run(): Promise<Record<string, unknown>> {
  const layout = computeLayout(REGION).layout!;
  const perRegion = layout.slotsPerSector * layout.sectorCount;

  // Wear: a long run of clean saves.
  const saves = 50 * perRegion;
  const sim = new NorFlashSim({ size: REGION.size, pageSize: REGION.sectorSize, baseAddress: REGION.address, strict: true });
  const log = newLog(sim);
  for (let i = 0; i < saves; i++) log.save(makePayload(i));
  const counts = sim.eraseCounts();
  const erases = counts.reduce((a, b) => a + b, 0);

  // The same run with writes widened to whole words as Espruino's Flash.write does on the device.
  const padded = new NorFlashSim({ size: REGION.size, pageSize: REGION.sectorSize, baseAddress: REGION.address, strict: true, wordPadded: true });
  const paddedLog = newLog(padded);
  for (let i = 0; i < saves; i++) paddedLog.save(makePayload(i));

  const empty = bootFigures(0);
  const half = bootFigures(perRegion / 2);
  const wrapped = bootFigures(9 * perRegion + 17);

  // Power cuts: every mutation of every 5th save over three wraps of the real geometry (one tear
  // pair), all tear pairs on every 23rd, plus the exhaustive nested sweep on a small region.
  const history: Uint8Array[] = [];
  for (let i = 0; i < 3 * perRegion + 10; i++) history.push(makePayload(100000 + i));
  const report = forkSweep({ geometry: REGION, payloads: history, tears: [{ write: "bits", erase: "random" }], seed: 3, stride: 5 }, emptyReport());
  forkSweep({ geometry: REGION, payloads: history, tears: ALL_TEARS, seed: 4, stride: 23 }, report);
  const small: Uint8Array[] = [];
  for (let i = 0; i < 66; i++) small.push(makePayload(200000 + i));
  const cont: Uint8Array[] = [];
  for (let i = 0; i < 6; i++) cont.push(makePayload(300000 + i));
  replaySweep({ geometry: SMALL, payloads: small, tears: ALL_TEARS, seeds: [1], nested: true, continuation: cont }, report);

  // Cut storms on the real geometry: twice as many saves in a row as the region has slots, every
  // one cut (at its payload write; at its open or payload write), each followed by a reboot.
  const wt = ["none", "all", "prefix", "words", "bits"] as const;
  const et = ["none", "prefix", "words", "random", "mixed"] as const;
  const stormPayload = cutStorm({ geometry: REGION, cut: "payload", cleanSaves: 30, stormSaves: 2 * perRegion, writeTears: [...wt], eraseTears: [...et], seed: 5 });
  const stormOpen = cutStorm({ geometry: REGION, cut: "open", cleanSaves: 30, stormSaves: 2 * perRegion, writeTears: [...wt], eraseTears: [...et], seed: 6 });

  return {
    geometry: "16 x 4096 at 0x310000",
    slotsPerSector: layout.slotsPerSector,
    saves,
    erasesPer1000Saves: Math.round((erases * 1000 * 100) / saves) / 100,
    erasesPer1000SavesFloor: Math.round((1000 * PAYLOAD * 100) / REGION.sectorSize) / 100,
    eraseCountMin: Math.min(...counts),
    eraseCountMax: Math.max(...counts),
    bytesProgrammedPerSave: Math.round((sim.stats.bytesWritten / saves) * 100) / 100,
    bytesProgrammedPerSaveWordPadded: Math.round((padded.stats.bytesWritten / saves) * 100) / 100,
    bytesReadPerSave: Math.round((sim.stats.bytesRead / saves) * 100) / 100,
    bootEmptyBytesRead: empty.bytesRead,
    bootEmptyChecks: empty.checks,
    bootHalfFullBytesRead: half.bytesRead,
    bootHalfFullChecks: half.checks,
    bootHalfFullReads: half.reads,
    bootWrappedBytesRead: wrapped.bytesRead,
    bootWrappedChecks: wrapped.checks,
    powerCutReboots: report.reboots,
    powerCutRestoredInFlight: report.restoredInFlight,
    powerCutWorstChecks: report.worstChecks,
    powerCutWorstBootBytesRead: report.worstBootBytes,
    powerCutProblems: report.problems.length,
    stormSaves: stormPayload.reboots + stormOpen.reboots,
    stormLongestUncommittedRun: Math.max(stormPayload.longestUncommittedRun, stormOpen.longestUncommittedRun),
    stormWorstChecks: Math.max(stormPayload.worstChecks, stormOpen.worstChecks),
    stormWorstBootBytesRead: Math.max(stormPayload.worstBootBytes, stormOpen.worstBootBytes),
    stormProblems: stormPayload.problems.length + stormOpen.problems.length,
  };
}
