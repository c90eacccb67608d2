/**
 * The entry's call written into the outer block (scripts/lib/entryInBlock.js): the last statement's
 * function expression called at once becomes statements of the block, its own names renamed to names
 * the bundle does not have, with the same results; code it cannot rewrite safely is left as it is;
 * and the ESP32 bundle ends in the entry's statements, not a call.
 */
import { describe, expect, it } from "vitest";
import { entryInBlock } from "../scripts/lib/entryInBlock.js";
import { toOuterBlock } from "../scripts/lib/outerBlock.js";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";
import { parse } from "acorn";
import { join } from "node:path";

/** An outer block as the build makes it, from the ES5 body of terser's iife. */
const block = (body: string): string => toOuterBlock("!function(){" + body + "}();");

/** What the code leaves in `out` when run. */
function run(code: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  new Function("out", code)(out);
  return out;
}

/** Whether the block's last statement is (or ends in) a function expression called at once. */
function endsInCall(code: string): boolean {
  const ast = parse(code, { ecmaVersion: 2015 }) as unknown as { body: { body: { type: string; expression?: { type: string; expressions?: unknown[]; argument?: unknown } }[] }[] };
  const last = ast.body[0]!.body.at(-1)!;
  if (last.type !== "ExpressionStatement") return false;
  let e = last.expression as { type: string; expressions?: unknown[]; argument?: unknown; callee?: { type: string } };
  if (e.type === "SequenceExpression") e = e.expressions!.at(-1) as typeof e;
  if (e.type === "UnaryExpression") e = e.argument as typeof e;
  return e.type === "CallExpression" && e.callee!.type === "FunctionExpression";
}

describe("the entry's call written into the outer block", () => {
  it("runs the entry's statements in the block with the same results, closures and catches included", () => {
    const code = block(
      "var a,b,t;a=function(x){return x+1};t=function(){return 'outer'};" +
        "!function(t,e,n){var i,r;i=a(t)+e;r=function(){return i+t};try{throw 'x'}catch(t){out.c=typeof t}" +
        "b=function(t){return t*2};out.v=[i,r(),b(5),n,typeof e];out.r=r}(1,2)",
    );
    const rewritten = entryInBlock(code);
    // What a function made in the entry reads lives on after it; the rest is let go at its end.
    const after = run(rewritten) as { r: () => number };
    expect(after.r()).toBe(5);
    expect(rewritten).toMatch(/;Q1=Q2=Q4=void 0\}\n$/);
    expect(endsInCall(code)).toBe(true);
    expect(endsInCall(rewritten)).toBe(false);
    expect(JSON.stringify(run(rewritten))).toBe(JSON.stringify(run(code)));
    expect(run(rewritten)).toMatchObject({ c: "string", v: [4, 5, 10, undefined, "number"] });
    // The block's own t is untouched; the entry's names are new ones, declared with the block's.
    expect(rewritten).toMatch(/let a,b,t,Q0,Q1,Q2,Q3,Q4;/);
    expect(rewritten).toContain("t=function(){return 'outer'}");
  });

  it("keeps the statements terser joined to the call with commas, and arguments with commas of their own", () => {
    const code = block("var c,d;c=1,d=2,!function(t,e){out.v=t+e+c+d}(3,(c=10,c+1))");
    expect(run(entryInBlock(code))).toEqual(run(code));
    expect(run(code)).toEqual({ v: 3 + 11 + 10 + 2 });
    expect(endsInCall(entryInBlock(code))).toBe(false);
  });

  it("picks names no identifier of the bundle has", () => {
    const code = block("var Q0,Q1;Q0=function(){return 7};!function(t){out.v=t+Q0()}(1)");
    const rewritten = entryInBlock(code);
    expect(run(rewritten)).toEqual({ v: 8 });
    expect(rewritten).toContain("Q2=1");
  });

  it("leaves as it is an entry it cannot write into the block", () => {
    const cases = [
      "!function(t){out.v=this}(1)", // this
      "!function(t){out.v=arguments.length}(1)", // arguments
      "!function(t){if(t)return;out.v=1}(0)", // a return of its own
      "!function(t){for(var i=0;i<2;i++)out.v=i}(0)", // a var a block would scope
      "!function(t){var i=t;out.v=i}(0)", // a var with a value
      "!function f(t){out.v=typeof f}(0)", // a name of its own
      "!function(t){out.v=g();function g(){return 1}}(0)", // a declaration hoisted in the function
      "out.v=function(t){return t}(1)", // not a statement of its own
    ];
    for (const body of cases) {
      const code = block(body);
      expect(entryInBlock(code), body).toBe(code);
    }
    expect(entryInBlock("!function(){out.v=1}();")).toBe("!function(){out.v=1}();");
  });

  it("leaves the ESP32 bundle ending in the entry's statements, which the bundle checks accept", async () => {
    const built = await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null });
    expect(built.code.startsWith("{let ")).toBe(true);
    expect(endsInCall(built.code)).toBe(false);
    expect(built.code).toMatch(/Q\d+=\{petRegion:/);
  });
});
