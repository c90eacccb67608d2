/**
 * What boot and the loop cost on the device: the restored payload is decoded (and its CRC computed)
 * once, by the check that picks it; and a tick that changes nothing on show builds no strings
 * (the hex of the name used to be built every second to notice a change).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { crc32 as zlibCrc32 } from "node:zlib";
import { bootPet, newFlash, plainSlotLog } from "./firmware-fakes";
import { bytesToHex } from "../src/core/hex";
import { saveWorld } from "../src/save/codec";
import { createWorld } from "../src/core/world";
import { nameFromString } from "../src/core/name";
import type { NorFlashSim } from "../src/storage/norFlashSim";

vi.mock("../src/core/hex", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/core/hex")>();
  return { ...real, bytesToHex: vi.fn(real.bytesToHex) };
});

const SAVED_AT = Date.UTC(2026, 9, 1);
const g = globalThis as unknown as Record<string, unknown>;

/** Installs an Espruino-like E.CRC32 (which src/save/crc32.ts prefers) that counts its calls. */
function countCrc(): { calls: number } {
  const counter = { calls: 0 };
  g["E"] = {
    CRC32(data: Uint8Array): number {
      counter.calls++;
      return zlibCrc32(Buffer.from(data)) >>> 0;
    },
  };
  return counter;
}

afterEach(() => {
  delete g["E"];
});

function regionWithSave(): NorFlashSim {
  const sim = newFlash();
  const { app } = bootPet({ sim, wallClockMs: SAVED_AT });
  expect(app.pet.rename("Once")).toBe("ok");
  app.stop();
  return sim;
}

describe("boot", () => {
  for (const wall of [0, SAVED_AT + 3600000]) {
    it("decodes the restored save once (wall clock " + (wall === 0 ? "unknown" : "known") + ")", () => {
      const sim = regionWithSave();
      const crc = countCrc();
      const env = bootPet({ sim, wallClockMs: wall }).env;
      expect(env.lines[0]).toMatch(wall === 0 ? /^restored Once, updates 0$/ : /^restored Once, updates 0, away 3600 s$/);
      expect(crc.calls).toBe(1);
    });
  }

  it("still passes over a newest save whose stamps only fit its clock once the absence is added", () => {
    // Decoding with the boot's clock must not change WHICH save is picked: the check judges the
    // stored world, as loadWorld(payload, 0) would.
    const sim = newFlash();
    const log = plainSlotLog(sim);
    expect(log.save(saveWorld(createWorld(nameFromString("Old") as Uint8Array)!, SAVED_AT).bytes!).status).toBe("ok");
    const odd = saveWorld(createWorld(nameFromString("Odd") as Uint8Array)!, SAVED_AT).bytes!;
    odd[32] = 0x10; // activitySince 16 ms with a stored clock of 0: valid only after an absence
    const crc = zlibCrc32(odd.subarray(0, 80)) >>> 0;
    for (let i = 0; i < 4; i++) odd[80 + i] = (crc >>> (8 * i)) & 0xff;
    expect(log.save(odd).status).toBe("ok");
    const env = bootPet({ sim, wallClockMs: SAVED_AT + 60000 }).env;
    expect(env.lines).toEqual(["restored Old, updates 0, away 60 s (passed over 1 newer unreadable save)"]);
  });
});

describe("the loop", () => {
  it("builds no hex string per tick to notice a change", () => {
    const { env, app } = bootPet();
    const spy = vi.mocked(bytesToHex);
    spy.mockClear();
    env.advance(120000);
    expect(spy).not.toHaveBeenCalled();
    // and a change on show is still noticed: a rename prints a line with the new name
    expect(app.pet.rename("Renamed")).toBe("ok");
    expect(env.lines[env.lines.length - 1]).toMatch(/^Renamed: /);
  });
});
