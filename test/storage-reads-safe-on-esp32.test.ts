/**
 * Every read the slot log makes is one an ESP32 build can do: 1 byte, or at least SAFE_READ_MIN.
 * On Espruino's ESP32 builds with JsVars in PSRAM (2v06 on ESP-IDF 3.1 in the emulated chip) a
 * Flash.read of 2 to 22 bytes comes back as zeros and, on a WROVER board, panics: a log that read a
 * 12-byte header there would see no log at all. The simulator's bridge (deviceFlash) and the
 * emulated Flash module refuse such reads by name, and the log is driven here through every path
 * that reads (boots of empty, full and wrapped regions, saves that open sectors, power cuts of every
 * kind, writes that do not land, weak marks) with every read's length recorded.
 */
import { describe, expect, it } from "vitest";
import { SAFE_READ_MIN, deviceFlash, unsafeOnEsp32, type EspruinoFlash } from "../src/storage/flash";
import { createFlashModule } from "../src/host/emulator/flashModule";
import { createSlotLog, type SlotLog } from "../src/storage/slotLog";
import { ESP32, SMALL, type Geometry, crcValid, makePayload, newSim } from "./storage-fixtures";

/**
 * Drives a log over `g` through 40 rounds of saves, each round cut at another point by another kind
 * of tear, with writes that do not land now and then, and boots after every round. Answers the
 * length of every read the log asked for, recorded before the bridge could refuse it.
 */
function run(g: Geometry, seed: number): number[] {
  const sim = newSim(g, { seed });
  const bridge = deviceFlash(sim);
  const lengths: number[] = [];
  const device: EspruinoFlash = {
    read: (n, a) => (lengths.push(n), bridge.read(n, a)),
    write: (d, a) => bridge.write(d, a),
    erasePage: (a) => bridge.erasePage(a),
  };
  const open = (): SlotLog => createSlotLog({ ...g, device, pageSize: sim.pageSize, isValidPayload: crcValid }).log!;
  const tears = ["none", "all", "prefix", "words", "bits"] as const;
  const erases = ["none", "prefix", "words", "random", "mixed"] as const;
  let payload = 0;
  for (let round = 0; round < 40; round++) {
    sim.cutPowerAfter({ afterMutations: round % 7, writeTear: tears[round % tears.length], eraseTear: erases[round % erases.length] });
    const log = open();
    log.load();
    for (let i = 0; i < 30 && !sim.poweredOff; i++) log.save(makePayload(payload++));
    sim.powerOn();
    // Faults outside the cut model: a write that does not land, then one that lands half.
    if (round % 5 === 0) sim.injectFailure({ op: "write", mode: round % 10 === 0 ? "silent" : "half", count: 1 });
    const after = open();
    expect(["ok", "empty", "no-committed-save"]).toContain(after.load().status);
    after.save(makePayload(payload++));
    sim.clearFailures();
  }
  return lengths;
}

describe("the slot log reads only sizes an ESP32 build can read", () => {
  for (const [name, g] of [["the ESP32 region", ESP32], ["a region of 512-byte sectors (5 marks each)", SMALL]] as const) {
    it(name + ": boots, saves, cuts and faults, every read 1 byte or at least " + SAFE_READ_MIN, () => {
      for (const seed of [1, 2, 3]) {
        const lengths = run(g, seed);
        expect(lengths.length).toBeGreaterThan(500);
        expect(lengths.filter(unsafeOnEsp32)).toEqual([]);
      }
    });
  }

  it("the simulator's bridge refuses a read of 2 to 22 bytes by name, and takes 1 and 23 or more", () => {
    const dev = deviceFlash(newSim(SMALL));
    for (let n = 2; n <= 22; n++) expect(() => dev.read(n, SMALL.address)).toThrow(/2 to 22 bytes/);
    for (const n of [1, 23, SAFE_READ_MIN, 84]) expect(dev.read(n, SMALL.address).length).toBe(n);
  });

  it("the emulated require(\"Flash\") the desktop and the page give the firmware refuses them too", () => {
    const sim = newSim(SMALL);
    const flash = createFlashModule({ flash: sim, regionAddress: SMALL.address, flashAddress: SMALL.address, size: SMALL.size }, { Uint8Array } as never);
    expect(() => flash.read(12, SMALL.address)).toThrow(/crash Espruino's ESP32 builds/);
    expect(flash.read(1, SMALL.address)[0]).toBe(0xff);
    expect(flash.read(24, SMALL.address).length).toBe(24);
  });

  it("a payload shorter than SAFE_READ_MIN is refused by the layout, since the log reads one whole", () => {
    const short = createSlotLog({ flash: newSim(SMALL), ...SMALL, payloadLength: 20, isValidPayload: crcValid });
    expect(short.status).toBe("bad-config");
    expect(short.message).toMatch(/between 24 and 252/);
    expect(createSlotLog({ flash: newSim(SMALL), ...SMALL, payloadLength: 24, isValidPayload: () => true }).status).toBe("ok");
  });
});
