/**
 * toOuterBlock (scripts/lib/outerBlock.js) turns the bundle's outer function into a block of lets,
 * read once at boot instead of twice, with the hot globals as the block's first names: the code
 * must compute what it computed, only free references to the globals may be renamed, the bundle's
 * names must stay out of the global scope, and fromOuterBlock must give the ES5 form back exactly
 * (the bundle checks run on that form).
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { fromOuterBlock, HOT_GLOBALS, toOuterBlock } from "../scripts/lib/outerBlock.js";
import { checkBundle } from "../scripts/lib/bundleCheck.js";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";

/** Runs a bundle in a fresh function scope with `out` and optionally `E`; answers what it left in `out`. */
function run(code: string, E?: unknown): unknown {
  const out: { value?: unknown } = {};
  const fn = E === undefined ? new Function("out", code) : new Function("out", "E", code);
  fn(out, E);
  return out.value;
}

const SAMPLES = [
  // functions calling functions declared later, vars assigned after, hot globals in several places
  '!function(){var n,r;function f(b){return $M(b)+String(new DataView(b.buffer).getUint8(0))}function $M(b){return Math.round(b[1]/2)}n=new Uint8Array([7,5]);r=typeof E!=="undefined"&&E?E.k:"no E";out.value=[f(n),r]}();',
  // locals named like the globals: a parameter, a var, a catch name, a function expression's own name
  '!function(){function f(E){return E.x+Math.max(1,2)}function g(){var Math;try{throw 4}catch(String){Math=String}return Math}var h=function DataView(){return typeof DataView};out.value=[f({x:1}),g(),h(),typeof E]}();',
  // a closure over the outer names, kept after the outer scope has run
  '!function(){var c=0;function inc(){c++;return c}out.value=function(){return inc()+inc()}}();',
];

describe("toOuterBlock", () => {
  it.each(SAMPLES)("computes what the iife computed, with E and without it: %s", (code) => {
    const block = toOuterBlock(code);
    const value = (x: unknown): unknown => (typeof x === "function" ? (x as () => unknown)() : x);
    expect(value(run(block, { k: 42 }))).toEqual(value(run(code, { k: 42 })));
    expect(value(run(block))).toEqual(value(run(code)));
  });

  it("starts with the hot globals and renames only free references to them", () => {
    const block = toOuterBlock(SAMPLES[1]!);
    expect(block.startsWith("{let " + HOT_GLOBALS.map(([g, l]) => l + "=" + (g === "E" ? '"undefined"!=typeof E?E:void 0' : g)).join(",") + ";")).toBe(true);
    expect(block).toContain("function(E){return E.x+$$M.max(1,2)}"); // the parameter E stays, Math is renamed
    expect(block).toContain("catch(String){Math=String}"); // the local Math and the catch name stay
    expect(block).toContain("typeof $$E"); // the free E is renamed
  });

  it("keeps the outer names out of the global scope", () => {
    const g = globalThis as Record<string, unknown>;
    new Function(toOuterBlock('!function(){var leakTest1=1;function leakTest2(){}out=leakTest1}();').replace("out=", "var out="))();
    expect(g.leakTest1).toBeUndefined();
    expect(g.leakTest2).toBeUndefined();
  });

  it("is undone exactly by fromOuterBlock", () => {
    for (const code of SAMPLES) {
      expect(fromOuterBlock(toOuterBlock(code))).toBe(code + "\n");
      expect(toOuterBlock(fromOuterBlock(toOuterBlock(code)))).toBe(toOuterBlock(code));
    }
  });

  it("leaves a bundle with no outer function as it is, and refuses what it cannot rewrite safely", () => {
    expect(toOuterBlock('print("tiny firmware booted");')).toBe('print("tiny firmware booted");');
    expect(() => toOuterBlock("!function(){var a=1}();x()")).toThrow(/iife/);
    expect(() => toOuterBlock("!function(a){var b=1}();")).toThrow(/parameters/);
    expect(() => toOuterBlock("!function(){var Math=1;out.value=Math}();")).toThrow(/declares Math/);
    expect(() => toOuterBlock("!function(){function E(){}}();")).toThrow(/declares E/);
    expect(() => toOuterBlock("!function(){var $$M=1}();")).toThrow(/\$\$M/);
  });
});

describe("the bundle checks on an outer block", () => {
  it("pass the block the build makes of clean ES5", () => {
    expect(checkBundle(toOuterBlock(SAMPLES[0]!))).toEqual([]);
  });
  it("refuse a block with anything of ES2015 the build does not write", () => {
    const block = toOuterBlock(SAMPLES[0]!);
    expect(checkBundle(block.replace("let n,r;", "let n,r;const z=1;")).map((f) => f.kind)).toContain("parse");
    expect(checkBundle(block.replace("n=new", "n=(()=>1)(),n=new")).map((f) => f.kind)).toContain("parse");
    expect(checkBundle(block.replace("{let $$E", "{let $$X=1;let $$E")).map((f) => f.kind)).toContain("parse");
  });
});

describe.each(["esp32", "linux"])("the firmware bundle for %s", (board) => {
  it("is an outer block whose ES5 form passes every check", async () => {
    const { code } = await buildFirmware({ board: join(ROOT, "boards", board + ".json"), outFile: null });
    expect(code.startsWith("{let $$E=")).toBe(true);
    const es5 = fromOuterBlock(code);
    expect(es5.startsWith("!function(){")).toBe(true);
    expect(toOuterBlock(es5)).toBe(code);
    expect(checkBundle(code)).toEqual([]);
  });
});
