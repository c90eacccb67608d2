/**
 * The function form (src/boards/bundleForm.ts), what an Espruino before 2v14 gets: a short head that
 * evaluates the body as a module, the body after it in a comment. The head must find exactly the
 * body, wherever the head itself starts in the file it reads; a body that would close the comment
 * early is refused; and on Espruino the form must boot the pet from Storage with none of the
 * bundle's names among the globals and no module left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";
import { FUNCTION_FORM_PRELUDE, bundleForVersion, functionForm } from "../src/boards/bundleForm";
import { storageBytes } from "../src/boards/consoleProtocol";
import { pretokenise, untokenise } from "../src/boards/pretokenise";
import { ESPRUINO, runEspruinoCode, NEEDS_ESPRUINO, loadInterpreterProfile } from "./espruino-interpreter";

/** What the head computes, in Node: the text from the first newline + "/*" on, as long as it says. */
function bodyTheHeadReads(file: string): string {
  const length = Number(/,(\d+)\)\)\}\)\(\);/.exec(file)![1]);
  const at = file.indexOf("\n/*") + 3;
  return file.slice(at, at + length);
}

describe("the function form", () => {
  let block = "";
  beforeAll(async () => {
    block = (await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null })).code;
  });

  it("is what an Espruino before 2v14 gets, and its head reads exactly the prelude and the block's body, pretokenised", () => {
    const form = bundleForVersion(block, "2v06.63");
    expect(form.form).toBe("function");
    expect(bundleForVersion(block, "2v14").form).toBe("block");
    expect(bundleForVersion(block, "2v14").code).toBe(pretokenise(block));
    const body = FUNCTION_FORM_PRELUDE + block.replace(/\s+$/, "").slice(1, -1);
    expect(bodyTheHeadReads(form.code)).toBe(pretokenise(body));
    // The head itself is plain text: it is read once, and must stay readable in a listing.
    expect(/[\x80-\xff]/.test(form.code.slice(0, form.code.indexOf("\n/*")))).toBe(false);
    expect(untokenise(bodyTheHeadReads(form.code)).length).toBeGreaterThan(bodyTheHeadReads(form.code).length);
    // The comment that carries the body closes once, at its end.
    expect(form.code.indexOf("*/")).toBe(form.code.length - 3);
  });

  it("finds the body the same when a line comes before the head (the bench's marker)", () => {
    const code = functionForm(block);
    expect(bodyTheHeadReads('E.nativeCall(1073781640,"void()")();\n' + code)).toBe(bodyTheHeadReads(code));
  });

  it("reads itself from .bootcde, or from the Storage file it is told it is written to", () => {
    expect(functionForm(block)).toContain('s.read(".bootcde",s.read(".bootcde")');
    expect(functionForm(block, "probe.js")).toContain('s.read("probe.js",s.read("probe.js")');
    expect(bundleForVersion(block, "2v06.63", "probe.js").code).toBe(functionForm(block, "probe.js"));
  });

  it("refuses a body that would end the comment early, and a bundle that is no block", () => {
    expect(() => functionForm('{let a="*/";a}')).toThrow(/holds \*\/ at character/);
    expect(() => functionForm("!function(){}();")).toThrow(/not one outer block/);
  });
});

describe.skipIf(!ESPRUINO)("the function form on Espruino " + NEEDS_ESPRUINO, () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "pet-function-form-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives a prelude subarray that agrees with the standard one there, an empty range included", async () => {
    // The prelude's function under a name of its own (2v29 has subarray, which it leaves alone).
    const head = "if(!Uint8Array.prototype.subarray)Uint8Array.prototype.subarray=";
    expect(FUNCTION_FORM_PRELUDE.startsWith(head)).toBe(true);
    const ranges = [[0, 8], [2, 5], [3, 3], [5, 2], [-3, undefined], [undefined, -2], [8, 8], [0, 0], [-20, 20]] as const;
    const bytes = [1, 2, 3, 4, 5, 6, 7, 8];
    const code =
      "var sub=" + FUNCTION_FORM_PRELUDE.slice(head.length) + "var u=new Uint8Array(" + JSON.stringify(bytes) + ");" +
      ranges.map(([a, b]) => 'print("#sub "+[].slice.call(sub.call(u,' + a + "," + b + ")).join());").join("");
    const out = await runEspruinoCode(code, dir);
    const got = [...out.matchAll(/#sub (.*)/g)].map((m) => m[1]!.trim());
    expect(got).toEqual(ranges.map(([a, b]) => Array.from(new Uint8Array(bytes).subarray(a, b)).join()));
  });

  it("boots the pet from .bootcde, its names out of the global scope and no module left", async () => {
    const profile = await loadInterpreterProfile();
    const code = functionForm((await buildFirmware({ board: profile.path, outFile: null })).code);
    const wrote = await runEspruinoCode('print("#wrote "+require("Storage").write(".bootcde",' + storageBytes(code) + "))", dir);
    expect(wrote).toContain("#wrote true");
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
});
