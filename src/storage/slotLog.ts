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
 * This file is the public face; the work is split by concern:
 *   logLoad.ts       boot: the newest valid save within the check bound, and the writer's position
 *   logScan.ts       sector headers in boot order, commit marks (read-only helpers)
 *   sectorOpen.ts    choosing, clearing, erasing and heading the next sector
 *   slotWrite.ts     one save: slot, read-back, commit mark, lazy strengthening
 *   slotLogState.ts  the state those share (writer position, counters)
 *   slotLogTypes.ts  configuration and result types (re-exported here)
 *
 * Every method returns a status; nothing throws, including when the flash adapter throws.
 * Runs on Espruino: no classes with `extends`, no Map/Set, functions defined before use.
 */
import { RegionLayout, computeLayout } from "./regionLayout";
import { loadNewestSave } from "./logLoad";
import { writeSave } from "./slotWrite";
import { LoadResult, SaveResult, SlotLogConfig, SlotLogStats } from "./slotLogTypes";
import { SlotLogContext, unknownPosition } from "./slotLogState";

export type { LoadResult, LoadStatus, SaveResult, SaveStatus, SlotLogConfig, SlotLogStats } from "./slotLogTypes";

export interface CreateResult {
  status: "ok" | "bad-config";
  log: SlotLog | null;
  message: string;
}

const DEFAULT_MAX_BOOT_CHECKS = 4;

export class SlotLog {
  readonly layout: RegionLayout;
  private readonly ctx: SlotLogContext;

  constructor(layout: RegionLayout, config: SlotLogConfig) {
    this.layout = layout;
    this.ctx = {
      flash: config.flash,
      layout: layout,
      pageSize: config.flash.sectorSize,
      isValidPayload: config.isValidPayload,
      maxBootChecks: config.maxBootChecks === undefined ? DEFAULT_MAX_BOOT_CHECKS : config.maxBootChecks,
      initialSequence: config.initialSequence === undefined ? 1 : config.initialSequence >>> 0,
      counts: { validityChecks: 0, saves: 0, sectorErases: 0 },
      position: unknownPosition(),
    };
  }

  stats(): SlotLogStats {
    const c = this.ctx.counts;
    return { validityChecks: c.validityChecks, saves: c.saves, sectorErases: c.sectorErases };
  }

  /**
   * Finds the newest payload that passes the validity check. Reads only: a load never writes or
   * erases, so rebooting any number of times leaves the region unchanged.
   */
  load(): LoadResult {
    return loadNewestSave(this.ctx);
  }

  /**
   * Stores `payload` as the newest save: payload into the next blank slot, read back, then its
   * one-byte commit mark. On any failure but "commit-unknown" the previous save stays the newest
   * readable one; after "commit-unknown" the next boot returns that one or this one.
   */
  save(payload: Uint8Array): SaveResult {
    return writeSave(this.ctx, payload);
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
