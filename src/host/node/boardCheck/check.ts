/**
 * The board check, step by step, over an open console (src/host/node/serial/boardConsole.ts):
 *
 * 1. what the board is, against the profile (src/boards/boardFit.ts, as the upload asks it);
 * 2. the pet's region as `pet-save inspect` shows it: pulled as `pet-save pull` pulls it
 *    (src/inspect/regionPull.ts) and read with the region report (src/inspect/regionReport.ts);
 *    only when the board fits the profile (the fit rule first, as every command that talks to a
 *    board applies it; a read past a Linux build's flash would stop it);
 * 3. on-board timings by the board's own clock, beside the bench's floor typed at the console
 *    (onBoard.ts): pet.save(), a restore (pet.checkSave(): the newest save read back as a boot reads
 *    it), pet.status(), an idle tick (pet.tick()), and the floor's save, restore and encode;
 * 4. that the pet is as it was found: the newest save is still the running pet's, the same pet runs,
 *    and the bytes the floor wrote its all-ones into still read erased.
 *
 * Nothing is written outside the pet's region: no Storage file, no erase; the only writes are the
 * pet's own saves (pet.save()) and the floor's all-ones. Each step that cannot run says why in
 * `skipped` and the rest go on.
 */
import type { BoardConsole } from "../serial/boardConsole";
import { identifyBoard } from "../serial/identifyBoard";
import type { BoardFit, BoardReport } from "../../../boards/boardFit";
import type { DeviceBoardProfile } from "../../../boards/boardProfile";
import { pullOver, pullProgram } from "../../../inspect/regionPull";
import { readRegion, regionJson, type RegionJson, type RegionContents } from "../../../inspect/regionReport";
import { evaluate, removeFloor, timeOp, typeFloor, type OpTime } from "./onBoard";

/** Runs of each timed operation (odd, so the median is one of them). */
export const RUNS = 21;

export interface Timings {
  petSaveMs: number | null;
  floorSaveMs: number | null;
  restoreMs: number | null;
  floorRestoreMs: number | null;
  statusMs: number | null;
  floorEncodeMs: number | null;
  tickMs: number | null;
  runs: number;
  /** Each operation's median, fastest and slowest run, as the board timed them. */
  detail: Record<string, OpTime>;
}

export interface BoardCheck {
  port: string;
  profile: string;
  board: string;
  version: string;
  fits: boolean;
  problems: BoardFit["problems"];
  report: BoardReport;
  region: BoardFit["region"] & { contents: RegionJson | null };
  /** What pet.status() said before and after, and what pet.checkSave() said after; null without a pet. */
  pet: { before: PetSeen; after: PetSeen | null; checkSave: string | null } | null;
  timings: Timings;
  /** Each timing as a ratio to its floor (save, restore, status to the floor's encode), null where one is missing. */
  ratios: { save: number | null; restore: number | null; status: number | null };
  /** Where the floor wrote its all-ones and read its restore; and whether those bytes still read erased. */
  floor: { scratch: number; readAt: number | null; scratchStillErased: boolean | null } | null;
  /** Steps that could not run, and why. */
  skipped: string[];
  /** Everything found wrong (the board's misfit, a pet changed by the check, ...): board-check's status is 1 when not empty. */
  failures: string[];
}

interface PetSeen {
  name: string;
  nameHex: string;
  updateCount: string;
  storage: string;
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

function ratio(a: number | null, b: number | null): number | null {
  return a === null || b === null || b <= 0 ? null : Math.round((a / b) * 100) / 100;
}

/** 88 erased bytes (a payload and a mark) in the image, word-aligned, from the end; the region's last 88 bytes when there are none. */
function erasedSpot(image: Uint8Array): number {
  const need = 88;
  let run = 0;
  for (let i = image.length - 1; i >= 0; i--) {
    run = image[i] === 0xff ? run + 1 : 0;
    if (run >= need && i % 4 === 0) return i;
  }
  return image.length - need;
}

/** The address of the current save's slot, from the region report, or null without one. */
function currentSlotAddress(region: RegionContents, address: number): number | null {
  const c = region.current;
  if (c.status !== "ok" || c.sector < 0 || c.slot < 0) return null;
  const l = region.layout;
  return address + c.sector * l.sectorSize + l.slotsOffset + c.slot * l.payloadLength;
}

async function seePet(con: BoardConsole): Promise<PetSeen | null> {
  return evaluate<PetSeen | null>(
    con,
    "typeof pet=='object'&&pet&&typeof pet.status=='function'?(function(s){return s&&{name:s.name,nameHex:s.nameHex,updateCount:s.updateCount,storage:s.storage}})(pet.status()):null",
    "pet.status()",
  );
}

/** The check against `profile` (a device profile, named `file`) on the board at the end of `con`. */
export async function checkBoard(con: BoardConsole, profile: DeviceBoardProfile, file: string, runs = RUNS): Promise<BoardCheck> {
  const skipped: string[] = [];
  const failures: string[] = [];
  const { report, fit } = await identifyBoard(con, profile, file);
  for (const p of fit.problems) failures.push(p.message + ". " + p.todo.charAt(0).toUpperCase() + p.todo.slice(1) + ".");
  const r = profile.petRegion;
  const timings: Timings = { petSaveMs: null, floorSaveMs: null, restoreMs: null, floorRestoreMs: null, statusMs: null, floorEncodeMs: null, tickMs: null, runs: runs, detail: {} };
  const result: BoardCheck = {
    port: con.port,
    profile: file,
    board: report.board,
    version: report.version,
    fits: fit.fits,
    problems: fit.problems,
    report,
    region: { ...fit.region, contents: null },
    pet: null,
    timings,
    ratios: { save: null, restore: null, status: null },
    floor: null,
    skipped,
    failures,
  };

  // 2. The region, read only, on a board the profile fits.
  let contents: RegionContents | null = null;
  let image: Uint8Array | null = null;
  if (!fit.region.inChip) skipped.push("the region: this board's flash does not hold it, so it is not read");
  else if (!fit.fits) skipped.push("the region: the board does not fit the profile, so it is not read");
  else {
    image = await pullOver(con.exchange, pullProgram(r.address, r.size), r.size);
    contents = readRegion(image, { file, profile });
    result.region.contents = regionJson(contents);
  }

  // 3. Timings: only on a board the profile fits, with this firmware's pet running and saving.
  const before = await seePet(con);
  if (!fit.fits) skipped.push("the timings: the board does not fit the profile, so nothing is written");
  else if (before === null) skipped.push("the timings: no pet is running on the board (npm run upload puts it there)");
  else if ((await evaluate<string>(con, "typeof pet.checkSave+typeof pet.tick", "the pet's console")) !== "functionfunction") {
    skipped.push("the timings: the pet's firmware is older than board-check (no pet.checkSave or pet.tick): upload it again (npm run upload)");
  } else if (before.storage !== "ok") skipped.push("the timings: the pet is not saving (pet.status().storage is " + JSON.stringify(before.storage) + ")");
  else if (image !== null && contents !== null) {
    const scratch = r.address + erasedSpot(image);
    const readAt = currentSlotAddress(contents, r.address);
    const wasErased = image.subarray(scratch - r.address, scratch - r.address + 88).every((b) => b === 0xff);
    result.floor = { scratch, readAt, scratchStillErased: null };
    await typeFloor(con);
    try {
      await evaluate(con, "benchInit(" + JSON.stringify({ board: true, scratch, readAt: readAt ?? scratch }) + ")", "benchInit");
      const t = async (name: string): Promise<number> => {
        const m = await timeOp(con, name, runs);
        timings.detail[name] = { ms: round(m.ms), min: round(m.min), max: round(m.max) };
        return round(m.ms);
      };
      timings.floorEncodeMs = await t("floorEncode");
      timings.floorSaveMs = await t("floorSave");
      if (readAt !== null) timings.floorRestoreMs = await t("floorRestore");
      else skipped.push("the floor's restore: the region holds no current save to read");
      timings.petSaveMs = await t("petSaveAlone");
      timings.restoreMs = await t("petCheckSave");
      timings.statusMs = await t("petStatus");
      timings.tickMs = await t("petTick");
    } finally {
      await removeFloor(con);
    }
    if (wasErased) {
      const bytes = await evaluate<number>(con, "E.sum(require(\"Flash\").read(88," + scratch + "))", "the floor's bytes");
      result.floor.scratchStillErased = bytes === 88 * 255;
      if (!result.floor.scratchStillErased) failures.push("the 88 bytes at 0x" + scratch.toString(16) + " that the floor wrote all-ones into no longer read erased: this board's flash did not keep them (report it)");
    }
  }
  result.ratios = {
    save: ratio(timings.petSaveMs, timings.floorSaveMs),
    restore: ratio(timings.restoreMs, timings.floorRestoreMs),
    status: ratio(timings.statusMs, timings.floorEncodeMs),
  };

  // 4. The pet as it was found: the same pet runs, and its newest save is still its own.
  if (before !== null) {
    const after = await seePet(con);
    const checkSave = await evaluate<string | null>(con, "typeof pet.checkSave=='function'?pet.checkSave():null", "pet.checkSave()");
    result.pet = { before, after, checkSave };
    if (after === null || after.nameHex !== before.nameHex) failures.push("the running pet changed during the check (" + before.name + " before, " + (after ? after.name : "none") + " after)");
    else if (BigInt(after.updateCount) < BigInt(before.updateCount)) failures.push("the pet's update count went back during the check");
    if (checkSave !== null && checkSave !== "ok" && before.storage === "ok") failures.push("after the check the newest save is not the running pet's (pet.checkSave() answers " + checkSave + ")");
  }
  return result;
}
