/**
 * What a region image holds, found with the storage layer's own code (SlotLog.load for the current
 * save, scanRegion for every slot) over an in-memory NorFlashSim, and told as `pet-save inspect`
 * tells it. Host-neutral: `pet-save` (src/host/node/cli) and the web page's file view both use it.
 *
 * Offset 0 of an image is the first byte of the board's pet region, whatever its flash address.
 */
import { isLoadablePayload, loadWorld } from "../save/codec";
import type { LoadStatus } from "../save/status";
import { payloadJson, type PayloadJson } from "../save/payloadJson";
import type { BoardProfile } from "../boards/boardProfile";
import { NorFlashSim } from "../storage/norFlashSim";
import { computeLayout, type RegionLayout } from "../storage/regionLayout";
import { scanRegion, type RegionScan, type ScannedSector, type ScannedSlot } from "../storage/regionScan";
import { createSlotLog, type LogResult } from "../storage/slotLog";

/** A board profile as loaded, with the file it came from (named in messages); the region's shape is its petRegion. */
export interface LoadedProfile {
  file: string;
  profile: BoardProfile;
}

/** A board profile whose region the slot log cannot use (a usage error in `pet-save`). */
export class ProfileRegionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProfileRegionError";
  }
}

export interface RegionContents {
  board: LoadedProfile;
  layout: RegionLayout;
  /** SlotLog.load over the image: the save the firmware would restore at boot. */
  current: LogResult;
  scan: RegionScan;
}


/** Reads the slot log in an image (exactly the board's region size) without changing it. */
export function readRegion(bytes: Uint8Array, board: LoadedProfile): RegionContents {
  const r = board.profile.petRegion;
  const params = { address: 0, size: r.size, sectorSize: r.pageSize };
  const computed = computeLayout(params, r.pageSize);
  if (computed.layout === null) throw new ProfileRegionError("board " + board.file + ": " + computed.message);
  const flash = new NorFlashSim({ size: r.size, pageSize: r.pageSize, initial: bytes });
  const created = createSlotLog({ ...params, flash, isValidPayload: isLoadablePayload });
  if (created.log === null) throw new ProfileRegionError("board " + board.file + ": " + created.message);
  const current = created.log.load();
  const scan = scanRegion(flash, computed.layout, isLoadablePayload);
  return { board, layout: computed.layout, current, scan };
}

export type SlotVerdict = "erased" | "valid" | "invalid" | "torn";

export interface SlotJson {
  index: number;
  verdict: SlotVerdict;
  /** loadWorld's status for the bytes (judged without a clock); absent for erased slots. */
  payloadStatus?: LoadStatus;
  name?: string;
  updateCount?: string;
  savedAtMs?: string;
}

export interface SectorJson {
  index: number;
  state: ScannedSector["state"];
  seq: number | null;
  /** 0 = newest log sector. */
  age: number | null;
  slots: SlotJson[];
}

export interface RegionJson {
  kind: "region";
  board: string;
  boardFile: string;
  size: number;
  sectorSize: number;
  sectorCount: number;
  slotsPerSector: number;
  current: { status: string; message: string; sector: number; slot: number; seq: number; payload: PayloadJson | null };
  sectors: SectorJson[];
}

/** A slot's row: committed and loadable = valid; committed but not = invalid; programmed without a mark = torn. */
export function slotJson(slot: ScannedSlot): SlotJson {
  if (slot.state === "erased") return { index: slot.index, verdict: "erased" };
  const loaded = loadWorld(slot.payload, 0);
  const verdict: SlotVerdict = slot.state === "torn" ? "torn" : loaded.status === "ok" ? "valid" : "invalid";
  const row: SlotJson = { index: slot.index, verdict, payloadStatus: loaded.status };
  if (loaded.world !== null) {
    const j = payloadJson(loaded.world, loaded.savedAt);
    row.name = j.name;
    row.updateCount = j.updateCount;
    row.savedAtMs = j.savedAtMs;
  }
  return row;
}

export function regionJson(c: RegionContents): RegionJson {
  const cur = c.current;
  let payload: PayloadJson | null = null;
  if (cur.payload !== null) {
    const loaded = loadWorld(cur.payload, 0);
    if (loaded.world !== null) payload = payloadJson(loaded.world, loaded.savedAt);
  }
  return {
    kind: "region",
    board: c.board.profile.name,
    boardFile: c.board.file,
    size: c.layout.size,
    sectorSize: c.layout.sectorSize,
    sectorCount: c.layout.sectorCount,
    slotsPerSector: c.layout.slotsPerSector,
    current: { status: cur.status, message: cur.message, sector: cur.sector, slot: cur.slot, seq: cur.seq, payload },
    sectors: c.scan.sectors.map((s) => ({
      index: s.index,
      state: s.state,
      seq: s.state === "log" ? s.seq : null,
      age: s.state === "log" ? s.age : null,
      slots: s.slots.map(slotJson),
    })),
  };
}

function when(savedAtMs: string | undefined): string {
  if (savedAtMs === undefined || savedAtMs === "0") return "";
  const d = new Date(Number(savedAtMs));
  return isNaN(d.getTime()) ? "" : ", saved " + d.toISOString();
}

function slotText(s: SlotJson): string {
  const who = s.name !== undefined ? JSON.stringify(s.name) + ", updates " + s.updateCount + when(s.savedAtMs) : "";
  if (s.verdict === "valid") return "valid     " + who;
  if (s.verdict === "torn") {
    return "torn      never committed (a save cut off)" + (s.payloadStatus === "ok" ? "; bytes complete: " + who : "; bytes: " + s.payloadStatus);
  }
  return "invalid   committed but rejected: " + s.payloadStatus;
}

const SECTOR_WORDS: { [state: string]: string } = {
  erased: "erased",
  dirty: "header erased but other bytes programmed (an erase or a new sector cut off)",
  foreign: "not a slot-log sector (foreign data, or its header write was cut off)",
};

/** `geometryOf` names the profile file whose geometry was used (a path relative to the user, say). */
export function regionText(j: RegionJson, path: string, all: boolean, geometryOf: string): string {
  // The geometry, not the board: a 64 KiB image fits the desktop and the ESP32 profile alike.
  let out =
    "region image " + path + ": " + j.sectorCount + " sectors of " + j.sectorSize + " bytes, " + j.slotsPerSector +
    " slots each (geometry of " + geometryOf + ")\n";
  const p = j.current.payload;
  if (j.current.status === "ok" && p !== null) {
    out += "current save: sector " + j.current.sector + " slot " + j.current.slot + " (sequence " + j.current.seq + "): " +
      JSON.stringify(p.name) + ", " + p.activityName + ", " + p.expressionName + ", updates " + p.updateCount + when(p.savedAtMs) + "\n";
  } else out += "current save: none (" + j.current.status + ": " + j.current.message + ")\n";
  for (let k = 0; k < j.sectors.length; k++) {
    const s = j.sectors[k] as SectorJson;
    const head = "sector " + String(s.index).padStart(2) + "  ";
    if (s.state === "erased" && !all) {
      let end = k;
      while (end + 1 < j.sectors.length && (j.sectors[end + 1] as SectorJson).state === "erased") end++;
      out += (end > k ? "sectors " + s.index + ".." + (j.sectors[end] as SectorJson).index + "  " : head) + "erased\n";
      k = end;
      continue;
    }
    if (s.state !== "log") {
      out += head + SECTOR_WORDS[s.state] + "\n";
      continue;
    }
    const count = (v: SlotVerdict): number => s.slots.filter((x) => x.verdict === v).length;
    out += head + "log, sequence " + s.seq + (s.age === 0 ? " (newest)" : " (" + s.age + " behind)") + ": " + count("valid") +
      " valid, " + count("torn") + " torn, " + count("invalid") + " invalid, " + count("erased") + " erased\n";
    for (let i = 0; i < s.slots.length; i++) {
      const slot = s.slots[i] as SlotJson;
      if (slot.verdict === "erased" && !all) {
        let end = i;
        while (end + 1 < s.slots.length && (s.slots[end + 1] as SlotJson).verdict === "erased") end++;
        out += "  slot" + (end > i ? "s " + i + ".." + end : " " + String(i).padStart(2)) + "  erased\n";
        i = end;
        continue;
      }
      const isCurrent = j.current.sector === s.index && j.current.slot === slot.index;
      out += "  slot " + String(slot.index).padStart(2) + "  " + (slot.verdict === "erased" ? "erased" : slotText(slot)) + (isCurrent ? "   <- current" : "") + "\n";
    }
  }
  return out;
}

