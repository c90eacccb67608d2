/**
 * Power-cut sweeps over SlotLog, shared by the power-cut tests and the storage bench.
 *
 * The invariant checked after every reboot: the boot returns exactly (byte for byte) the last save
 * that completed or the one that was being written when power died; once a save has completed it
 * never returns "no pet"; and saving goes on working afterwards. Every simulated flash is strict,
 * so a write over a byte that is not erased (which would mix two saves) fails the save and is
 * reported too. Problems are collected as text rather than thrown so one sweep reports all of them.
 */
import { StatusFlash } from "../flash";
import { NorFlashSim, EraseTear, WriteTear } from "../norFlashSim";
import { LogResult, SlotLog, createSlotLog } from "../slotLog";
import { Geometry, crcValid, sameBytes } from "./payloads";

export interface TearPair {
  write: WriteTear;
  erase: EraseTear;
}

/** Every write tear and every erase tear appears at least once. */
export const ALL_TEARS: TearPair[] = [
  { write: "none", erase: "none" },
  { write: "all", erase: "prefix" },
  { write: "prefix", erase: "words" },
  { write: "words", erase: "random" },
  { write: "bits", erase: "mixed" },
];

export interface SweepReport {
  /** Reboots after a cut that were checked. */
  reboots: number;
  /** Of those, how many restored the in-flight save rather than the previous one. */
  restoredInFlight: number;
  /** Most validity checks any boot needed. */
  worstChecks: number;
  /** Most flash bytes any boot read. */
  worstBootBytes: number;
  problems: string[];
}

export function emptyReport(): SweepReport {
  return { reboots: 0, restoredInFlight: 0, worstChecks: 0, worstBootBytes: 0, problems: [] };
}

/**
 * Deliberately broken set-ups for the sensitivity test: a flash wrapper (to reorder or drop
 * operations) and a replacement validity check. Set only for the duration of one sweep.
 */
export interface SweepHooks {
  wrapFlash?: (sim: NorFlashSim) => StatusFlash;
  isValidPayload?: (p: Uint8Array) => boolean;
  /** Strict simulated flash (default true). */
  strict?: boolean;
  /** Writes widened to whole words as Espruino's Flash.write does on the device (default false). */
  wordPadded?: boolean;
}

let hooks: SweepHooks = {};

/** Runs one sweep with its hooks in place, and none once it ends (or throws). */
function withHooks<T>(sweepHooks: SweepHooks | undefined, sweep: () => T): T {
  hooks = sweepHooks ?? {};
  try {
    return sweep();
  } finally {
    hooks = {};
  }
}

function logOver(sim: NorFlashSim, g: Geometry, initialSequence?: number): SlotLog {
  const flash = hooks.wrapFlash ? hooks.wrapFlash(sim) : sim;
  const isValidPayload = hooks.isValidPayload ?? crcValid;
  const r = createSlotLog({ flash, address: g.address, size: g.size, sectorSize: g.sectorSize, isValidPayload, initialSequence });
  if (r.log === null) throw new Error("sweep setup: " + r.message);
  return r.log;
}

/** A simulated flash with the hooks' options (strict unless turned off, word padding when asked). */
function simFor(g: Geometry, seed: number, initial?: Uint8Array): NorFlashSim {
  return new NorFlashSim({
    size: g.size,
    pageSize: g.sectorSize,
    baseAddress: g.address,
    initial,
    seed,
    strict: hooks.strict !== false,
    wordPadded: hooks.wordPadded === true,
  });
}

function cloneSim(sim: NorFlashSim, seed: number): NorFlashSim {
  return simFor({ size: sim.size, sectorSize: sim.pageSize, address: sim.baseAddress }, seed, sim.image());
}

/** Boots a fresh SlotLog and checks the result against the two acceptable payloads. */
function rebootAndCheck(
  sim: NorFlashSim,
  g: Geometry,
  previous: Uint8Array | null,
  inFlight: Uint8Array,
  where: string,
  report: SweepReport,
): LogResult | null {
  sim.powerOn();
  const readBefore = sim.stats.bytesRead;
  let boot: LogResult;
  try {
    boot = logOver(sim, g).load();
  } catch (e) {
    report.problems.push(where + ": load threw " + String(e));
    return null;
  }
  report.reboots++;
  report.worstChecks = Math.max(report.worstChecks, boot.checks);
  report.worstBootBytes = Math.max(report.worstBootBytes, sim.stats.bytesRead - readBefore);
  if (boot.status === "ok") {
    if (sameBytes(boot.payload, inFlight)) {
      report.restoredInFlight++;
      return boot;
    }
    if (previous !== null && sameBytes(boot.payload, previous)) return boot;
    report.problems.push(where + ": boot returned a payload that is neither the previous nor the in-flight save");
    return null;
  }
  if (previous !== null) report.problems.push(where + ": boot lost the pet (" + boot.status + ": " + boot.message + ")");
  else if (boot.status === "read-failed") report.problems.push(where + ": boot could not read after power came back");
  return boot;
}

/**
 * After a reboot: cut power at every mutation of the next save, reboot again, then save `after`
 * more payloads cleanly and check the last one comes back.
 */
function sweepNextSave(
  image: NorFlashSim,
  g: Geometry,
  restored: Uint8Array | null,
  next: Uint8Array,
  more: Uint8Array[],
  tears: TearPair,
  seed: number,
  where: string,
  report: SweepReport,
): void {
  for (let j = 0; j < 64; j++) {
    const sim = cloneSim(image, seed + j);
    const log = logOver(sim, g);
    log.load();
    sim.cutPowerAfter({ afterMutations: j, writeTear: tears.write, eraseTear: tears.erase });
    const r = log.save(next);
    if (!sim.poweredOff) {
      if (r.status !== "ok") report.problems.push(where + " then save: " + r.status + " " + r.message);
      return;
    }
    const w = where + " then cut " + j + " of the next save";
    const boot = rebootAndCheck(sim, g, restored, next, w, report);
    if (boot === null) continue;
    const log2 = logOver(sim, g);
    log2.load();
    for (const p of more) {
      const s = log2.save(p);
      if (s.status !== "ok") {
        report.problems.push(w + ": a later save failed: " + s.status + " " + s.message);
        return;
      }
    }
    const fin = logOver(sim, g).load();
    if (more.length > 0 && !sameBytes(fin.payload, more[more.length - 1] as Uint8Array)) {
      report.problems.push(w + ": after more saves the boot did not return the last one (" + fin.status + ")");
    }
  }
}

export interface ReplayOptions {
  geometry: Geometry;
  payloads: Uint8Array[];
  tears: TearPair[];
  seeds: number[];
  /** Also cut every mutation of the first save after each reboot (and keep saving afterwards). */
  nested: boolean;
  /** Extra payloads saved after the nested cut (cross a sector boundary to exercise the erase path). */
  continuation: Uint8Array[];
  initialSequence?: number;
  hooks?: SweepHooks;
}

/**
 * The exhaustive sweep: for every mutation index of the whole history and every tear pair and seed,
 * replay the saves on one continuously running SlotLog, tear that mutation, reboot and check.
 */
export function replaySweep(o: ReplayOptions, report: SweepReport = emptyReport()): SweepReport {
  return withHooks(o.hooks, () => replaySweepInner(o, report));
}

function replaySweepInner(o: ReplayOptions, report: SweepReport): SweepReport {
  const g = o.geometry;
  const probe = simFor(g, 1);
  const pl = logOver(probe, g, o.initialSequence);
  pl.load();
  for (const p of o.payloads) pl.save(p);
  const total = probe.stats.mutations;
  for (const tears of o.tears) {
    for (const seed of o.seeds) {
      for (let cut = 0; cut < total; cut++) {
        const sim = simFor(g, seed * 7919 + cut);
        const log = logOver(sim, g, o.initialSequence);
        log.load();
        sim.cutPowerAfter({ afterMutations: cut, writeTear: tears.write, eraseTear: tears.erase });
        let previous: Uint8Array | null = null;
        let k = 0;
        for (; k < o.payloads.length; k++) {
          const p = o.payloads[k] as Uint8Array;
          const r = log.save(p);
          if (sim.poweredOff) break;
          if (r.status !== "ok") report.problems.push("save " + k + " failed without a cut: " + r.status);
          else previous = p;
        }
        if (!sim.poweredOff) continue;
        const where = "cut " + cut + " (save " + k + ", tears " + tears.write + "/" + tears.erase + ", seed " + seed + ")";
        const inFlight = o.payloads[k] as Uint8Array;
        const boot = rebootAndCheck(sim, g, previous, inFlight, where, report);
        if (boot === null || !o.nested) continue;
        const next = o.payloads[(k + 1) % o.payloads.length] as Uint8Array;
        sweepNextSave(sim, g, boot.payload, next, o.continuation, tears, seed, where, report);
      }
    }
  }
  return report;
}

export interface ForkOptions {
  geometry: Geometry;
  payloads: Uint8Array[];
  tears: TearPair[];
  seed: number;
  /** Only every `stride`-th save is cut (1 = all of them). */
  stride: number;
  hooks?: SweepHooks;
}

/**
 * The sweep for big geometries: one clean run; before each (stride-th) save the image is cloned
 * and every mutation of that save is torn in the clone, which is then rebooted and checked.
 */
export function forkSweep(o: ForkOptions, report: SweepReport = emptyReport()): SweepReport {
  return withHooks(o.hooks, () => forkSweepInner(o, report));
}

function forkSweepInner(o: ForkOptions, report: SweepReport): SweepReport {
  const g = o.geometry;
  const main = simFor(g, 1);
  const log = logOver(main, g);
  log.load();
  let previous: Uint8Array | null = null;
  for (let k = 0; k < o.payloads.length; k++) {
    const p = o.payloads[k] as Uint8Array;
    if (k % o.stride === 0) {
      for (const tears of o.tears) {
        for (let j = 0; j < 64; j++) {
          const sim = cloneSim(main, o.seed + k * 131 + j);
          const l = logOver(sim, g);
          l.load();
          sim.cutPowerAfter({ afterMutations: j, writeTear: tears.write, eraseTear: tears.erase });
          l.save(p);
          if (!sim.poweredOff) break;
          const where = "save " + k + " cut " + j + " (tears " + tears.write + "/" + tears.erase + ")";
          const boot = rebootAndCheck(sim, g, previous, p, where, report);
          if (boot === null) continue;
          const after = logOver(sim, g);
          after.load();
          const probe = o.payloads[(k + 1) % o.payloads.length] as Uint8Array;
          const s = after.save(probe);
          const fin = logOver(sim, g).load();
          if (s.status !== "ok" || !sameBytes(fin.payload, probe)) {
            report.problems.push(where + ": the save after the reboot did not come back (" + s.status + "/" + fin.status + ")");
          }
        }
      }
    }
    const r = log.save(p);
    if (r.status !== "ok") report.problems.push("clean save " + k + " failed: " + r.status);
    else previous = p;
  }
  return report;
}
