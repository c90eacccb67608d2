/**
 * The firmware's form of the region rule (src/boards/regionFit.ts, run at every boot) gives the same
 * verdict as the original (regionVerdict in src/boards/boardFit.ts, used by flash, board-check and the
 * web page) for any board answer, asks the board for the same page, and never refuses a region the
 * original accepts or the other way round. The boards Espruino 2v29 really is (the ESP32 port's
 * hard-coded answers, the kit's Linux build, the stock Linux build) are checked by name.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkBoardProfile, type DeviceBoardProfile } from "../src/boards/boardProfile";
import { FIT, regionVerdict, type BoardReport } from "../src/boards/boardFit";
import { expectedStorageSizes } from "../src/boards/boardProfile";
import type { FlashArea } from "../src/storage/flash";
import { misfitCode, regionMisfit } from "../src/boards/regionFit";

const BOARDS = join(__dirname, "..", "boards");
const load = (file: string): DeviceBoardProfile => JSON.parse(readFileSync(join(BOARDS, file), "utf8")) as DeviceBoardProfile;

/** The ESP32 port's answers in 2v29 (targets/esp32/jshardware.c): a hard-coded free list, 4 KiB pages up to 4 MiB. */
const ESP32_FREE = [
  { addr: 0xe000, length: 0x2000 },
  { addr: 0x310000, length: 0x10000 },
  { addr: 0x360000, length: 0xa0000 },
];
function esp32Page(addr: number): FlashArea | null {
  return addr >= 0 && addr < 0x400000 ? { addr: addr - (addr % 4096), length: 4096 } : null;
}

/** A board's report for `profile`'s region, pages answered by `page`. */
function reportFor(profile: DeviceBoardProfile, free: FlashArea[] | null, page: (a: number) => FlashArea | null, storage: number): BoardReport {
  const r = profile.petRegion;
  return { board: profile.espruino.board, version: "2v29", flash: 0, storage, free, lastPage: page(r.address + r.size - 1) };
}

/** The fast form's verdict for the same report: its code, without the words in brackets. */
function fastVerdict(profile: DeviceBoardProfile, report: BoardReport): { code: string; asked: number[] } {
  const r = profile.petRegion;
  const asked: number[] = [];
  const flash = {
    getFree: () => (report.free === null ? [] : report.free.map((a) => ({ ...a }))),
    getPage: (addr: number) => {
      asked.push(addr);
      if (addr === r.address + r.size - 1) return report.lastPage ?? undefined;
      throw new Error("the fast form asked for a page the board was not asked about: " + addr);
    },
  };
  const misfit = regionMisfit(flash, report.storage, r.address, r.address + r.size, r.pageSize, expectedStorageSizes(profile));
  return { code: misfitCode(misfit), asked };
}

describe("the firmware's region check agrees with the rule", () => {
  it("on the boards Espruino 2v29 really is", () => {
    const esp32 = load("esp32.json");
    const kit = load("linux-esp32.json");
    const stock = load("linux.json");
    const kitFree = [{ addr: 0x10000000, length: 0x400000 }];
    const kitPage = (a: number): FlashArea | null => (a >= 0x10000000 && a < 0x10400000 ? { addr: a - (a % 4096), length: 4096 } : null);
    const stockFree = [{ addr: 0x10000000, length: 0x40000 }];
    const stockPage = (a: number): FlashArea | null => (a >= 0x10000000 && a < 0x10040000 ? { addr: a - (a % 1024), length: 1024 } : null);
    const cases: [string, DeviceBoardProfile, BoardReport, string][] = [
      ["ESP32 2v29", esp32, reportFor(esp32, ESP32_FREE, esp32Page, 917504), FIT.ok],
      ["an ESP32 build whose free list lacks 0x310000", esp32, reportFor(esp32, [ESP32_FREE[0]!, ESP32_FREE[2]!], esp32Page, 917504), FIT.notFree],
      ["an ESP32 build with a 1 MiB Storage", esp32, reportFor(esp32, ESP32_FREE, esp32Page, 1048576), FIT.inStorage],
      ["the kit's build", kit, reportFor(kit, kitFree, kitPage, 917504), FIT.ok],
      ["the kit's build for the ESP32 profile (its addresses lie outside the kit's flash)", esp32, reportFor(esp32, kitFree, kitPage, 917504), FIT.notFree],
      ["the stock Linux build", stock, reportFor(stock, stockFree, stockPage, 262144), FIT.ok],
      ["the stock build for the kit's profile", kit, reportFor(kit, stockFree, stockPage, 262144), FIT.notFree],
      ["1 KiB pages under a 4 KiB profile", kit, reportFor(kit, kitFree, (a) => ({ addr: a - (a % 1024), length: 1024 }), 917504), FIT.outsideChip],
      ["no getPage answer past the end", kit, reportFor(kit, kitFree, () => null, 917504), FIT.outsideChip],
      ["no free list at all", esp32, reportFor(esp32, null, esp32Page, 917504), FIT.notFree],
    ];
    for (const [label, profile, report, want] of cases) {
      expect(regionVerdict(profile, report), label).toBe(want);
      const fast = fastVerdict(profile, report);
      expect(fast.code, label).toBe(want);
      if (want !== FIT.notFree) expect(fast.asked, label).toEqual([profile.petRegion.address + profile.petRegion.size - 1]);
    }
  });

  it("on any region and any board answer", () => {
    const pageSizes = [1024, 4096];
    const arbProfile = fc
      .record({ pageSize: fc.constantFrom(...pageSizes), page: fc.integer({ min: 0, max: 1000 }), pages: fc.integer({ min: 2, max: 16 }), storageSize: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }) })
      .map(({ pageSize, page, pages, storageSize }) => {
        const address = 0x10000000 + page * pageSize;
        const storageArea = { address: address + pages * pageSize, size: 64 * pageSize };
        const p: DeviceBoardProfile = {
          name: "random",
          petRegion: { address, size: pages * pageSize, pageSize },
          storageArea,
          espruino: { board: "X", minVersion: "2v26", ...(storageSize === undefined ? {} : { storageSizes: [storageArea.size + (storageSize - 1) * pageSize, storageArea.size / 4] }) },
        };
        return p;
      });
    // An area around the region, or next to it, or off by a byte at either end.
    const arbArea = (p: DeviceBoardProfile) =>
      fc.record({ before: fc.integer({ min: -2, max: 3 }), after: fc.integer({ min: -2, max: 3 }) }).map(({ before, after }) => ({
        addr: p.petRegion.address - before * p.petRegion.pageSize + (before === -2 ? 1 : 0),
        length: p.petRegion.size + (before + after) * p.petRegion.pageSize - (after === -2 ? 1 : 0),
      }));
    const arbPage = (p: DeviceBoardProfile, at: number) =>
      fc.oneof(
        fc.constant({ addr: at - (at % p.petRegion.pageSize), length: p.petRegion.pageSize }),
        fc.constant(null),
        fc.constantFrom(512, 1024, 2048, 4096, 65536).map((len) => ({ addr: at - (at % len), length: len })),
        fc.integer({ min: -1, max: 1 }).map((d) => ({ addr: at - (at % p.petRegion.pageSize) + d * p.petRegion.pageSize, length: p.petRegion.pageSize })),
      );
    const arbCase = arbProfile.chain((p) =>
      fc.record({
        profile: fc.constant(p),
        free: fc.option(fc.array(arbArea(p), { maxLength: 4 }), { nil: null }),
        lastPage: arbPage(p, p.petRegion.address + p.petRegion.size - 1),
        storage: fc.constantFrom(...expectedStorageSizes(p), expectedStorageSizes(p)[0]! + p.petRegion.pageSize, p.storageArea.size, 0),
      }),
    );
    const seen = new Set<string>();
    fc.assert(
      fc.property(arbCase, (c) => {
        expect(checkBoardProfile(c.profile)).toEqual([]);
        const report: BoardReport = { board: "X", version: "2v29", flash: 0, storage: c.storage, free: c.free, lastPage: c.lastPage };
        const want = regionVerdict(c.profile, report);
        seen.add(want);
        expect(fastVerdict(c.profile, report).code).toBe(want);
      }),
      { numRuns: 2000 },
    );
    // Every verdict came up, so the agreement covers each step of the rule.
    expect([...seen].sort()).toEqual([FIT.ok, FIT.inStorage, FIT.notFree, FIT.outsideChip].sort());
  });
});
