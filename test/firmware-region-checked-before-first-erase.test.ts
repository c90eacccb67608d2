/**
 * At boot, before any flash access of the pet's region, a device build checks the region against
 * what the board reports (Flash.getFree(), Flash.getPage(), process.env.STORAGE;
 * src/boards/regionFit.ts). A board where it does not fit never has the region read, erased or
 * written, whatever the owner does afterwards (save, hatch, import, interact, the loop for an hour):
 * the boot line and the panel say why, pet.save() and pet.status().storage answer the check's code,
 * and the pet runs. A board that fits boots as before; a simulator profile (no storageSizes) is not
 * checked. pet.checkSave() reads the newest save back as a boot would and says whether it is the
 * running pet.
 */
import { describe, expect, it } from "vitest";
import { bootPet, fakeEnv, newFlash, plainSlotLog, rawFlashOver, REGION, testBoard, type FakeEnv } from "./firmware-fakes";
import { startPet } from "../firmware/app";
import { NOT_SAVING_NOTE } from "../firmware/runningPet";
import type { PetBoard } from "../firmware/board";
import type { EspruinoFlash, FlashArea } from "../src/storage/flash";
import { saveWorld } from "../src/save/codec";
import { createWorld } from "../src/core/world";
import { nameFromString } from "../src/core/name";
import { bytesToHex } from "../src/core/hex";

/** ESP32 2v29's answers (targets/esp32/jshardware.c): REGION is its 0x310000 partition. */
const ESP32_FREE: FlashArea[] = [
  { addr: 0xe000, length: 0x2000 },
  { addr: 0x310000, length: 0x10000 },
  { addr: 0x360000, length: 0xa0000 },
];
const ESP32_STORAGE = 917504;

interface Board {
  free?: FlashArea[];
  pageSize?: number;
  storage?: number;
  getFreeThrows?: boolean;
}

/**
 * A flash that answers getFree/getPage as `b` says and records every call in order; the region's
 * reads, writes and erases go to a NorFlashSim.
 */
function reportingFlash(b: Board): { flash: EspruinoFlash; calls: string[]; sim: ReturnType<typeof newFlash> } {
  const sim = newFlash();
  const inner = rawFlashOver(sim);
  const calls: string[] = [];
  const page = b.pageSize ?? 4096;
  const flash: EspruinoFlash = {
    read: (n, a) => (calls.push("read"), inner.read(n, a)),
    write: (d, a) => (calls.push("write"), inner.write(d, a)),
    erasePage: (a) => (calls.push("erase"), inner.erasePage(a)),
    getFree: () => {
      calls.push("getFree");
      if (b.getFreeThrows) throw new Error("no free list here");
      return (b.free ?? ESP32_FREE).map((x) => ({ ...x }));
    },
    getPage: (a) => (calls.push("getPage"), a < 0x400000 ? { addr: a - (a % page), length: page } : undefined),
  };
  return { flash, calls, sim };
}

/** A device board (storageSizes as the build derives them for boards/esp32.json) with a panel. */
const DEVICE: Partial<PetBoard> = {
  storageSizes: [262144, ESP32_STORAGE],
  display: { driver: "ssd1306-i2c", width: 128, height: 64, address: 0x3c, i2c: { scl: "D22", sda: "D21", bitrate: 400000 } },
};

function boot(b: Board, board: Partial<PetBoard> = DEVICE, wallClockMs?: number): { env: FakeEnv; calls: string[]; app: ReturnType<typeof startPet>; sim: ReturnType<typeof newFlash> } {
  const { flash, calls, sim } = reportingFlash(b);
  const env = fakeEnv({ flash, withDisplayHardware: true, wallClockMs });
  env.storageSize = b.storage ?? ESP32_STORAGE;
  const app = startPet(testBoard(board), env);
  return { env, calls, app, sim };
}

/** Everything an owner can do, and an hour of the loop. */
function useIt(env: FakeEnv, app: ReturnType<typeof startPet>): string[] {
  const other = saveWorld(createWorld(nameFromString("Rex")!)!, 0).bytes!;
  const answers = [app.pet.save(), app.pet.interact(), app.pet.rename("Zed"), app.pet.hatch("Nova"), app.pet.importHex(bytesToHex(other)), app.pet.hatch(), app.pet.checkSave()];
  for (let i = 0; i < 3600; i++) env.advance(1000);
  answers.push(app.pet.save());
  return answers;
}

describe("a board where the region does not fit", () => {
  it.each([
    ["its free flash lacks the region (another partition table)", { free: [ESP32_FREE[0]!, ESP32_FREE[2]!] }, "region-not-free"],
    ["its pages are not the profile's", { pageSize: 1024 }, "region-outside-chip"],
    ["its Storage is another size", { storage: 1048576 }, "region-in-storage"],
  ] as [string, Board, string][])("never touches the region when %s, says why and runs the pet", (_label, b, code) => {
    const { env, calls, app, sim } = boot(b);
    const bootLine = app.bootLine;
    expect(bootLine).toMatch(new RegExp("^storage refused: " + code + " \\(.+\\), hatched Pip \\(not saved\\)$"));
    expect(env.lines[0]).toBe(bootLine); // on the console
    const drawn = env.graphics[0]!.calls;
    expect(drawn).toContain("drawString:" + NOT_SAVING_NOTE); // and on the panel
    expect(app.pet.status()!.storage).toBe(code);

    const answers = useIt(env, app);
    expect(answers[0]).toBe(code); // pet.save()
    expect(answers[answers.length - 1]).toBe(code);
    expect(answers[6]).toBe(code); // pet.checkSave(): nothing is read either
    expect(app.pet.status()!.storage).toBe(code); // a hatch does not end it
    expect(calls.filter((c) => c === "read" || c === "write" || c === "erase")).toEqual([]);
    expect(sim.image().every((x) => x === 0xff)).toBe(true);
    // The panel kept the note through the redraws of an hour.
    expect(drawn.filter((c) => c === "drawString:" + NOT_SAVING_NOTE).length).toBeGreaterThan(1);
    expect(drawn.filter((c) => c.startsWith("drawString:") && c !== "drawString:" + NOT_SAVING_NOTE && !/^drawString:(Pip|Zed|Nova|Rex|[zZ?])$/.test(c))).toEqual([]);
  });

  it("a board whose flash cannot say what is free is refused the same way, never read", () => {
    const { calls, app } = boot({ getFreeThrows: true });
    expect(app.bootLine).toMatch(/^storage unavailable: .*no free list here.*, hatched Pip \(not saved\)$/);
    expect(app.pet.status()!.storage).toBe("no-storage");
    expect(app.pet.save()).toBe("no-storage");
    expect(calls).toEqual(["getFree"]);
  });
});

describe("a board where the region fits", () => {
  it("asks what is free and where the last page is before its first read, then boots as before", () => {
    const { calls, app, env } = boot({});
    expect(app.bootLine).toBe("no save found: region empty, hatched Pip");
    expect(calls.slice(0, 2)).toEqual(["getFree", "getPage"]);
    expect(calls.slice(2).every((c) => c === "read" || c === "write" || c === "erase")).toBe(true);
    expect(app.pet.status()!.storage).toBe("ok");
    expect(env.graphics[0]!.calls).not.toContain("drawString:" + NOT_SAVING_NOTE);
    expect(app.pet.save()).toBe("ok");
  });

  it("fits Espruino's older ESP32 layout too: 256 KiB of Storage at the same address (2v06 to 2v25)", () => {
    const { app } = boot({ storage: 262144 });
    expect(app.bootLine).toBe("no save found: region empty, hatched Pip");
    expect(app.pet.status()!.storage).toBe("ok");
    expect(app.pet.save()).toBe("ok");
  });

  it("a simulator's profile (no storageSizes) is not checked", () => {
    const { calls, app } = boot({ free: [] }, {});
    expect(app.bootLine).toBe("no save found: region empty, hatched Pip");
    expect(calls).not.toContain("getFree");
  });
});

describe("pet.checkSave()", () => {
  it("says the newest save is the running pet, and another pet's is not", () => {
    const { app, env, sim } = bootPet({ wallClockMs: Date.UTC(2026, 0, 1) });
    expect(app.pet.checkSave()).toBe("ok"); // the first save, at boot
    env.advance(5000);
    expect(app.pet.checkSave()).toBe("ok"); // the running pet has moved on since: still its save
    const reads = sim.stats.reads;
    plainSlotLog(sim).save(saveWorld(createWorld(nameFromString("Rex")!)!, 0).bytes!);
    expect(app.pet.checkSave()).toBe("other-pet");
    expect(sim.stats.reads).toBeGreaterThan(reads);
    expect(app.pet.save()).toBe("ok");
    expect(app.pet.checkSave()).toBe("ok");
  });

  it("says why there is no save to read", () => {
    const sim = newFlash();
    const env = fakeEnv({ flash: rawFlashOver(sim) });
    const app = startPet(testBoard({ petRegion: REGION }), env);
    app.stop();
    for (let a = REGION.address; a < REGION.address + REGION.size; a += REGION.pageSize) sim.erasePage(a);
    expect(app.pet.checkSave()).toBe("empty");
  });
});
