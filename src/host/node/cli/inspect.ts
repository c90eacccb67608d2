/**
 * `pet-save inspect FILE [--json] [--all] [--board FILE]`: what a file holds.
 *
 * An 84-byte file, or a hex text file, is a payload and is shown exactly as `decode` shows it. Anything else is taken as
 * a region image (offset 0 = the first byte of a board's pet region; the board is --board or the
 * profile in boards/ whose region has the file's size): the save the firmware would restore, and
 * every sector and slot with its state. Runs of erased slots and sectors are folded into one row
 * unless --all.
 * Exit status 1 when the region holds data but no readable save (damaged or foreign).
 */
import { relative } from "node:path";
import { loadWorld } from "../../../save/codec";
import { PAYLOAD_LENGTH } from "../../../save/layout";
import type { LoadStatus } from "../../../save/status";
import type { ScannedSector, ScannedSlot } from "../../../storage/regionScan";
import { parseCommandArgs } from "./args";
import type { Command } from "./command";
import { showPayload } from "./decode";
import { U64_ZERO } from "../../../core/u64";
import { CliError, EXIT_OK, EXIT_REJECTED, INPUT_LIMITS, readPayloadInput } from "./io";
import { boardForImage, readRegion, type RegionContents } from "./regionFile";
import { payloadJson, type PayloadJson } from "../../../save/payloadJson";

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

export function regionText(j: RegionJson, path: string, all: boolean): string {
  // The geometry, not the board: a 64 KiB image fits the desktop and the ESP32 profile alike.
  let out =
    "region image " + path + ": " + j.sectorCount + " sectors of " + j.sectorSize + " bytes, " + j.slotsPerSector +
    " slots each (geometry of " + relative(process.cwd(), j.boardFile) + ")\n";
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

export const inspectCommand: Command = {
  name: "inspect",
  summary: "show a payload, or every sector and slot of a region image and which save is current",
  usage: "inspect IMAGE|PAYLOAD [--json] [--all] [--board FILE]",
  async run(args, io) {
    const parsed = parseCommandArgs(args, { json: { type: "boolean" }, all: { type: "boolean" }, board: { type: "string" } }, 1);
    const path = parsed.positionals[0] as string;
    const { bytes, fromHex } = await readPayloadInput(path, io, INPUT_LIMITS.region);
    // Hex text is always a payload (regions are handed around as binary images only).
    if (bytes.length === PAYLOAD_LENGTH || fromHex) return showPayload(bytes, U64_ZERO, parsed.values.json === true, io);
    const board = boardForImage(bytes.length, parsed.values.board as string | undefined, path);
    const contents = readRegion(bytes, board);
    if (contents.scan.status !== "ok") throw new CliError(EXIT_REJECTED, path + ": could not read the image (" + contents.scan.status + ")");
    const j = regionJson(contents);
    io.writeStdout(parsed.values.json ? JSON.stringify(j) + "\n" : regionText(j, path, parsed.values.all === true));
    // An erased region is simply unused; one with no readable save is damaged or foreign: exit 1.
    if (j.current.status === "ok" || j.current.status === "empty") return EXIT_OK;
    io.writeStderr(path + ": no readable save in this region (" + j.current.status + ")\n");
    return EXIT_REJECTED;
  },
};
