/**
 * The bundle as the upload sends it is pretokenised (src/boards/pretokenise.ts): each keyword and
 * multi-character operator one byte, Espruino's token number for it. Held here against independent
 * code: acorn's tokenizer must read the same tokens from the bundle as built and from the sent bytes
 * spelled out again, for every profile whose bundle runs on Espruino; the token numbers must be the
 * ones Espruino's tools use (EspruinoTools' pretokenise plugin, in the `espruino` package); and the
 * cases the tokeniser must leave alone or space apart are pinned one by one.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as acorn from "acorn";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";
import { es5Tokens, pretokenise, untokenise } from "../src/boards/pretokenise";

/** acorn's tokens of `code`, as their texts. */
function acornTokens(code: string): string[] {
  return [...acorn.tokenizer(code, { ecmaVersion: 5 })].map((t) => code.slice(t.start, t.end));
}

/** The token table of EspruinoTools' plugin: its first operator number and its list, read from its source. */
function espruinoToolsTokens(): { start: number; list: string[] } {
  const src = readFileSync(join(ROOT, "node_modules", "espruino", "plugins", "pretokenise.js"), "utf8");
  const start = Number(/LEX_OPERATOR_START\s*=\s*(\d+)/.exec(src)![1]);
  const table = src.slice(src.indexOf("var TOKENS"), src.indexOf("];", src.indexOf("var TOKENS")));
  const list = [...table.replace(/\/\*[\s\S]*?\*\//g, "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  return { start, list };
}

const ESPRUINO_PROFILES = ["esp32.json", "linux-esp32.json", "linux.json"];

describe("every Espruino profile's bundle, pretokenised", () => {
  const bundles: Record<string, string> = {};
  beforeAll(async () => {
    for (const p of ESPRUINO_PROFILES) bundles[p] = (await buildFirmware({ board: join(ROOT, "boards", p), outFile: null })).code;
  });

  it.each(ESPRUINO_PROFILES)("%s: acorn reads the same tokens from the bundle and from the sent bytes spelled out", (p) => {
    const code = bundles[p]!;
    const sent = pretokenise(code);
    expect(acornTokens(untokenise(sent))).toEqual(acornTokens(code));
    // The tokeniser's own reading agrees with acorn's, token for token (its regular-expression guess included).
    expect(es5Tokens(code).map((t) => t.text)).toEqual(acornTokens(code));
    // One byte a character, and shorter by at least a sixth.
    expect(/^[\x00-\xff]*$/.test(sent)).toBe(true);
    expect(sent.length).toBeLessThan(code.length * (5 / 6));
  });

  it.each(ESPRUINO_PROFILES)("%s: every keyword and operator outside a property name is a byte", (p) => {
    const sent = pretokenise(bundles[p]!);
    const words = /\b(?:function|return|var|this|typeof|null|new|if|for|try)\b/.exec(sent.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""'));
    expect(words).toBeNull();
    expect(sent).not.toMatch(/===|!==|&&|\|\|/);
  });
});

describe("the token numbers", () => {
  it("are EspruinoTools' (Espruino's own LEX_ numbers, the same from 2v06 to now)", () => {
    const tools = espruinoToolsTokens();
    expect(tools.start).toBe(138);
    expect(tools.list.slice(0, 30)).toEqual(["==", "===", "!=", "!==", "<=", "<<", "<<=", ">=", ">>", ">>>", ">>=", ">>>=", "+=", "-=", "++", "--", "*=", "/=", "%=", "&=", "&&", "|=", "||", "^=", "=>", "if", "else", "do", "while", "for"]);
    // Each word and operator that becomes a byte becomes the byte of its place in that list.
    for (const [i, text] of tools.list.entries()) {
      if (["catch", "undefined", "=>"].includes(text) || i >= tools.list.indexOf("debugger")) continue;
      const code = text === "=>" ? "" : /^[a-z]+$/.test(text) ? "x;" + text + " y" : "x" + text + "y";
      const sent = pretokenise(code);
      expect(sent.indexOf(String.fromCharCode(tools.start + i)), text).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("what stays text, and what keeps a space", () => {
  const cases: [string, string][] = [
    ["a.default=b.this", "a.default=b.this"],
    ['x={default:1,"case":2,null:3}', 'x={default:1,"case":2,null:3}'],
    ["try{f()}catch(e){}", "\xb1{f()}catch(e){}"],
    ["a- -b", "a- -b"],
    ["a+ +b", "a+ +b"],
    ["a- --b", "a-\x99b"],
    ["1 .toString()", "1 .toString()"],
    ['s="return this"', 's="return this"'],
    ["x=undefined", "x=undefined"],
    ["return/a b/g.test(s)", "\xab/a b/g.test(s)"],
    ["x=(a)/b/c", "x=(a)/b/c"],
    ["x=[/]/,/\\//]", "x=[/]/,/\\//]"],
    ["var a=1;a+=2", "\xaca=1;a\x96" + "2"],
    ["typeof a", "\xbfa"],
    ["if(a===b)c()", "\xa3(a\x8bb)c()"],
  ];
  it.each(cases)("%s", (code, want) => {
    expect(pretokenise(code)).toBe(want);
    expect(acornTokens(untokenise(pretokenise(code)))).toEqual(acornTokens(code));
  });

  it("refuses what ES5 output does not hold", () => {
    expect(() => pretokenise("x=`a`")).toThrow(/template/);
    expect(() => pretokenise('x="a')).toThrow(/unfinished string/);
    expect(() => pretokenise("x=\\u0061")).toThrow(/outside ES5/);
  });
});
