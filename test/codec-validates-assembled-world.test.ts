/**
 * The last acceptance step judges the world as the load assembles it, with the absence already added
 * to the clock, not the stored fields. So a since stamp a little past the stored elapsed is accepted
 * exactly when the absence reaches it, and rejected as invalid-world without a wall clock.
 * Payloads are built here with Buffer and zlib.crc32 (saveWorld refuses such worlds), and the
 * expected verdict is computed with BigInt, independently of the codec's u64 halves.
 */
import { crc32 as zlibCrc32 } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadWorld, saveWorld } from "../src/save/codec";
import type { World } from "../src/core/types";
import { clockBig, fromBig, toBig, U64_MAX_BIG } from "./core-arbitraries";

const SEVEN_DAYS = 604800000n;
const SAVED = 1767225600000n; // 2026-01-01T00:00:00Z

interface Fields {
  elapsed: bigint;
  savedAt: bigint;
  activitySince: bigint;
  expressionSince: bigint;
}

/** A payload for pet "Mo" (eating, happy, 7 updates) with the given clock fields and a correct CRC. */
function payload(f: Fields): Uint8Array {
  const p = Buffer.alloc(84);
  p.write("PETS", 0, "latin1");
  p.writeUInt16LE(1, 4);
  p.writeBigUInt64LE(f.elapsed, 6);
  p.writeBigUInt64LE(7n, 14);
  p.writeBigUInt64LE(f.savedAt, 22);
  p[30] = 2;
  p[31] = 1;
  p.writeBigUInt64LE(f.activitySince, 32);
  p.writeBigUInt64LE(f.expressionSince, 40);
  p[48] = 2;
  p.write("Mo", 49, "latin1");
  p.writeUInt32LE(zlibCrc32(p.subarray(0, 80)), 80);
  return new Uint8Array(p);
}

/** The absence the contract defines, in BigInt. */
function absenceOf(savedAt: bigint, now: bigint): bigint {
  if (savedAt === 0n || now === 0n || now <= savedAt) return 0n;
  return now - savedAt < SEVEN_DAYS ? now - savedAt : SEVEN_DAYS;
}

function destination(): World {
  return {
    name: new Uint8Array([0x44]),
    activity: 4,
    expression: 5,
    activitySince: { hi: 0, lo: 1 },
    expressionSince: { hi: 0, lo: 2 },
    elapsed: { hi: 0, lo: 3 },
    updateCount: { hi: 0, lo: 4 },
  };
}

const snapshot = (w: World): string => JSON.stringify({ ...w, name: Array.from(w.name) });

describe("the state check runs on the world with the absence added", () => {
  const ELAPSED = 10000n;
  const AWAY = 5000n; // now - savedAt
  const NOW = fromBig(SAVED + AWAY);

  for (const which of ["activitySince", "expressionSince"] as const) {
    describe(which, () => {
      const at = (since: bigint): Uint8Array =>
        payload({ elapsed: ELAPSED, savedAt: SAVED, activitySince: 0n, expressionSince: 0n, [which]: since });

      it("equal to elapsed + absence: accepted, clock moved on, stamp kept", () => {
        const r = loadWorld(at(ELAPSED + AWAY), NOW);
        expect(r.status).toBe("ok");
        expect(r.absenceMs).toBe(Number(AWAY));
        expect(toBig(r.world!.elapsed)).toBe(ELAPSED + AWAY);
        expect(toBig(r.world![which])).toBe(ELAPSED + AWAY);
      });

      it("one past elapsed + absence: invalid-world, destination untouched", () => {
        const into = destination();
        const before = snapshot(into);
        const r = loadWorld(at(ELAPSED + AWAY + 1n), NOW, into);
        expect(r.status).toBe("invalid-world");
        expect(r.world).toBeNull();
        expect(r.absenceMs).toBe(0);
        expect(snapshot(into)).toBe(before);
      });

      it("past the stored elapsed with no wall clock (or one that did not move): invalid-world", () => {
        const bytes = at(ELAPSED + 1n);
        expect(loadWorld(bytes, 0).status).toBe("invalid-world");
        expect(loadWorld(bytes, fromBig(SAVED)).status).toBe("invalid-world");
        expect(loadWorld(bytes, fromBig(SAVED - 1n)).status).toBe("invalid-world");
        expect(loadWorld(bytes, fromBig(SAVED + 1n)).status).toBe("ok");
      });
    });
  }

  it("a payload saved without a clock gets no absence, so a stamp past elapsed never loads", () => {
    const bytes = payload({ elapsed: ELAPSED, savedAt: 0n, activitySince: ELAPSED + 1n, expressionSince: 0n });
    expect(loadWorld(bytes, fromBig(SAVED + AWAY)).status).toBe("invalid-world");
  });

  it("the seven-day clamp bounds how far past elapsed a stamp may be", () => {
    const farLater = fromBig(SAVED + 30n * 86400000n);
    const edge = payload({ elapsed: ELAPSED, savedAt: SAVED, activitySince: ELAPSED + SEVEN_DAYS, expressionSince: 0n });
    const over = payload({ elapsed: ELAPSED, savedAt: SAVED, activitySince: ELAPSED + SEVEN_DAYS + 1n, expressionSince: 0n });
    expect(loadWorld(edge, farLater).status).toBe("ok");
    expect(loadWorld(over, farLater).status).toBe("invalid-world");
  });

  it("at the top of the clock: elapsed + absence landing on 2^64 - 1 admits a stamp of 2^64 - 1", () => {
    const bytes = payload({ elapsed: U64_MAX_BIG - 100n, savedAt: SAVED, activitySince: U64_MAX_BIG, expressionSince: U64_MAX_BIG });
    expect(loadWorld(bytes, fromBig(SAVED + 99n)).status).toBe("invalid-world");
    const r = loadWorld(bytes, fromBig(SAVED + 100n));
    expect(r.status).toBe("ok");
    expect(toBig(r.world!.elapsed)).toBe(U64_MAX_BIG);
    expect(loadWorld(bytes, fromBig(SAVED + 101n)).status).toBe("clock-overflow");
  });

  it("a world accepted this way is a normal world: it saves, and that save loads with no clock", () => {
    const r = loadWorld(payload({ elapsed: ELAPSED, savedAt: SAVED, activitySince: ELAPSED + AWAY, expressionSince: ELAPSED + 1n }), NOW);
    expect(r.status).toBe("ok");
    const saved = saveWorld(r.world!, NOW);
    expect(saved.status).toBe("ok");
    const again = loadWorld(saved.bytes!, 0);
    expect(again.status).toBe("ok");
    expect(toBig(again.world!.elapsed)).toBe(ELAPSED + AWAY);
  });

  it("for any clocks: ok exactly when both stamps are at or before elapsed + absence", () => {
    // Stamps are drawn around the stored elapsed and around elapsed + absence so both edges are hit.
    const near = (base: bigint) => fc.integer({ min: -2, max: 2 }).map((d) => base + BigInt(d));
    const caseArb = fc
      .record({
        elapsed: fc.oneof(clockBig, fc.bigInt({ min: 0n, max: 1n << 40n })),
        savedAt: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 1n << 41n })),
        away: fc.oneof(fc.constant(0n), fc.bigInt({ min: -5n, max: 5n }), fc.bigInt({ min: 1n, max: 2n * SEVEN_DAYS })),
        nowUnknown: fc.boolean(),
        pickA: fc.nat(3),
        pickE: fc.nat(3),
      })
      .chain((r) => {
        const now = r.nowUnknown ? 0n : r.savedAt + r.away < 0n ? 0n : r.savedAt + r.away;
        const top = r.elapsed + absenceOf(r.savedAt, now);
        const stamp = (pick: number): fc.Arbitrary<bigint> =>
          [near(r.elapsed), near(top), near(top), clockBig][pick] as fc.Arbitrary<bigint>;
        return fc.tuple(stamp(r.pickA), stamp(r.pickE)).map(([a, e]) => ({ ...r, now, a, e }));
      });
    let acceptedAboveStored = 0;
    let rejectedInWindow = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const clamp = (v: bigint): bigint => (v < 0n ? 0n : v > U64_MAX_BIG ? U64_MAX_BIG : v);
        const a = clamp(c.a);
        const e = clamp(c.e);
        const top = c.elapsed + absenceOf(c.savedAt, c.now);
        const r = loadWorld(payload({ elapsed: c.elapsed, savedAt: c.savedAt, activitySince: a, expressionSince: e }), fromBig(c.now));
        if (top > U64_MAX_BIG) {
          expect(r.status).toBe("clock-overflow");
          return;
        }
        const expected = a <= top && e <= top ? "ok" : "invalid-world";
        expect(r.status).toBe(expected);
        if (expected === "ok" && (a > c.elapsed || e > c.elapsed)) acceptedAboveStored++;
        if (expected !== "ok" && a <= c.elapsed + SEVEN_DAYS && a > top) rejectedInWindow++;
      }),
      { numRuns: 2000 },
    );
    // The generator must reach both sides of the new edge, or the property proves little.
    expect(acceptedAboveStored).toBeGreaterThan(50);
    expect(rejectedInWindow).toBeGreaterThan(50);
  });
});
