/**
 * The rule "does this profile fit this board" (src/boards/boardFit.ts), shared by flash, board-check
 * and the web page: what the board is asked and how its answer is read (not from an echo of the
 * question), and which answers are refused, each with a message naming what the board said and what
 * to do. The ESP32's real 2v29 answers fit boards/esp32.json; a board, a version, a free list, a
 * page size or a Storage size that differ do not.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import type { DeviceBoardProfile } from "../src/boards/boardProfile";
import { boardFit, FIT, parseBoardReport, refusalText, reportLine, REPORT_TAG, versionAtLeast, type BoardReport } from "../src/boards/boardFit";

const BOARDS = join(__dirname, "..", "boards");
const esp32 = JSON.parse(readFileSync(join(BOARDS, "esp32.json"), "utf8")) as DeviceBoardProfile;

/** What an ESP32 running Espruino 2v29 answers for boards/esp32.json (targets/esp32/jshardware.c). */
const ESP32_2V29: BoardReport = {
  board: "ESP32",
  version: "2v29",
  flash: 0,
  storage: 917504,
  free: [
    { addr: 0xe000, length: 0x2000 },
    { addr: 0x310000, length: 0x10000 },
    { addr: 0x360000, length: 0xa0000 },
  ],
  lastPage: { addr: 0x31f000, length: 4096 },
};

const codes = (r: BoardReport, p = esp32): string[] => boardFit(p, r).problems.map((x) => x.code);

describe("asking the board", () => {
  it("the line the board runs reads process.env, getFree and the page of the region's last byte, and its answer parses", () => {
    const asked: number[] = [];
    let printed = "";
    const Flash = { getFree: () => ESP32_2V29.free, getPage: (a: number) => (asked.push(a), { addr: a - (a % 4096), length: 4096 }) };
    runInNewContext(reportLine(esp32.petRegion), {
      require: (n: string) => (n === "Flash" ? Flash : undefined),
      process: { env: { BOARD: "ESP32", VERSION: "2v29", FLASH: 0, STORAGE: 917504, MODULES: "Flash,Storage" } },
      print: (s: string) => (printed += s),
      JSON,
    });
    expect(asked).toEqual([0x31ffff]);
    expect(printed.startsWith(REPORT_TAG)).toBe(true);
    expect(parseBoardReport(">" + printed)).toEqual(ESP32_2V29);
  });

  it("never takes the echo of the question for an answer", () => {
    expect(parseBoardReport(reportLine(esp32.petRegion))).toBeNull();
    expect(parseBoardReport("#pet-id not json")).toBeNull();
    expect(parseBoardReport("no tag here")).toBeNull();
  });

  it("reads an answer without getFree or pages (an odd build) as a board that reports none", () => {
    const r = parseBoardReport('#pet-id {"b":"ESP32","v":"2v29","f":0,"s":917504}')!;
    expect(r.free).toBeNull();
    expect(r.lastPage).toBeNull();
    expect(boardFit(esp32, r).region.free).toBe(false);
  });
});

describe("the rule", () => {
  it("takes an ESP32 with 2v29 (and later builds) for boards/esp32.json", () => {
    const fit = boardFit(esp32, ESP32_2V29);
    expect(fit).toEqual({ fits: true, problems: [], region: { address: 0x310000, size: 0x10000, inFreeFlash: true, inChip: true, outsideStorage: true, free: true } });
    expect(refusalText(fit)).toBeNull();
    for (const v of ["2v26", "2v26.3", "2v29.277", "2v100", "3v0"]) expect(versionAtLeast(v, "2v26"), v).toBe(true);
    for (const v of ["2v25", "2v25.99", "1v99", "2v9", "unknown", ""]) expect(versionAtLeast(v, "2v26"), v).toBe(false);
  });

  it("refuses another board, naming what it reports and the profile's board", () => {
    for (const b of ["ESP32S3", "ESP8266", "LINUX", "PICO_R1_3", ""]) {
      const fit = boardFit(esp32, { ...ESP32_2V29, board: b }, "boards/esp32.json");
      expect(fit.fits).toBe(false);
      expect(fit.problems[0]!.code).toBe(FIT.wrongBoard);
      expect(refusalText(fit)).toContain('reports BOARD "' + b + '"');
      expect(refusalText(fit)).toContain('(boards/esp32.json) is for "ESP32"');
    }
  });

  it("takes Espruino's own older ESP32 firmware too: 2v06 with its 256 KiB of Storage at 0x320000", () => {
    const old = { ...ESP32_2V29, version: "2v06.63", storage: 262144 };
    expect(boardFit(esp32, old).fits).toBe(true);
    for (const v of ["2v06", "2v10", "2v25.99"]) expect(boardFit(esp32, { ...old, version: v }).fits, v).toBe(true);
  });

  it("refuses an Espruino older than the profile's, saying which it needs and where to get it", () => {
    const fit = boardFit(esp32, { ...ESP32_2V29, version: "2v05" });
    expect(codes({ ...ESP32_2V29, version: "2v05" })).toEqual([FIT.oldVersion]);
    expect(refusalText(fit)).toMatch(/runs Espruino 2v05; .* needs 2v06 or later/);
    expect(refusalText(fit)).toContain("Installing Espruino on an ESP32");
  });

  it("refuses a build that does not leave the region free, listing what it does leave free", () => {
    const other = { ...ESP32_2V29, free: [{ addr: 0x3f0000, length: 0x10000 }] };
    const fit = boardFit(esp32, other);
    expect(codes(other)).toEqual([FIT.notFree]);
    expect(fit.region).toMatchObject({ inFreeFlash: false, inChip: true, outsideStorage: true, free: false });
    expect(refusalText(fit)).toContain("0x310000..0x31FFFF is not inside the flash this board reports free (Flash.getFree(): 0x3F0000..0x3FFFFF)");
  });

  it("refuses a region the chip does not hold in pages of the profile's size", () => {
    expect(codes({ ...ESP32_2V29, lastPage: null })).toEqual([FIT.outsideChip]);
    expect(codes({ ...ESP32_2V29, lastPage: { addr: 0x31fc00, length: 1024 } })).toEqual([FIT.outsideChip]);
    expect(codes({ ...ESP32_2V29, lastPage: { addr: 0x310000, length: 65536 } })).toEqual([FIT.outsideChip]);
    expect(codes({ ...ESP32_2V29, lastPage: { addr: 0x31e000, length: 4096 } })).toEqual([FIT.outsideChip]);
    expect(refusalText(boardFit(esp32, { ...ESP32_2V29, lastPage: null }))).toContain("Flash.getPage(0x31FFFF) answers nothing");
  });

  it("refuses a board whose Storage is not the size the profile expects: its Storage may lie elsewhere", () => {
    const fit = boardFit(esp32, { ...ESP32_2V29, storage: 1048576 });
    expect(fit.problems.map((p) => p.code)).toEqual([FIT.inStorage]);
    expect(fit.region.outsideStorage).toBe(false);
    expect(refusalText(fit)).toContain("Storage is 1048576 bytes (process.env.STORAGE) where ESP32 (Espruino 2v06 or later) knows 262144 or 917504");
  });

  it("refuses the third area the ESP32 port calls free, which lies inside Storage since 2v26", () => {
    const inside: DeviceBoardProfile = { ...esp32, petRegion: { address: 0x360000, size: 0x10000, pageSize: 4096 } };
    const report = { ...ESP32_2V29, lastPage: { addr: 0x36f000, length: 4096 } };
    const fit = boardFit(inside, report);
    expect(fit.region).toMatchObject({ inFreeFlash: true, inChip: true, outsideStorage: false });
    expect(fit.problems.map((p) => p.code)).toEqual([FIT.inStorage]);
  });

  it("lists every problem, in the rule's order", () => {
    const all: BoardReport = { board: "ESP8266", version: "2v05", flash: 0, storage: 0, free: [], lastPage: null };
    expect(codes(all)).toEqual([FIT.wrongBoard, FIT.oldVersion, FIT.notFree, FIT.outsideChip, FIT.inStorage]);
  });
});
