/**
 * Marked functions in the function form (src/boards/rareFunctions.ts, ADR 0012, ADR 0013): the build
 * names what each marked function reads, and the outer name or the property it may take over, and
 * refuses what it could not hand over safely; the function form turns each into a stand-in that
 * makes the same function at its first call and keeps it; the block form keeps it, less its marker;
 * and on Espruino the firmware's marked paths (the console's rename, hatch, importHex and checkSave,
 * events, a name that is not ASCII, and a save that opens a new sector) work through their stand-ins.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";
import { LATER_DIRECTIVE, markRareFunctions, RARE_BINDING, RARE_DIRECTIVE, RARE_PROPERTY } from "../scripts/lib/rareFunctions.js";
import { blockFormCode, functionForm } from "../src/boards/bundleForm";
import { RARE_MARK, rareFunctionsAsStandIns, withoutRareMarks } from "../src/boards/rareFunctions";
import { bodyFileWithTexts, CODE_AT_DIGITS, RARE_MAKER } from "../src/boards/bodyTexts";
import { es5Tokens, joinPretokenised, untokenise } from "../src/boards/pretokenise";
import { BOOT_FILE } from "../src/boards/consoleProtocol";
import { runEspruinoCode, NEEDS_ESPRUINO, loadInterpreterProfile, ESPRUINO, writeStorageFiles } from "./espruino-interpreter";

const rare = JSON.stringify(RARE_DIRECTIVE);
const later = JSON.stringify(LATER_DIRECTIVE);

describe("the build's marking of rarely called functions", () => {
  it("writes the names of the enclosing scopes a marked function reads, and no others", () => {
    const code = "{let a,b=2,c;a=function(x){var y;" + rare + ";y=x+b+c+Math.max(x,1);return function(z){return z+y}};c=3;print(a(1)(0))}";
    const out = markRareFunctions(code);
    // a is the outer block's, assigned once: its stand-in may take its place (RARE_BINDING).
    expect(out).toContain('"' + RARE_MARK + "b,c" + RARE_BINDING + 'a"');
    expect(out).not.toContain(RARE_DIRECTIVE);
    expect(out.replace('"' + RARE_MARK + "b,c" + RARE_BINDING + 'a"', rare)).toBe(code);
    // Not so a name assigned twice, or one of a function's scope.
    expect(markRareFunctions("{let a,b=2;a=function(){" + rare + ";return b};a=null}")).toContain('"' + RARE_MARK + 'b"');
    expect(markRareFunctions("{let f=function(){let a=function(){" + rare + ";return 1};return a}}")).toContain('"' + RARE_MARK + '"');
  });

  it("hands over a name a catch's parameter hides only inside that catch", () => {
    const code = "{let e=function(){return 5},a=function(){" + rare + ";try{q()}catch(e){return e}return e()}}";
    expect(markRareFunctions(code)).toContain('"' + RARE_MARK + "e" + RARE_BINDING + 'a"');
  });

  it("refuses a name assigned twice, a nested marked function, a named one and one that reads arguments", () => {
    expect(() => markRareFunctions("{let a,b=2;a=function(){" + rare + ";return b};b=3}")).toThrow(/b, which is assigned 2 times/);
    expect(() => markRareFunctions("{let a=function(){" + rare + ";return function(){" + rare + ";return 1}}}")).toThrow(/inside another/);
    expect(() => markRareFunctions("{let a=function f(){" + rare + ";return 1}}")).toThrow(/name of its own/);
    expect(() => markRareFunctions("{let a=function(){" + rare + ";return arguments[0]}}")).toThrow(/uses arguments/);
    // Marked as called often, a function may not read another function of the outer block marked
    // as called often (it would hold its stand-in and call through it every time); a rarely called
    // one it may (the stand-in is paid on that rare path alone), and a rarely called one may read either.
    const reads = (mark: string, callee: string) => "{let h=function(){" + callee + ";return 1},o={f:function(){" + mark + ";return h()}}}";
    expect(() => markRareFunctions(reads(later, later))).toThrow(/reads h, a function marked as called often/);
    expect(markRareFunctions(reads(later, rare))).toContain('"' + RARE_MARK + 'h.f"');
    expect(markRareFunctions(reads(rare, rare))).toContain('"' + RARE_MARK + 'h"');
    expect(markRareFunctions(reads(rare, later))).toContain('"' + RARE_MARK + 'h"');
  });
});

describe("the function form's stand-ins", () => {
  // A marked method, a marked closure, an outer name's function and a property called often, as the build leaves them.
  const code = markRareFunctions(
    "{let k=10,P=function(v){this.v=v};P.prototype.add=function(x,y){var s;" + rare + ";s=x+y+this.v+k;return s};" +
      "let make=function(n){return {get:function(){" + rare + ";return n*k}}};let twice=function(x){" + rare + ";return 2*x+k};" +
      "let obj={n:3,times:function(x){" + later + ";return this.n*x+k}};" +
      "print(new P(1).add(2,3),make(4).get())}",
  );

  it("makes, at its first call, a function that answers as the marked one does, this and arguments included, and keeps it", () => {
    const file = bodyFileWithTexts(rareFunctionsAsStandIns(es5Tokens(code.slice(1, -1))), "f");
    const standIns = untokenise(file.slice(file.indexOf("*/") + 2));
    expect(standIns.match(/this,arguments[),]/g)).toHaveLength(4);
    // The outer block's twice takes the function its stand-in makes, and so does obj.times, marked as
    // called often; the rarely called method and property do not.
    expect(code).toContain('"' + RARE_MARK + "k" + RARE_BINDING + 'twice"');
    expect(standIns).toContain("return(twice=" + RARE_MAKER + "(");
    expect(code).toContain('"' + RARE_MARK + "k" + RARE_PROPERTY + 'times"');
    expect(standIns).toMatch(/times:function s\(\)\{return \$\$r\(\d+,\d+,\[k\],this,arguments,s,"times"\)\}/);
    expect(standIns).not.toContain(RARE_MARK);
    expect(standIns).not.toContain("s=x+y+this.v+k");
    // Run in a scope where eval is global, as on Espruino 2v06, Storage read as the file's bytes.
    const made: string[] = [];
    const run = (src: string, calls: string): unknown[] => {
      const printed: unknown[] = [];
      const storage = { read: (name: string, at: number, length: number) => (name === "f" ? untokenise(file.substr(at, length)) : undefined) };
      const evalGlobal = (t: string): unknown => (made.push(t), (0, eval)(t));
      new Function("print", "eval", "require", src + ";" + calls)((...a: unknown[]) => printed.push(...a), evalGlobal, () => storage);
      return printed;
    };
    const calls =
      "var p=new P(1),t=twice,m=obj.times;print(p.add(2,3),make(4).get(),p.add(1,1),make(5).get(),make(5).get(),twice(1),t===twice,twice(2),t(3),t===twice," +
      "obj.times(2),m===obj.times,obj.times(3),m.call({n:1},1),m===obj.times)";
    const answers = [16, 40, 13, 50, 50, 12, true, 14, 16, true, 16, true, 19, 11, true];
    expect(run(code.slice(1, -1).replace(/print\(.*\)$/, ""), calls)).toEqual(answers);
    expect(made).toHaveLength(0);
    // Through the stand-ins the same answers, but twice and obj.times are other functions after their
    // first call (the stand-in called on another object leaves that object alone).
    answers[6] = answers[9] = answers[11] = answers[14] = false;
    expect(run(standIns.replace(/print\(.*\)$/, ""), calls)).toEqual(answers);
    // add made once; get made again when make's n changed (4, then 5), not for the same n again;
    // twice made once, and its stand-in, still called through t, hands over the function it made;
    // obj.times made once.
    expect(made).toHaveLength(5);
  });

  it("are left as they were, less the marker, in the block form", () => {
    const block = untokenise(joinPretokenised(withoutRareMarks(es5Tokens(code))));
    expect(block).not.toContain(RARE_MARK);
    expect(block).toContain("s=x+y+this.v+k");
    expect(joinPretokenised(withoutRareMarks(es5Tokens(code))).length).toBeLessThan(joinPretokenised(es5Tokens(code)).length);
  });

  it("cover every marked function of the ESP32 bundle, and none is left marked in either form", async () => {
    const block = (await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null })).code;
    const marks = block.split('"' + RARE_MARK).length - 1;
    expect(marks).toBeGreaterThanOrEqual(20);
    const body = functionForm(block).body.code;
    expect(untokenise(body).match(/this,arguments[),]/g)).toHaveLength(marks);
    expect(body).not.toContain(RARE_MARK);
    expect(blockFormCode(block)).not.toContain(RARE_MARK);
  });

  it("keep each made text pretokenised whole, its wrapper's keywords a byte each as the code's are", async () => {
    const block = (await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null })).code;
    const body = functionForm(block).body.code;
    const code = body.slice(parseInt(body.slice(2, 2 + CODE_AT_DIGITS), 10));
    const texts = [...code.matchAll(new RegExp(RARE_MAKER.replace(/\$/g, "\\$") + "\\((\\d+),(\\d+)", "g"))].map((m) => body.substr(Number(m[1]), Number(m[2])));
    expect(texts.length).toBeGreaterThanOrEqual(20);
    for (const text of texts) {
      expect(untokenise(text)).toMatch(/^\(function\(/);
      // What the upload's pretokenising would make of it is what it already is: no keyword left as text.
      expect(joinPretokenised(es5Tokens(untokenise(text)))).toBe(text);
    }
  });
});

describe.skipIf(!ESPRUINO)("the firmware's rare paths through their stand-ins, on Espruino " + NEEDS_ESPRUINO, () => {
  let dir = "";
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pet-rare-"));
    const profile = await loadInterpreterProfile();
    const form = functionForm((await buildFirmware({ board: profile.path, outFile: null })).code);
    const wrote = await writeStorageFiles([form.body, { name: BOOT_FILE, code: form.head }], dir);
    expect(wrote.match(/#wrote true/g)).toHaveLength(2);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("renames, checks, exports and imports, hatches, and saves into a new sector", async () => {
    const out = await runEspruinoCode(
      "setTimeout(function(){" +
        'print("#rename "+pet.rename("Bo")+" "+pet.status().name);' +
        'print("#check "+pet.checkSave());' +
        "var h=pet.exportHex();" +
        'print("#hatch "+pet.hatch("Zed")+" "+pet.status().name);' +
        'print("#import "+pet.importHex(h)+" "+pet.status().name);' +
        'print("#bad "+pet.rename("")+" "+pet.importHex("zz"));' +
        // updateWorld (an event), and a name that is not ASCII (nameFromString, utf8CodePoints, utf8Decode).
        'print("#interact "+pet.interact()+" "+pet.interact()+" "+pet.status().updateCount);' +
        'print("#accent "+pet.rename("Zo\u00eb")+" "+pet.status().nameHex+" "+pet.rename("Bo"));' +
        "var ok=0;for(var i=0;i<60;i++)if(pet.save()===\"ok\")ok++;" +
        'print("#saves "+ok+" "+pet.checkSave())},0)',
      dir,
    );
    expect(out).toContain("#rename ok Bo");
    expect(out).toContain("#check ok");
    expect(out).toContain("#hatch ok Zed");
    expect(out).toContain("#import ok Bo");
    expect(out).toContain("#bad bad-name bad-hex");
    expect(out).toMatch(/#interact ok ok \d+/);
    expect(out).toContain("#accent ok 5a6fc3ab ok");
    // More saves than a 4 KiB sector has slots: at least one went through openSector_'s stand-in.
    expect(out).toContain("#saves 60 ok");
  });
});
