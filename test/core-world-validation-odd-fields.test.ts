/**
 * validateWorld over fields of every odd type, held to a plain reference written here from the
 * world's rules (typeof guards, BigInt comparisons): the first failing rule in the fixed order is the
 * status, whatever a field holds. validateWorld itself leans on `>>>` and a catch instead of guards
 * (src/core/world.ts), so the types that make `>>>` throw (BigInt, Symbol, a throwing valueOf) and
 * the ones it converts quietly (booleans, numeric strings, null) are the cases that matter.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validateWorld } from "../src/core/world";
import { ACTIVITY_COUNT, ACTIVITY_NAMES, EXPRESSION_COUNT, EXPRESSION_NAMES, type World } from "../src/core/types";
import { validWorld } from "./core-arbitraries";

const isU32 = (x: unknown): boolean => typeof x === "number" && Number.isInteger(x) && x >= 0 && x <= 0xffffffff;
const isU64 = (x: unknown): boolean => typeof x === "object" && x !== null && isU32((x as { hi: unknown }).hi) && isU32((x as { lo: unknown }).lo);
const big = (x: { hi: number; lo: number }): bigint => (BigInt(x.hi) << 32n) | BigInt(x.lo);

/** The rules, one after the other, as the contract orders them. */
function reference(w: unknown): string {
  if (typeof w !== "object" || w === null) return "invalid-world";
  const o = w as Record<string, unknown>;
  if (!isU32(o.activity) || (o.activity as number) >= ACTIVITY_NAMES.length) return "unknown-activity";
  if (!isU32(o.expression) || (o.expression as number) >= EXPRESSION_NAMES.length) return "unknown-expression";
  const n = o.name;
  if (!(n instanceof Uint8Array) || n.length < 1 || n.length > 31 || n.includes(0)) return "bad-name";
  for (const k of ["elapsed", "updateCount", "activitySince", "expressionSince"]) if (!isU64(o[k])) return "invalid-world";
  const c = big(o.elapsed as { hi: number; lo: number });
  if (big(o.activitySince as { hi: number; lo: number }) > c || big(o.expressionSince as { hi: number; lo: number }) > c) return "invalid-world";
  return "ok";
}

/** Values of every kind a field could be given by mistake. */
const odd = fc.constantFrom<unknown>(
  undefined, null, true, false, 0, 1, 2, 4, 5, 6, -1, -0, 1.5, NaN, Infinity, 2 ** 32, 2 ** 32 - 1, "1", "0", "", "abc",
  1n, Symbol("s"), {}, [], [1], { valueOf: () => 1 }, { valueOf: () => { throw new Error("no"); } }, new Uint8Array([65]),
);
const oddU64 = fc.oneof(
  odd,
  fc.record({ hi: odd, lo: odd }),
  fc.record({ hi: fc.constantFrom(0, 1, 0xffffffff), lo: odd }),
  fc.record({ hi: odd, lo: fc.constantFrom(0, 7) }),
);
const oddName = fc.oneof(odd, fc.uint8Array({ minLength: 0, maxLength: 33 }));

/** A valid world with some of its fields replaced by odd values. */
const spoiled = fc
  .record({
    w: validWorld,
    activity: fc.option(odd, { nil: undefined, freq: 2 }),
    expression: fc.option(odd, { nil: undefined, freq: 2 }),
    name: fc.option(oddName, { nil: undefined, freq: 2 }),
    u64s: fc.array(fc.tuple(fc.constantFrom("elapsed", "updateCount", "activitySince", "expressionSince"), oddU64), { maxLength: 2 }),
  })
  .map(({ w, activity, expression, name, u64s }) => {
    const o = { ...w } as Record<string, unknown>;
    if (activity !== undefined) o.activity = activity;
    if (expression !== undefined) o.expression = expression;
    if (name !== undefined) o.name = name;
    for (const [k, v] of u64s) o[k] = v;
    return o;
  });

describe("validateWorld names the first broken rule whatever a field holds", () => {
  it("agrees with the plain reference over worlds with odd fields", () => {
    const seen: Record<string, number> = {};
    fc.assert(
      fc.property(spoiled, (o) => {
        const status = validateWorld(o as unknown as World);
        expect(status).toBe(reference(o));
        seen[status] = (seen[status] ?? 0) + 1;
      }),
      { numRuns: 5000 },
    );
    // Every status was reached, the quiet conversions and the throwing types among them.
    for (const s of ["ok", "unknown-activity", "unknown-expression", "bad-name", "invalid-world"]) expect(seen[s] ?? 0).toBeGreaterThan(50);
  });

  it("never throws: a BigInt or Symbol anywhere, a field whose getter throws, a world that is not an object", () => {
    const base = (): Record<string, unknown> => ({
      activity: 1, expression: 2, name: new Uint8Array([80]),
      elapsed: { hi: 0, lo: 9 }, updateCount: { hi: 0, lo: 1 }, activitySince: { hi: 0, lo: 1 }, expressionSince: { hi: 0, lo: 2 },
    });
    expect(validateWorld(base() as unknown as World)).toBe("ok");
    expect(validateWorld({ ...base(), activity: 1n } as unknown as World)).toBe("unknown-activity");
    expect(validateWorld({ ...base(), expression: Symbol("x") } as unknown as World)).toBe("unknown-expression");
    expect(validateWorld({ ...base(), activity: true } as unknown as World)).toBe("unknown-activity");
    expect(validateWorld({ ...base(), elapsed: { hi: 0n, lo: 9 } } as unknown as World)).toBe("invalid-world");
    expect(validateWorld({ ...base(), updateCount: null } as unknown as World)).toBe("invalid-world");
    expect(validateWorld({ ...base(), updateCount: { hi: "0", lo: 1 } } as unknown as World)).toBe("invalid-world");
    const throwing = base();
    Object.defineProperty(throwing, "elapsed", { get: () => { throw new Error("no"); } });
    expect(validateWorld(throwing as unknown as World)).toBe("invalid-world");
    for (const w of [null, undefined, 5, "w", 1n]) expect(validateWorld(w as unknown as World)).toBe("invalid-world");
  });

  it("the counts the checks use are the names' lengths", () => {
    expect(ACTIVITY_COUNT).toBe(ACTIVITY_NAMES.length);
    expect(EXPRESSION_COUNT).toBe(EXPRESSION_NAMES.length);
  });
});
