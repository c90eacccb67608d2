/**
 * The function form keeps its long string literals out of its code (src/boards/bodyTexts.ts): each
 * becomes a call that reads the text back from the comment the body file begins with. Pinned here:
 * the literals' values as Espruino would read them, which literals move and which stay, one copy of
 * a text used twice, and every profile's bundle read back to the literals it had.
 */
import { rareFunctionsAsStandIns } from "../src/boards/rareFunctions";
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";
import { BODY_TEXT_MIN, BODY_TEXT_READER, stringValue, textsOutOfCode } from "../src/boards/bodyTexts";
import { BODY_FILE, functionForm } from "../src/boards/bundleForm";
import { es5Tokens, joinPretokenised } from "../src/boards/pretokenise";
import { textsRestored } from "./body-texts";

const long = (c: string): string => c.repeat(BODY_TEXT_MIN);

describe("the function form's texts out of its code", () => {
  it("reads a literal's value as JavaScript does, escapes included", () => {
    for (const raw of ['"plain"', "'single'", '"a\\x41\\u00e9\\n\\t\\\\\\"\\0"', "'it\\'s'", '""']) {
      expect(stringValue(raw)).toBe(new Function("return " + raw)());
    }
    expect(() => stringValue('"\\1"')).toThrow(/octal/);
  });

  it("moves a literal of BODY_TEXT_MIN characters and more, once for a text used twice, and reads it at its offset", () => {
    const code = 'print("' + long("x") + '");print("short");print("' + long("x") + '");print("' + long("y") + 'z")';
    const { tokens, texts } = textsOutOfCode(es5Tokens(code), 2);
    expect(texts).toBe(long("x") + long("y") + "z");
    expect(joinPretokenised(tokens)).toBe(
      "print(" + BODY_TEXT_READER + "(2," + BODY_TEXT_MIN + "));print(\"short\");print(" + BODY_TEXT_READER + "(2," + BODY_TEXT_MIN + "));print(" +
        BODY_TEXT_READER + "(" + (2 + BODY_TEXT_MIN) + "," + (BODY_TEXT_MIN + 1) + "))",
    );
    // One character short of the bar stays where it is.
    expect(textsOutOfCode(es5Tokens('print("' + long("x").slice(1) + '")'), 2).texts).toBe("");
  });

  it("leaves an object's key, a text above Latin-1 and a text that would end the comment", () => {
    const kept = ['a={"' + long("k") + '":1}', 'b={c:1,"' + long("k") + '":2}', 'print("' + long("x") + '\\u0100")', 'print("' + long("x") + '*/")'];
    for (const code of kept) expect(textsOutOfCode(es5Tokens(code), 2)).toEqual({ tokens: es5Tokens(code), texts: "" });
    // A long literal as a value beside a key still moves.
    expect(textsOutOfCode(es5Tokens('a={k:"' + long("v") + '"}'), 2).texts).toBe(long("v"));
  });

  it("refuses code that already has a name " + BODY_TEXT_READER, () => {
    expect(() => textsOutOfCode(es5Tokens("var " + BODY_TEXT_READER + '=1;print("' + long("x") + '")'), 2)).toThrow(/already has a name/);
  });

  it("gives every Espruino profile's bundle back, each call read as the literal it replaced", async () => {
    for (const board of ["esp32.json", "linux.json"]) {
      const block = (await buildFirmware({ board: join(ROOT, "boards", board), outFile: null })).code;
      const body = functionForm(block).body.code;
      expect(body.startsWith("/*")).toBe(true);
      // Fewer than the literals of the bundle: those inside marked functions are read with their text.
      expect(body.split(BODY_TEXT_READER + "(").length).toBeGreaterThan(10);
      expect(textsRestored(body, BODY_FILE)).toBe(joinPretokenised(rareFunctionsAsStandIns(es5Tokens(block.replace(/\s+$/, "").slice(1, -1)))));
    }
  });
});
