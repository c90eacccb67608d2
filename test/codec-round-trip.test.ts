/**
 * Round trips: any valid world survives save then load unchanged, the fields land at the offsets of
 * the field table (read back with Buffer, independent of the codec), and every accepted payload is
 * canonical — re-saving what was loaded gives the same bytes.
 */
import { crc32 as zlibCrc32 } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadWorld, saveWorld } from "../src/save/codec";
import { PAYLOAD_LENGTH } from "../src/save/layout";
import type { World } from "../src/core/types";
import { clockBig, fromBig, toBig, validWorld } from "./core-arbitraries";

const savedAtArb = fc.oneof(clockBig.map(fromBig), fc.maxSafeNat());

function savedAtBig(v: number | { hi: number; lo: number }): bigint {
  return typeof v === "number" ? BigInt(v) : toBig(v);
}

describe("saveWorld then loadWorld", () => {
  it("gives back the same world and save stamp, and re-saves to the same bytes", () => {
    fc.assert(
      fc.property(validWorld, savedAtArb, (world, savedAt) => {
        const saved = saveWorld(world, savedAt);
        expect(saved.status).toBe("ok");
        const bytes = saved.bytes!;
        expect(bytes.length).toBe(PAYLOAD_LENGTH);

        const loaded = loadWorld(bytes, 0);
        expect(loaded.status).toBe("ok");
        expect(loaded.absenceMs).toBe(0);
        expect(toBig(loaded.savedAt)).toBe(savedAtBig(savedAt));
        const w = loaded.world!;
        expect(Array.from(w.name)).toEqual(Array.from(world.name));
        expect([w.activity, w.expression]).toEqual([world.activity, world.expression]);
        for (const k of ["elapsed", "updateCount", "activitySince", "expressionSince"] as const) {
          expect(toBig(w[k])).toBe(toBig(world[k]));
        }
        expect(Array.from(saveWorld(w, loaded.savedAt).bytes!)).toEqual(Array.from(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it("writes each field at its offset, little-endian, with zero name padding and the CRC at 80", () => {
    fc.assert(
      fc.property(validWorld, savedAtArb, (world, savedAt) => {
        const buf = Buffer.from(saveWorld(world, savedAt).bytes!);
        expect(buf.subarray(0, 4).toString("latin1")).toBe("PETS");
        expect(buf.readUInt16LE(4)).toBe(1);
        expect(buf.readBigUInt64LE(6)).toBe(toBig(world.elapsed));
        expect(buf.readBigUInt64LE(14)).toBe(toBig(world.updateCount));
        expect(buf.readBigUInt64LE(22)).toBe(savedAtBig(savedAt));
        expect(buf[30]).toBe(world.activity);
        expect(buf[31]).toBe(world.expression);
        expect(buf.readBigUInt64LE(32)).toBe(toBig(world.activitySince));
        expect(buf.readBigUInt64LE(40)).toBe(toBig(world.expressionSince));
        expect(buf[48]).toBe(world.name.length);
        expect(Array.from(buf.subarray(49, 49 + world.name.length))).toEqual(Array.from(world.name));
        expect(buf.subarray(49 + world.name.length, 80).every((b) => b === 0)).toBe(true);
        expect(buf.readUInt32LE(80)).toBe(zlibCrc32(buf.subarray(0, 80)));
      }),
      { numRuns: 300 },
    );
  });

  it("loads into a caller's world: same object back, name copied rather than shared", () => {
    const world: World = {
      name: new Uint8Array([0x50, 0x69, 0x70]),
      activity: 1,
      expression: 3,
      activitySince: { hi: 0, lo: 10 },
      expressionSince: { hi: 0, lo: 20 },
      elapsed: { hi: 1, lo: 5 },
      updateCount: { hi: 0, lo: 7 },
    };
    const bytes = saveWorld(world, 0).bytes!;
    const into: World = {
      name: new Uint8Array([1]),
      activity: 0,
      expression: 0,
      activitySince: { hi: 0, lo: 0 },
      expressionSince: { hi: 0, lo: 0 },
      elapsed: { hi: 0, lo: 0 },
      updateCount: { hi: 0, lo: 0 },
    };
    const loaded = loadWorld(bytes, 0, into);
    expect(loaded.status).toBe("ok");
    expect(loaded.world).toBe(into);
    expect(into).toEqual(world);
    bytes[49] = 0x51; // the payload buffer is the caller's; the world must not alias it
    expect(into.name[0]).toBe(0x50);
  });
});

describe("canonical bytes", () => {
  /** 80 random bytes under a correct header and a correct CRC, so loads reach the field checks. */
  const crcValidPayload = fc
    .record({
      body: fc.uint8Array({ minLength: 74, maxLength: 74 }),
      activity: fc.integer({ min: 0, max: 6 }),
      expression: fc.integer({ min: 0, max: 7 }),
      nameLength: fc.integer({ min: 0, max: 32 }),
      zeroPadding: fc.boolean(),
    })
    .map(({ body, activity, expression, nameLength, zeroPadding }) => {
      const p = Buffer.alloc(84);
      p.write("PETS", 0, "latin1");
      p.writeUInt16LE(1, 4);
      p.set(body, 6);
      p[30] = activity;
      p[31] = expression;
      p[48] = nameLength;
      if (zeroPadding) p.fill(0, 49 + Math.min(nameLength, 31), 80);
      p.writeUInt32LE(zlibCrc32(p.subarray(0, 80)), 80);
      return new Uint8Array(p);
    });

  it("every payload loadWorld accepts re-saves to exactly the same 84 bytes", () => {
    let accepted = 0;
    fc.assert(
      fc.property(crcValidPayload, (p) => {
        const loaded = loadWorld(p, 0);
        if (loaded.status !== "ok") return;
        accepted++;
        expect(Array.from(saveWorld(loaded.world!, loaded.savedAt).bytes!)).toEqual(Array.from(p));
      }),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(10); // the generator must reach acceptance sometimes
  });
});
