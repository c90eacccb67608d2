/**
 * Which form of the firmware bundle a board's Espruino runs, chosen by the version it reports
 * (process.env.VERSION) when the upload, the page or board-check ask it what it is.
 *
 * The build makes one bundle, in the form the current Espruino reads fastest: its outer scope a
 * block of `let`s (docs/adr/0006-bundle-outer-block.md), which keeps the bundle's names out of the
 * global scope because Espruino scopes `let` to its block since 2v14. An older Espruino reads `let`
 * as `var`: the block's names would land among the globals, where a console user's `t = 5` could
 * break the pet. Espruino's own ESP32 firmware as people flash it is often older (the emulated chip
 * in ../shared/esp32-qemu runs 2v06.63), so such a board gets the same bundle in a function form,
 * whose names live in a scope of their own as a function's do, on every version. It is not wrapped
 * in a function, though: the interpreter would read the whole text twice at every boot, once to find
 * the function's end and once to run it (what ADR 0006 removed for the block form). Instead a short
 * head evaluates the body as a module, which Espruino runs in a scope of its own
 * (`Modules.addCached` of the text, then `require`), and the body follows the head inside a comment,
 * which the interpreter passes over a character at a time without reading any of it as code (on the
 * emulated chip a fifth fewer instructions at boot than the wrapped function, the same JsVars after
 * it: CHANGELOG, issue 28):
 *
 *     (function(){var s=require("Storage");Modules.addCached("petfw",s.read(".bootcde",
 *       s.read(".bootcde").indexOf("\n/*")+3,LENGTH))})();require("petfw");Modules.removeCached("petfw")
 *     /*PRELUDE BODY
 *     *\/
 *
 * The head reads the Storage file the form is written to (`.bootcde` unless told: the bench keeps a
 * probe beside the firmware in a file of its own) and finds the body by the first newline followed
 * by the comment's opening in it, so a line put before the head (the bench's counting marker)
 * changes nothing; LENGTH stops the module's text at the body's end. The body must not hold the
 * characters that close a comment: functionForm refuses one that does. A short prelude first gives
 * the old interpreter what the bundle uses and it lacks.
 *
 * What 2v06.63 lacks, found on the emulated chip (docs/board.md, "Espruino's own ESP32 firmware"):
 * `subarray` on typed arrays. Everything else the bundle calls is there. The prelude adds only what
 * is missing, so it costs nothing where it is not needed. The firmware itself no longer takes views
 * with subarray (the codec and the panel make them with the Uint8Array constructor, native on every
 * version: the prelude's JavaScript cost a save, a restore and every redraw; the bundle test refuses
 * a subarray in the bundle). The prelude stays as a safety net: a subarray that slipped in would run,
 * slowly, instead of stopping the pet at its first restore.
 *
 * Either form is sent pretokenised (pretokenise.ts, ADR 0009): keywords and operators as the bytes
 * Espruino's lexer reads them as. The function form's head stays text; its body is pretokenised
 * before the comment is checked and LENGTH taken, so both count the bytes Storage holds.
 *
 * Host-neutral and free of parsers: the page does this in the browser, the upload in Node, on the
 * block that scripts/lib/outerBlock.js writes (`{let ...;...}`), by taking the braces off.
 */
import { versionAtLeast, versionParts } from "./boardFit";
import { BOOT_FILE } from "./consoleProtocol";
import { pretokenise } from "./pretokenise";

/** The first Espruino that scopes `let` to its block, and so runs the block form. */
export const BLOCK_SCOPE_SINCE = "2v14";

export type BundleForm = "block" | "function";

/**
 * What the older interpreters get before the bundle: `subarray` on Uint8Array (a view of the same
 * bytes, as the standard one), defined only where it is missing. An empty range is a new empty
 * array, not a view: Espruino reads a view of length 0 as the rest of the buffer.
 */
export const FUNCTION_FORM_PRELUDE =
  "if(!Uint8Array.prototype.subarray)Uint8Array.prototype.subarray=function(a,b){var n=this.length;" +
  "a=a===void 0?0:a<0?Math.max(n+a,0):Math.min(a,n);b=b===void 0?n:b<0?Math.max(n+b,0):Math.min(b,n);" +
  "return b>a?new Uint8Array(this.buffer,this.byteOffset+a,b-a):new Uint8Array(0)};";

/** The form a board reporting `version` runs: "block" from BLOCK_SCOPE_SINCE on, "function" before (and for what is no version). */
export function bundleFormFor(version: string): BundleForm {
  return versionParts(version) !== null && versionAtLeast(version, BLOCK_SCOPE_SINCE) ? "block" : "function";
}

/** The module name the head gives the body while it runs (it is removed again). */
const MODULE = "petfw";

/**
 * The function form of a block-form bundle: `{BODY}` becomes the head, then `PRELUDE BODY`,
 * pretokenised, in a comment (see above); the head reads the body from `storageFile`, where the form
 * must be written.
 * Throws for text that is not one outer block, and for a body that holds the characters that would
 * end the comment early.
 */
export function functionForm(blockBundle: string, storageFile: string = BOOT_FILE): string {
  const text = blockBundle.replace(/\s+$/, "");
  if (!text.startsWith("{let ") || !text.endsWith("}")) throw new Error("the firmware bundle is not one outer block of lets, so it has no function form");
  const body = pretokenise(FUNCTION_FORM_PRELUDE + text.slice(1, -1));
  if (body.indexOf("*/") >= 0) throw new Error("the firmware bundle holds */ at character " + body.indexOf("*/") + ", which would end the function form's comment early");
  const file = JSON.stringify(storageFile);
  const head =
    '(function(){var s=require("Storage");Modules.addCached("' + MODULE + '",s.read(' + file + ",s.read(" + file + ').indexOf("\\n/*")+3,' + body.length + "))})();" +
    'require("' + MODULE + '");Modules.removeCached("' + MODULE + '")';
  return head + "\n/*" + body + "\n*/\n";
}

/** The bundle a board reporting `version` runs, as Storage receives it: the block form, or its function form (read from `storageFile`), pretokenised. */
export function bundleForVersion(blockBundle: string, version: string, storageFile: string = BOOT_FILE): { form: BundleForm; code: string } {
  const form = bundleFormFor(version);
  return { form, code: form === "block" ? pretokenise(blockBundle) : functionForm(blockBundle, storageFile) };
}
