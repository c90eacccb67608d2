/**
 * hoistVars (scripts/lib/hoist.js) puts every var first in its function without changing what the
 * code computes, so the declaration-order check passes on output that terser leaves unhoisted.
 */
import { describe, expect, it } from "vitest";
import { hoistVars, parenthesizeIndexSequences } from "../scripts/lib/hoist.js";
import { checkBundle, checkDeclarationOrder, parseEs5 } from "../scripts/lib/bundleCheck.js";

function run(code: string): unknown {
  return new Function(code + "\nreturn main();")();
}

const SAMPLES = [
  // terser's inlining leaves `return ...; var n, r` behind
  "function main(){ return (n = 3, r = 4, n * r); var n, r; }",
  // single var statement after a call and a branch
  "function f(){ return 2; } function main(){ if (f() > 5) return null; var t = f() * 10; return t; }",
  // a var joined after a call in the same statement, declarators without values in the middle and at the end
  "function g(){ return 5; } function main(){ var a = g(), b, c = a + 1, d, e; b = c; return [a, b, c, d, e]; }",
  // for and for-in loop variables, nested functions with their own vars, a parameter redeclared
  "function main(){ var s = 0; for (var i = 0, j; i < 4; i++) s += i; var o = {x: 1, y: 2}, keys = []; for (var k in o) keys.push(k); var h = function (p) { var p = p + 1, q = 2; return p * q; }; return [s, i, j, keys, h(3), k]; }",
  // declaration only, never assigned
  "function main(){ var u; return typeof u; }",
];

describe("hoistVars", () => {
  it.each(SAMPLES)("keeps the result of %s", (code) => {
    expect(run(hoistVars(code))).toEqual(run(code));
  });

  it.each(SAMPLES)("leaves no declaration after use in %s", (code) => {
    const out = hoistVars(code);
    expect(parseEs5(out).error).toBeNull();
    expect(checkDeclarationOrder(parseEs5(out).ast!)).toEqual([]);
  });

  it("the samples really are out of order before the pass (the check can fail)", () => {
    const bad = SAMPLES.filter((code) => checkDeclarationOrder(parseEs5(code).ast!).length > 0);
    expect(bad.length).toBeGreaterThanOrEqual(3);
  });
});

describe("comma expressions used as an index get parentheses", () => {
  it("wraps them, leaves other indexes alone, and the result still parses and runs the same", () => {

    const code = "var a = [5, 6, 7], y, g; g = a[y = 1, y + 1] + a[0] + a[(y, 0)];";
    const out = parenthesizeIndexSequences(code);
    expect(out).toBe("var a = [5, 6, 7], y, g; g = a[(y = 1, y + 1)] + a[0] + a[(y, 0)];");
    expect(checkBundle(out)).toEqual([]);
    expect(checkBundle(code).map((f) => f.kind)).toContain("sequence-index");
    // eslint-disable-next-line no-new-func
    expect(new Function(code + " return g;")()).toBe(new Function(out + " return g;")());
  });
});
