/**
 * Damage is always caught and never half-applied: every single-bit flip of a valid payload is
 * rejected, random bytes of any length never make loadWorld throw, and after any rejection the
 * caller's destination world is exactly as it was.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadWorld, saveWorld } from "../src/save/codec";
import { hexToBytes } from "../src/core/hex";
import type { World } from "../src/core/types";
import { validWorld } from "./core-arbitraries";

const GOLDEN_UTF8 = hexToBytes(
  readFileSync(fileURLToPath(new URL("./golden/valid-utf8-name.hex", import.meta.url)), "utf8").trim(),
) as Uint8Array;

function destination(): World {
  return {
    name: new Uint8Array([0x44, 0x65, 0x73, 0x74]),
    activity: 3,
    expression: 4,
    activitySince: { hi: 1, lo: 2 },
    expressionSince: { hi: 1, lo: 3 },
    elapsed: { hi: 5, lo: 6 },
    updateCount: { hi: 7, lo: 8 },
  };
}

/** A deep, plain snapshot of a world to compare before and after. */
function snapshot(w: World): unknown {
  return JSON.stringify({ ...w, name: Array.from(w.name) });
}

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[bit >> 3] = (copy[bit >> 3] as number) ^ (1 << (bit & 7));
  return copy;
}

describe("single-bit damage", () => {
  it("each of the 672 bit flips of the golden UTF-8 payload is rejected and changes nothing", () => {
    expect(loadWorld(GOLDEN_UTF8, 0).status).toBe("ok");
    const into = destination();
    const before = snapshot(into);
    const names = new Set<string>();
    for (let bit = 0; bit < 84 * 8; bit++) {
      const r = loadWorld(flipBit(GOLDEN_UTF8, bit), 0, into);
      expect(r.status, "bit " + bit).not.toBe("ok");
      expect(r.world).toBeNull();
      names.add(r.status);
    }
    expect(snapshot(into)).toBe(before);
    // Flips in the magic, the version and the data are caught by different checks.
    expect([...names].sort()).toEqual(["bad-checksum", "bad-magic", "unsupported-version"]);
  });

  it("a random bit flip of a random valid payload is rejected", () => {
    fc.assert(
      fc.property(validWorld, fc.nat({ max: 84 * 8 - 1 }), fc.maxSafeNat(), (world, bit, now) => {
        const bytes = saveWorld(world, 0).bytes!;
        const into = destination();
        const before = snapshot(into);
        expect(loadWorld(flipBit(bytes, bit), now, into).status).not.toBe("ok");
        expect(snapshot(into)).toBe(before);
      }),
      { numRuns: 500 },
    );
  });
});

describe("junk input", () => {
  it("random bytes of length 0..200 never throw and never change the destination", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 200 }),
        fc.oneof(fc.constant(0), fc.maxSafeNat(), fc.double()),
        fc.boolean(),
        (bytes, now, withHeader) => {
          // Half the time give it a real header so the later checks are reached too.
          if (withHeader && bytes.length >= 6) bytes.set([0x50, 0x45, 0x54, 0x53, 1, 0], 0);
          const into = destination();
          const before = snapshot(into);
          const r = loadWorld(bytes, now, into);
          if (r.status !== "ok") {
            expect(snapshot(into)).toBe(before);
            expect(r.world).toBeNull();
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["a number", 84],
    ["a string", "PETS\u0001\u0000"],
    ["a plain array", [0x50, 0x45, 0x54, 0x53, 1, 0]],
    ["an array-like object", { length: 84 }],
    ["an ArrayBuffer", new ArrayBuffer(84)],
  ])("rejects %s as too-short without throwing", (_title, junk) => {
    const into = destination();
    const before = snapshot(into);
    const r = loadWorld(junk as unknown as Uint8Array, 0, into);
    expect(r.status).toBe("too-short");
    expect(snapshot(into)).toBe(before);
  });

  it("saveWorld refuses junk worlds and save stamps with a status instead of throwing", () => {
    const good = destination();
    good.activitySince = { hi: 0, lo: 0 };
    good.expressionSince = { hi: 0, lo: 0 };
    expect(saveWorld(good, 0).status).toBe("ok");
    expect(saveWorld(null as unknown as World, 0)).toEqual({ status: "invalid-world", bytes: null });
    expect(saveWorld({ ...good, activity: 5 }, 0).status).toBe("unknown-activity");
    expect(saveWorld({ ...good, expression: -1 }, 0).status).toBe("unknown-expression");
    expect(saveWorld({ ...good, name: new Uint8Array(0) }, 0).status).toBe("bad-name");
    expect(saveWorld({ ...good, name: new Uint8Array(32).fill(65) }, 0).status).toBe("bad-name");
    expect(saveWorld({ ...good, activitySince: { hi: 6, lo: 0 } }, 0).status).toBe("invalid-world");
    expect(saveWorld({ ...good, elapsed: { hi: 2 ** 32, lo: 0 } }, 0).status).toBe("invalid-world");
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "5", null, { hi: 0 }, { hi: 0, lo: 1.5 }]) {
      expect(saveWorld(good, bad as number)).toEqual({ status: "bad-saved-at", bytes: null });
    }
    // Espruino's Date.now() has a fractional part: it is dropped, not refused.
    const fractional = saveWorld(good, 1000.9);
    expect(fractional.status).toBe("ok");
    expect(Buffer.from(fractional.bytes!).readBigUInt64LE(22)).toBe(1000n);
  });
});
