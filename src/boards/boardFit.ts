/**
 * Does this board take this profile? The ONE rule, asked of a board running Espruino before anything
 * of the pet is sent to it or written on it: by `npm run upload` (scripts/upload.js), by
 * `npm run board-check`, by the web page's Device tab (consoleProtocol.ts), and, in the fast
 * form of regionFit.ts beside this file (held equal to regionVerdict below by
 * test/boards-region-fit-fast-agrees.test.ts), by the firmware at every boot before it touches the
 * pet's region.
 *
 * What the board is asked (reportExpression: one line of JavaScript typed at its console, answered on
 * a line of its own behind REPORT_TAG): process.env.BOARD, VERSION, FLASH and STORAGE,
 * require("Flash").getFree(), and require("Flash").getPage() of the region's last byte.
 *
 * The profile fits when, in this order:
 *   1. BOARD is the profile's espruino.board, and VERSION is at least espruino.minVersion;
 *   2. the region lies inside one area that getFree() lists (the flash the build leaves free);
 *   3. the region lies inside the chip: getPage() of its last byte answers a page of the profile's
 *      pageSize that ends where the region ends;
 *   4. the region lies outside Storage: STORAGE is one of the Storage sizes the profile knows
 *      (espruino.storageSizes, else storageArea.size: Storage laid out as the profile describes),
 *      and the region does not overlap storageArea.
 *
 * Why these and not others (facts of Espruino 2v29; docs/firmware.md, "Does the profile fit this
 * board?"):
 * - getFree() alone proves little on the ESP32: the port answers a hard-coded list,
 *   [0xE000+8 KiB, 0x310000+64 KiB, 0x360000+640 KiB], whose third area lies inside Storage since 2v26.
 *   It does prove that a build whose list differs (another partition table, another port) did not
 *   leave the region free, and on the Linux builds it is the whole flash file.
 * - The chip's size is not reported on the ESP32 (process.env.FLASH is 0 there; 4194304 on the kit's
 *   Linux build, but as a size without the address it counts from). getPage() answers for exactly the
 *   flash the port's driver addresses: up to a hard-coded 4 MiB on the ESP32, the flash file on Linux,
 *   where a Flash.read outside it would stop the interpreter. It also gives the erase unit, so a
 *   profile with the wrong pageSize is caught before an erase wipes more, or less, than a log sector.
 *   Only the last byte's page is asked: the region starts inside free flash (step 2), its address is
 *   a multiple of pageSize (checkBoardProfile), and the firmware's check has 0.5 M instructions of
 *   the boot to spend, of which a second getPage would take a tenth; a flash whose pages differ in size
 *   from one end of the region to the other (none on an ESP32) would pass. It cannot see a 2 MiB chip
 *   behind the ESP32 port's 4 MiB either (nothing the board reports can).
 * - Storage's address is not reported either (process.memory().flash_code_start exists only on ARM
 *   ports). So "outside Storage" is the profile's storageArea, trusted only on a board that reports
 *   one of the Storage sizes the profile was written for: on the ESP32, 256 KiB (the js_code
 *   partition of the builds up to 2v25, 2v06 among them) or 896 KiB (2v26 on), both starting at
 *   0x320000, just above the pet region. A build reporting any other size lays Storage out in a way
 *   the profile does not know and is refused. A build that kept a known size but moved Storage would
 *   pass; none of Espruino's ESP32 releases did.
 *
 * Host-neutral: no Node, no DOM. Not bundled into the firmware (it carries regionFit.ts instead).
 */
import { expectedStorageSizes, type DeviceBoardProfile, type FlashRange, type PetRegion } from "./boardProfile";
import type { FlashArea } from "../storage/flash";

/** What a board says of itself when asked reportExpression(region). */
export interface BoardReport {
  /** process.env.BOARD. */
  board: string;
  /** process.env.VERSION. */
  version: string;
  /** process.env.FLASH: the flash size as the build knows it; 0 where it does not (the ESP32). Reported, not judged. */
  flash: number;
  /** process.env.STORAGE: Storage's size in bytes. */
  storage: number;
  /** require("Flash").getFree(), or null when the board gave none. */
  free: FlashArea[] | null;
  /** require("Flash").getPage() of the region's last byte, or null when it answered nothing. */
  lastPage: FlashArea | null;
}

/** What each refusal is called (in the order the rule checks them); "ok" when the profile fits. */
export const FIT = {
  ok: "ok",
  wrongBoard: "wrong-board",
  oldVersion: "old-version",
  notFree: "region-not-free",
  outsideChip: "region-outside-chip",
  inStorage: "region-in-storage",
} as const;
export type FitCode = (typeof FIT)[keyof typeof FIT];

export interface FitProblem {
  code: FitCode;
  /** What is wrong, in one sentence naming what the board said. */
  message: string;
  /** What to do about it. */
  todo: string;
}

export interface BoardFit {
  /** True when nothing is wrong: the profile's firmware may be uploaded and may write its region. */
  fits: boolean;
  /** Every problem found, in the rule's order; the first is the one to tell. */
  problems: FitProblem[];
  region: {
    address: number;
    size: number;
    inFreeFlash: boolean;
    inChip: boolean;
    outsideStorage: boolean;
    /** inFreeFlash && inChip && outsideStorage: the firmware may write there. */
    free: boolean;
  };
}

/** The tag before the board's answer: a line the firmware or an echo never prints. */
export const REPORT_TAG = "#pet-id ";

/**
 * The JavaScript a board evaluates to describe itself: a JSON string of process.env's BOARD,
 * VERSION, FLASH and STORAGE, getFree() and getPage() of the region's last byte. Only reads, and
 * nothing of the flash itself (getPage and getFree look at no flash at all).
 */
export function reportExpression(region: FlashRange): string {
  return (
    "(function(F,e){return JSON.stringify({b:e.BOARD,v:e.VERSION,f:e.FLASH,s:e.STORAGE,free:F.getFree(),p:F.getPage(" +
    (region.address + region.size - 1) +
    ")})})(require(\"Flash\"),process.env)"
  );
}

/** One console line that prints the report behind REPORT_TAG (without the console's framing). */
export function reportLine(region: FlashRange): string {
  return "print(" + JSON.stringify(REPORT_TAG) + "+" + reportExpression(region) + ")";
}

function area(v: unknown): FlashArea | null {
  if (typeof v !== "object" || v === null) return null;
  const o = v as { addr?: unknown; length?: unknown };
  return typeof o.addr === "number" && typeof o.length === "number" ? { addr: o.addr, length: o.length } : null;
}

/** The report in a line the board printed (anything before the tag is ignored), or null. */
export function parseBoardReport(line: string): BoardReport | null {
  const at = line.indexOf(REPORT_TAG);
  if (at < 0) return null;
  const text = line.slice(at + REPORT_TAG.length).trim();
  if (text.charAt(0) !== "{") return null; // an echo of the command holds the tag inside quotes
  let j: { b?: unknown; v?: unknown; f?: unknown; s?: unknown; free?: unknown; p?: unknown };
  try {
    j = JSON.parse(text) as typeof j;
  } catch {
    return null;
  }
  if (typeof j !== "object" || j === null) return null;
  let free: FlashArea[] | null = null;
  if (j.free instanceof Array) {
    free = [];
    for (const a of j.free) {
      const f = area(a);
      if (f !== null) free.push(f);
    }
  }
  return {
    board: typeof j.b === "string" ? j.b : String(j.b),
    version: typeof j.v === "string" ? j.v : String(j.v),
    flash: typeof j.f === "number" ? j.f : 0,
    storage: typeof j.s === "number" ? j.s : 0,
    free,
    lastPage: area(j.p),
  };
}

/** "2v26", "2v29.12" -> [2, 26]; null for anything else. */
export function versionParts(v: string): [number, number] | null {
  const m = /^(\d+)v(\d+)/.exec(v);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** True when `version` is `min` or later ("2v29.12" is later than "2v29"); false when it is not a version. */
export function versionAtLeast(version: string, min: string): boolean {
  const have = versionParts(version);
  const need = versionParts(min);
  if (have === null || need === null) return false;
  return have[0] > need[0] || (have[0] === need[0] && have[1] >= need[1]);
}

function hex(n: number): string {
  return "0x" + n.toString(16).toUpperCase();
}

function span(a: number, size: number): string {
  return hex(a) + ".." + hex(a + size - 1);
}

function areas(list: FlashArea[] | null): string {
  if (list === null || list.length === 0) return "none";
  return list.map((a) => span(a.addr, a.length)).join(", ");
}

/** Step 2: the region inside one free area. */
function inFreeFlash(r: FlashRange, free: FlashArea[] | null): boolean {
  if (free === null) return false;
  return free.some((a) => a.addr <= r.address && r.address + r.size <= a.addr + a.length);
}

/** Step 3: the page of the region's last byte is a page of the profile's size ending where the region ends. */
function inChip(r: PetRegion, last: FlashArea | null): boolean {
  return last !== null && last.addr + last.length === r.address + r.size && last.length === r.pageSize;
}

function overlaps(a: FlashRange, b: FlashRange): boolean {
  return a.address < b.address + b.size && b.address < a.address + a.size;
}

/** The region part of the rule alone: its first failing step, or "ok". The firmware's form must agree. */
export function regionVerdict(profile: DeviceBoardProfile, report: BoardReport): FitCode {
  const r = profile.petRegion;
  if (!inFreeFlash(r, report.free)) return FIT.notFree;
  if (!inChip(r, report.lastPage)) return FIT.outsideChip;
  if (expectedStorageSizes(profile).indexOf(report.storage) < 0 || overlaps(r, profile.storageArea)) return FIT.inStorage;
  return FIT.ok;
}

/** The whole rule: the board, its version, then the region. `file`, when given, names the profile's file in messages. */
export function boardFit(profile: DeviceBoardProfile, report: BoardReport, file?: string): BoardFit {
  const want = profile.espruino;
  const who = file === undefined ? profile.name : profile.name + " (" + file + ")";
  const r = profile.petRegion;
  const problems: FitProblem[] = [];
  if (report.board !== want.board) {
    problems.push({
      code: FIT.wrongBoard,
      message:
        "this board reports BOARD \"" + report.board + "\"; " + who + " is for \"" + want.board +
        "\" only: its flash addresses would be wrong anywhere else",
      todo: "plug in a board of that kind, or use a profile written for this one (BOARD=boards/<file>.json)",
    });
  }
  if (!versionAtLeast(report.version, want.minVersion)) {
    problems.push({
      code: FIT.oldVersion,
      message: "this board runs Espruino " + report.version + "; " + profile.name + " needs " + want.minVersion + " or later (the flash layout it relies on came with " + want.minVersion + ")",
      todo: "install a newer Espruino on it first (docs/firmware.md, \"Installing Espruino on an ESP32\")",
    });
  }
  const free = inFreeFlash(r, report.free);
  if (!free) {
    problems.push({
      code: FIT.notFree,
      message: "the pet region " + span(r.address, r.size) + " is not inside the flash this board reports free (Flash.getFree(): " + areas(report.free) + ")",
      todo: "this build lays its flash out differently (another partition table or port): install Espruino's own release on it, with its partition table (docs/firmware.md), or write a profile whose petRegion lies in free flash",
    });
  }
  const chip = inChip(r, report.lastPage);
  if (!chip) {
    const last = report.lastPage;
    problems.push({
      code: FIT.outsideChip,
      message:
        "the board's flash does not hold the pet region " + span(r.address, r.size) + " in pages of " + r.pageSize + " bytes (Flash.getPage(" + hex(r.address + r.size - 1) +
        ") answers " + (last === null ? "nothing" : span(last.addr, last.length)) + ")",
      todo: "the chip is smaller or its pages differ from the profile's: use a profile written for this board",
    });
  }
  const storageSizes = expectedStorageSizes(profile);
  const outside = storageSizes.indexOf(report.storage) >= 0 && !overlaps(r, profile.storageArea);
  if (!outside) {
    problems.push({
      code: FIT.inStorage,
      message:
        "this board's Storage is " + report.storage + " bytes (process.env.STORAGE) where " + profile.name + " knows " + storageSizes.join(" or ") +
        " (Storage from 0x" + profile.storageArea.address.toString(16).toUpperCase() + "): its Storage is laid out otherwise and may cover the pet region " + span(r.address, r.size),
      todo: "use the Espruino release the profile names (" + want.minVersion + " or later, from espruino.com), or a profile that matches this build",
    });
  }
  return {
    fits: problems.length === 0,
    problems,
    region: { address: r.address, size: r.size, inFreeFlash: free, inChip: chip, outsideStorage: outside, free: free && chip && outside },
  };
}

/** The first problem as one message with what to do, or null when the profile fits. */
export function refusalText(fit: BoardFit): string | null {
  const p = fit.problems[0];
  return p === undefined ? null : p.message + ". " + p.todo.charAt(0).toUpperCase() + p.todo.slice(1) + ".";
}
