/**
 * Cut storms: save after save is cut by a power failure, with a reboot after each, for longer than
 * the region has slots (a battery browning out, a board in a reset loop). Shared by the
 * consecutive-cuts tests and the storage bench.
 *
 * Each storm save is first run on a copy of the flash with tracing on to find its mutations (which
 * write is the payload, which the mark, which the erase...), then run for real with power cut at
 * the chosen one. The check after every reboot: the boot returns exactly the last save that
 * committed (the one before the storm, or a storm save whose mark landed before the cut), and
 * the flash is strict, so no write ever mixes two saves. Problems are collected as text.
 */
import { EraseTear, NorFlashSim, TraceEntry, WriteTear } from "../norFlashSim";
import { computeLayout } from "../regionLayout";
import { Geometry, makePayload, openLog, sameBytes } from "./payloads";

/**
 * Where each storm save is cut:
 * - payload: while its payload is written;
 * - mark: while its commit mark is written;
 * - open: while the sector it opens is cleared, erased or given its header (rotating), or while
 *   its payload is written when it opens none;
 * - erase: while the sector it opens is erased, unless the save before was cut there too (then
 *   the open completes and the payload write is cut, so the storm moves on round the region);
 * - rotate: at mutation i mod (its mutation count) of storm save i: every step, marks included.
 */
export type StormCut = "payload" | "mark" | "open" | "erase" | "rotate";

export interface StormOptions {
  geometry: Geometry;
  cut: StormCut;
  /** Saves made (and completed) before the storm; the last one is what must survive. */
  cleanSaves: number;
  /** Storm saves, every one of them cut. */
  stormSaves: number;
  writeTears: WriteTear[];
  eraseTears: EraseTear[];
  seed: number;
  /** Simulate Espruino's word-padded writes (NorFlashSim option). */
  wordPadded?: boolean;
  /** Payload ids start here. */
  firstId?: number;
}

export interface StormReport {
  reboots: number;
  /** Storm saves whose commit mark landed (the boot returned them). */
  committed: number;
  /** Longest run of consecutive storm saves that did not commit. */
  longestUncommittedRun: number;
  /** Sector erases attempted during the storm (torn ones included). */
  erases: number;
  worstChecks: number;
  worstBootBytes: number;
  problems: string[];
}

function isMutation(t: TraceEntry): boolean {
  return t.op === "write" || t.op === "erase";
}

/** Index among the save's mutations to cut at, or -1 when the save has no such step. */
function chooseCut(cut: StormCut, muts: TraceEntry[], g: Geometry, payloadLength: number, i: number, afterErase: boolean): number {
  let payloadAt = -1;
  for (let k = 0; k < muts.length; k++) if (muts[k]!.op === "write" && muts[k]!.length === payloadLength) payloadAt = k;
  if (cut === "payload") return payloadAt;
  if (cut === "mark") return payloadAt >= 0 && payloadAt + 1 < muts.length ? payloadAt + 1 : -1;
  if (cut === "rotate") return i % muts.length;
  // open: the writes and erases before the first payload write that belong to opening a sector
  let firstErase = -1;
  for (let k = 0; k < muts.length; k++) if (muts[k]!.op === "erase") { firstErase = k; break; }
  if (firstErase < 0 || (cut === "erase" && afterErase)) return payloadAt;
  if (cut === "erase") return firstErase;
  const steps: number[] = [];
  const before = firstErase > 0 ? muts[firstErase - 1]! : null;
  if (before !== null && before.op === "write" && (before.address - g.address) % g.sectorSize === 0) steps.push(firstErase - 1); // magic cleared
  steps.push(firstErase);
  for (let k = firstErase + 1; k < muts.length; k++) if (muts[k]!.op === "write") { steps.push(k); break; } // new header
  return steps[i % steps.length]!;
}

export function cutStorm(o: StormOptions): StormReport {
  const g = o.geometry;
  const l = computeLayout(g).layout!;
  const report: StormReport = { reboots: 0, committed: 0, longestUncommittedRun: 0, erases: 0, worstChecks: 0, worstBootBytes: 0, problems: [] };
  const simOf = (initial: Uint8Array | undefined, seed: number, trace: boolean) =>
    new NorFlashSim({ size: g.size, pageSize: g.sectorSize, baseAddress: g.address, strict: true, wordPadded: o.wordPadded === true, initial, seed, trace });
  const sim = simOf(undefined, o.seed, false);
  const first = o.firstId ?? 500000;
  let last: Uint8Array | null = null;
  const writer = openLog(sim, g);
  for (let k = 0; k < o.cleanSaves; k++) {
    const p = makePayload(first + k);
    const s = writer.save(p);
    if (s.status !== "ok") report.problems.push("clean save " + k + ": " + s.status + " " + s.message);
    else last = p;
  }
  let run = 0;
  let afterErase = false;
  for (let i = 0; i < o.stormSaves; i++) {
    const next = makePayload(first + o.cleanSaves + i);
    // Dry run on a copy to learn this save's mutations.
    const probe = simOf(sim.image(), 1, true);
    const pl = openLog(probe, g);
    pl.load();
    probe.resetStats();
    pl.save(next);
    const muts = probe.trace.filter(isMutation);
    const at = chooseCut(o.cut, muts, g, l.payloadLength, i, afterErase);
    if (at < 0) {
      report.problems.push("storm save " + i + ": no step to cut for '" + o.cut + "'");
      return report;
    }
    for (let k = 0; k <= at; k++) if (muts[k]!.op === "erase") report.erases++;
    afterErase = muts[at]!.op === "erase";
    const log = openLog(sim, g);
    log.load();
    sim.cutPowerAfter({
      afterMutations: at,
      writeTear: o.writeTears[i % o.writeTears.length]!,
      eraseTear: o.eraseTears[i % o.eraseTears.length]!,
    });
    log.save(next);
    const where = "storm save " + i + " (" + o.cut + ", mutation " + at + ")";
    if (!sim.poweredOff) {
      report.problems.push(where + ": the save was not cut");
      return report;
    }
    sim.powerOn();
    const readBefore = sim.stats.bytesRead;
    const boot = openLog(sim, g).load();
    report.reboots++;
    report.worstChecks = Math.max(report.worstChecks, boot.checks);
    report.worstBootBytes = Math.max(report.worstBootBytes, sim.stats.bytesRead - readBefore);
    if (boot.status === "ok" && sameBytes(boot.payload, next)) {
      report.committed++;
      run = 0;
      last = next;
    } else if (boot.status === "ok" && last !== null && sameBytes(boot.payload, last)) {
      run++;
      report.longestUncommittedRun = Math.max(report.longestUncommittedRun, run);
    } else {
      report.problems.push(where + ": boot " + report.reboots + " returned " + boot.status + " (" + boot.message + "), not the last committed save");
      return report;
    }
  }
  // After the storm the log still works.
  const after = openLog(sim, g);
  after.load();
  const fin = makePayload(first + o.cleanSaves + o.stormSaves);
  const s = after.save(fin);
  const boot = openLog(sim, g).load();
  if (s.status !== "ok" || !sameBytes(boot.payload, fin)) report.problems.push("after the storm a clean save did not come back (" + s.status + "/" + boot.status + ")");
  return report;
}
