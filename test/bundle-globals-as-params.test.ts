/**
 * globalsAsParams (scripts/lib/globalsAsParams.js) hands the hot globals to the bundle's outer
 * function as its first parameters, where the interpreter finds them at once, without changing what
 * the code computes; it refuses a bundle it cannot rewrite safely.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { globalsAsParams, GLOBALS_AS_PARAMS } from "../scripts/lib/globalsAsParams.js";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";

/** Runs a bundle with `E` given (or absent), answering what it left in `out`. */
function run(code: string, E?: unknown): unknown {
  const out: { value?: unknown } = {};
  const fn = E === undefined ? new Function("out", code) : new Function("out", "E", code);
  fn(out, E);
  return out.value;
}

const SAMPLE = '!function(){var n;function f(b){return Math.round(b[1]/2)+String(new DataView(b.buffer).getUint8(0))}n=new Uint8Array([7,5]);out.value=[f(n),typeof E!=="undefined"&&E?E.k:"no E"]}();';

describe("globalsAsParams", () => {
  it("passes the globals as the outer function's first parameters, in the order given", () => {
    const out = globalsAsParams(SAMPLE);
    expect(out.startsWith("!function(" + GLOBALS_AS_PARAMS.join(",") + "){")).toBe(true);
    expect(out.trimEnd().endsWith("}(\"undefined\"!=typeof E?E:void 0," + GLOBALS_AS_PARAMS.slice(1).join(",") + ");")).toBe(true);
  });

  it("computes what the bundle computed, with E and without it", () => {
    expect(run(globalsAsParams(SAMPLE), { k: 42 })).toEqual(run(SAMPLE, { k: 42 }));
    expect(run(globalsAsParams(SAMPLE), { k: 42 })).toEqual(["37", 42]);
    expect(run(globalsAsParams(SAMPLE))).toEqual(run(SAMPLE));
    expect(run(globalsAsParams(SAMPLE))).toEqual(["37", "no E"]);
  });

  it("refuses a bundle of another shape, or one whose top scope declares one of the names", () => {
    expect(() => globalsAsParams("!function(){var a=1}();x()")).toThrow(/iife/);
    expect(() => globalsAsParams("!function(){var a=1}();var b;!function(){}();")).toThrow();
    expect(() => globalsAsParams("!function(){var Math=1;out.value=Math}();")).toThrow(/declares Math/);
    expect(() => globalsAsParams("!function(){function E(){}}();")).toThrow(/declares E/);
  });

  it("leaves a bundle with no outer function as it is", () => {
    expect(globalsAsParams('print("tiny firmware booted");')).toBe('print("tiny firmware booted");');
  });

  it("is applied to the firmware bundle", async () => {
    const { code } = await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null });
    expect(code.startsWith("!function(" + GLOBALS_AS_PARAMS.join(",") + "){")).toBe(true);
  });
});
