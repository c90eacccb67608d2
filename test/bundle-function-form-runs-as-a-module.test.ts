/**
 * The function form (src/boards/bundleForm.ts), what an Espruino before 2v14 gets: the body in a
 * Storage file of its own and a short `.bootcde` head that evaluates it as a module. The body must be
 * exactly the block's body, pretokenised; the head must name the body's file, stay
 * plain text and never change with the firmware; and on Espruino the form must boot the pet from
 * Storage with none of the bundle's names among the globals and no module left behind, and a head
 * without its body must say so instead of failing somewhere inside.
 */
import { rareFunctionsAsStandIns } from "../src/boards/rareFunctions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";
import { BODY_FILE, blockFormCode, bundleForVersion, functionForm, sentBytes } from "../src/boards/bundleForm";
import { bodyTextReader } from "../src/boards/bodyTexts";
import { textsRestored } from "./body-texts";
import { BOOT_FILE } from "../src/boards/consoleProtocol";
import { es5Tokens, joinPretokenised, pretokenise, untokenise } from "../src/boards/pretokenise";
import { ESPRUINO, runEspruinoCode, NEEDS_ESPRUINO, loadInterpreterProfile, writeStorageFiles } from "./espruino-interpreter";

describe("the function form", () => {
  let block = "";
  beforeAll(async () => {
    block = (await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null })).code;
  });

  it("is what an Espruino before 2v14 gets: the block's body, pretokenised, in its own file, then the head in .bootcde", () => {
    const form = bundleForVersion(block, "2v06.63");
    expect(form.form).toBe("function");
    expect(form.files.map((f) => f.name)).toEqual([BODY_FILE, BOOT_FILE]);
    // The file: the long literals' texts in a comment, then the reader of those texts and the
    // block's body, pretokenised, each long literal a call of the reader
    // (test/bundle-function-form-texts-out-of-code.test.ts holds every call to its literal).
    const code = form.files[0]!.code;
    const end = code.indexOf("*/") + 2;
    expect(code.startsWith("/*")).toBe(true);
    // The comment begins with the offset of the code after it, in five digits: where the head
    // evaluates the file from, past the texts.
    expect(code.slice(2, 7)).toBe(String(end).padStart(5, "0"));
    expect(code.slice(end).startsWith(pretokenise(bodyTextReader(BODY_FILE)))).toBe(true);
    expect(textsRestored(code)).toBe(joinPretokenised(rareFunctionsAsStandIns(es5Tokens(block.replace(/\s+$/, "").slice(1, -1)))));
    expect(untokenise(code).length).toBeGreaterThan(code.length);
    // The head is plain text (read once, and readable in a listing), short, and names the body's file.
    const head = form.files[1]!.code;
    expect(/[\x80-\xff]/.test(head)).toBe(false);
    expect(head.length).toBeLessThan(300);
    expect(head).toContain('(require("Storage"),"' + BODY_FILE + '")');
    expect(sentBytes(form.files)).toBe(form.files[0]!.code.length + head.length);
    const blockForm = bundleForVersion(block, "2v14");
    expect(blockForm.form).toBe("block");
    expect(blockForm.files).toEqual([{ name: BOOT_FILE, code: blockFormCode(block) }]);
  });

  it("has a head that is the same for every firmware, so an upload cut after the body leaves a head that runs the new body", () => {
    const other = functionForm("{let a=1;print(a)}");
    expect(other.head).toBe(functionForm(block).head);
    expect(other.body.code).not.toBe(functionForm(block).body.code);
    // A body with no texts still begins with its code's offset: the head reads every body the same way.
    expect(other.body.code).toBe("/*00009*/" + pretokenise("let a=1;print(a)"));
  });

  it("has a head that evaluates the body from the offset it begins with, and a whole file that begins otherwise", () => {
    // The head run in Node against a Storage of one file: what it hands Modules.addCached.
    const { head } = functionForm(block);
    const run = (file: string): string | undefined => {
      let cached: string | undefined;
      const storage = { read: (name: string, offset?: number, length?: number) => (name === BODY_FILE ? file.substr(offset ?? 0, length === undefined || length <= 0 ? undefined : length) : undefined) };
      const Modules = { addCached: (_m: string, code: string) => (cached = code), removeCached: () => undefined };
      new Function("require", "Modules", "print", head)(() => storage, Modules, () => undefined);
      return cached;
    };
    const body = functionForm(block).body.code;
    expect(run(body)).toBe(body.slice(body.indexOf("*/") + 2));
    // A body an older build wrote (texts straight after the comment's opening) is run whole, as the
    // heads before this one ran it: to the interpreter its texts are a comment.
    const older = "/*import rejected: bad-hex*/print(1)";
    expect(run(older)).toBe(older);
  });

  it("reads its body from the file it is told (the bench's probe keeps one beside the firmware's)", () => {
    const probe = bundleForVersion(block, "2v06.63", "probe.js", "probefw");
    expect(probe.files.map((f) => f.name)).toEqual(["probefw", "probe.js"]);
    expect(probe.files[1]!.code).toContain('(require("Storage"),"probefw")');
    // Names of 8 characters at most, as .bootcde: the emulated chip's 2v06 could not read back a file written under a 19-character name.
    expect(BODY_FILE.length).toBeLessThanOrEqual(8);
  });

  it("refuses a bundle that is no block", () => {
    expect(() => functionForm("!function(){}();")).toThrow(/not one outer block/);
  });
});

describe.skipIf(!ESPRUINO)("the function form on Espruino " + NEEDS_ESPRUINO, () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "pet-function-form-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("boots the pet from .bootcde, its names out of the global scope and no module left", async () => {
    const profile = await loadInterpreterProfile();
    const form = functionForm((await buildFirmware({ board: profile.path, outFile: null })).code);
    const wrote = await writeStorageFiles([form.body, { name: BOOT_FILE, code: form.head }], dir);
    expect(wrote.match(/#wrote true/g)).toHaveLength(2);
    // Code given with -e runs before the boot runs .bootcde: the checks wait for the first timer.
    const out = await runEspruinoCode(
      'setTimeout(function(){print("#pet "+typeof pet+" "+typeof pet.status());' +
        'print("#names "+["$$E","$$U","$$M","s"].filter(function(n){return n in global}).join(",")+"#");' +
        'print("#petfw "+Modules.getCached().indexOf("petfw"))},0)',
      dir,
    );
    expect(out).toContain("#pet object object");
    expect(out).toContain("#names #");
    expect(out).toContain("#petfw -1");
  });

  it("prints a long text read back from the body file's comment, as the code had it", async () => {
    const out = await runEspruinoCode('setTimeout(function(){print("#answer "+pet.importHex("zz"))},0)', dir);
    expect(out).toContain("import rejected: bad-hex (not an even number of hex digits)");
    expect(out).toContain("#answer bad-hex");
  });

  it("says so when the body's file is missing, and starts nothing", async () => {
    const gone = await runEspruinoCode('require("Storage").erase(' + JSON.stringify(BODY_FILE) + ');print("#erased")', dir);
    expect(gone).toContain("#erased");
    const out = await runEspruinoCode('setTimeout(function(){print("#pet "+typeof pet)},0)', dir);
    expect(out).toContain("pet: Storage has no " + BODY_FILE + ", the firmware's body: upload the pet again");
    expect(out).toContain("#pet undefined");
  });

  it("has a head that evaluates the body from the offset the file begins with, zeros and all", async () => {
    // Not a body the build writes: the number points past a statement, so the output shows where
    // the head began (a leading zero read as octal, or the number not read, would print "#whole").
    const first = '/*00000*/print("#whole");';
    const body = first.replace("00000", String(first.length).padStart(5, "0")) + 'print("#from")';
    const { head } = functionForm("{let a=1}");
    const wrote = await writeStorageFiles([{ name: BODY_FILE, code: body }, { name: BOOT_FILE, code: head }], dir);
    expect(wrote.match(/#wrote true/g)).toHaveLength(2);
    const out = await runEspruinoCode('setTimeout(function(){print("#done")},0)', dir);
    expect(out).toContain("#from");
    expect(out).not.toContain("#whole");
    expect(out).toContain("#done");
  });
});
