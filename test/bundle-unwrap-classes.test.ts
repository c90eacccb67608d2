/**
 * unwrapClasses (scripts/lib/unwrapClasses.js) takes TypeScript's ES5 classes out of their wrapping
 * function, so that Espruino reads their methods once at boot instead of twice: the code must
 * compute what it computed, only the exact class shape may be unwrapped, and the firmware's two
 * classes must be.
 */
import { describe, expect, it } from "vitest";
import ts from "typescript";
import { join } from "node:path";
import { PROTOTYPE, unwrapClasses } from "../scripts/lib/unwrapClasses.js";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";

/** TypeScript's ES5 output for `source`, inside an iife as rollup writes the bundle. */
function es5(source: string): string {
  const js = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES5, module: ts.ModuleKind.None, removeComments: true } }).outputText;
  return "(function () {\n" + js + "\n})();\n";
}

function run(code: string): unknown {
  const out: { value?: unknown } = {};
  new Function("out", code)(out);
  return out.value;
}

const SOURCE = `
class Counter {
  private n: number;
  static made = 0;
  constructor(start: number) { this.n = start; Counter.made++; }
  add(k: number): number { this.n += k; return this.n; }
  get twice(): number { return this.n * 2; }
}
class Pair { a = 1; b = 2; sum(): number { return this.a + this.b; } }
function helper(c: Counter): number { return c.add(2); }
const c = new Counter(3);
out.value = [helper(c), c.twice, Counter.made, new Pair().sum(), typeof Counter, c instanceof Counter];
`;

describe("unwrapClasses", () => {
  it("unwraps the classes of TypeScript's ES5 output and computes the same", () => {
    const code = es5("declare const out: { value?: unknown };" + SOURCE);
    const r = unwrapClasses(code);
    // Counter's getter is an Object.defineProperty call, not a member assignment: it stays wrapped.
    expect(r.unwrapped).toEqual(["Pair"]);
    expect(r.code).not.toMatch(/var Pair = \(function/);
    expect(run(r.code)).toEqual(run(code));
    expect(run(r.code)).toEqual([5, 10, 1, 3, "function", true]);
  });

  it("assigns a class's methods through one lookup of its prototype, and computes the same", () => {
    const code = es5(`declare const out: { value?: unknown };
class Two { n = 1; static k = 7; inc(): number { return ++this.n; } dec(): number { return --this.n; } }
class One { f(): string { return "one"; } }
const t = new Two();
out.value = [t.inc(), t.inc(), t.dec(), Two.k, new One().f(), Object.keys(Two.prototype).sort()];`);
    const r = unwrapClasses(code);
    expect(r.unwrapped).toEqual(["Two", "One"]);
    expect(r.code).not.toMatch(/Two\.prototype\./); // every method through the variable
    expect(r.code).toContain(`(${PROTOTYPE} = Two.prototype).inc = `);
    expect(r.code).toContain(`${PROTOTYPE}.dec = `);
    // A single method is left as it was written.
    expect(r.code).toContain("One.prototype.f = ");
    expect(run(r.code)).toEqual(run(code));
    expect(run(r.code)).toEqual([2, 3, 2, 7, "one", ["dec", "inc"]]);
  });

  it("leaves a wrapper alone when it holds anything but the constructor and its members", () => {
    const shapes = [
      "var A = (function () { var secret = 1; function A() {} A.prototype.f = function () { return secret; }; return A; }());",
      "var B = (function () { function B() {} B.prototype.f = function () {}; return B; }(1));",
      "var C = (function () { function C() {} other.x = 1; return C; }());",
      "var D = (function () { function E() {} return E; }());",
      "var F = (function (_super) { function F() {} return F; }(Base));",
    ];
    for (const s of shapes) expect(unwrapClasses(s).unwrapped, s).toEqual([]);
  });

  it("unwraps the firmware's classes", async () => {
    const { unminified } = await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null });
    expect(unwrapClasses(unminified).unwrapped.sort()).toEqual(["RunningPet", "SlotLog", "SlotStore"]);
  });

  it("leaves one `.prototype` per class in the firmware bundle", async () => {
    const { code } = await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null });
    expect(code.match(/\.prototype\b/g)).toHaveLength(3);
  });
});
