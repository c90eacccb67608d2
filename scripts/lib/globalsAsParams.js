/**
 * Hands the interpreter's most used globals to the bundle's outer function as its first parameters:
 *
 *   !function(){...}();   =>   !function(E,Uint8Array,Math,DataView,String){...}(E',Uint8Array,Math,DataView,String);
 *
 * Why: Espruino finds a name by walking the scopes from the inside out, and each scope is a list
 * searched in order. A global such as `Math` or `E` is found only after every name of the bundle's
 * top scope (over a hundred: terser puts all the modules' functions and constants there) has been
 * compared and missed, and then the root scope: about 15 000 x86 instructions a use on the Linux
 * build, where a function's first parameter costs about 2 000 (docs/firmware.md, "Speed on the
 * interpreter"). The hot paths use these five often (E.CRC32, E.sum, new Uint8Array, Math.round,
 * new DataView). `E` is passed as `typeof E` allows (a host without it gets undefined, which the
 * code's own guards expect). Runs after terser and hoist.js, on the bundle's final text. A bundle
 * with no outer function (terser unwraps an iife with nothing inside worth a scope, as in the tests'
 * tiny stand-in firmware) has no top scope to walk and is left as it is; it refuses a bundle that
 * starts like terser's iife but is not one, or whose top scope declares one of the names.
 */
import { parse } from "acorn";

/** The globals passed, most used first (the parameters are searched in this order). */
export const GLOBALS_AS_PARAMS = ["E", "Uint8Array", "Math", "DataView", "String"];

const HEAD = "!function(){";
const TAIL = "}();";

/** The bundle's code with GLOBALS_AS_PARAMS as its outer function's parameters. Throws on an unexpected shape. */
export function globalsAsParams(code) {
  const text = code.replace(/\s+$/, "");
  if (!text.startsWith(HEAD)) return code;
  if (!text.endsWith(TAIL)) throw new Error("globalsAsParams: the bundle is not one !function(){...}(); as terser writes an iife");
  const ast = parse(text, { ecmaVersion: 5, sourceType: "script" });
  if (ast.body.length !== 1) throw new Error("globalsAsParams: the bundle has more than one top-level statement");
  const fn = ast.body[0].expression.argument.callee;
  const declared = new Set();
  for (const st of fn.body.body) {
    if (st.type === "FunctionDeclaration") declared.add(st.id.name);
    if (st.type === "VariableDeclaration") for (const d of st.declarations) declared.add(d.id.name);
  }
  const clash = GLOBALS_AS_PARAMS.filter((n) => declared.has(n));
  if (clash.length > 0) throw new Error("globalsAsParams: the bundle's top scope declares " + clash.join(", "));
  const args = GLOBALS_AS_PARAMS.map((n) => (n === "E" ? '"undefined"!=typeof E?E:void 0' : n));
  return "!function(" + GLOBALS_AS_PARAMS.join(",") + "){" + text.slice(HEAD.length, text.length - TAIL.length) + "}(" + args.join(",") + ");\n";
}

export function globalsAsParamsPlugin() {
  return {
    name: "espruino-globals-as-params",
    renderChunk(code) {
      return { code: globalsAsParams(code), map: null };
    },
  };
}
