/**
 * Which form of the firmware bundle a board's Espruino runs, chosen by the version it reports
 * (process.env.VERSION) when the upload, the page or board-check ask it what it is.
 *
 * The build makes one bundle, in the form the current Espruino reads fastest: its outer scope a
 * block of `let`s (docs/adr/0006-bundle-outer-block.md), which keeps the bundle's names out of the
 * global scope because Espruino scopes `let` to its block since 2v14. An older Espruino reads `let`
 * as `var`: the block's names would land among the globals, where a console user's `t = 5` could
 * break the pet. Espruino's own ESP32 firmware as people flash it is often older (the emulated chip
 * in ../shared/esp32-qemu runs 2v06.63), so such a board gets the same bundle in a function form:
 * the block's body inside `(function(){ ... })();`, whose `let`s are then the function's own
 * variables on every version, with a short prelude first that gives the old interpreter what the
 * bundle uses and it lacks. The function form costs a second read of the bundle's text at boot
 * (what ADR 0006 removed), only on the boards that need it.
 *
 * What 2v06.63 lacks, found on the emulated chip (docs/board.md, "Espruino's own ESP32 firmware"):
 * `subarray` on typed arrays (the codec and the CRC take views with it). Everything else the bundle
 * calls is there. The prelude adds only what is missing, so it costs nothing where it is not needed.
 *
 * Host-neutral and free of parsers: the page does this in the browser, the upload in Node, on the
 * block that scripts/lib/outerBlock.js writes (`{let ...;...}`), by taking the braces off.
 */
import { versionAtLeast, versionParts } from "./boardFit";

/** The first Espruino that scopes `let` to its block, and so runs the block form. */
export const BLOCK_SCOPE_SINCE = "2v14";

export type BundleForm = "block" | "function";

/**
 * What the older interpreters get before the bundle: `subarray` on Uint8Array (a view of the same
 * bytes, as the standard one), defined only where it is missing.
 */
export const FUNCTION_FORM_PRELUDE =
  "if(!Uint8Array.prototype.subarray)Uint8Array.prototype.subarray=function(a,b){var n=this.length;" +
  "a=a===void 0?0:a<0?Math.max(n+a,0):Math.min(a,n);b=b===void 0?n:b<0?Math.max(n+b,0):Math.min(b,n);" +
  "return new Uint8Array(this.buffer,this.byteOffset+a,b>a?b-a:0)};";

/** The form a board reporting `version` runs: "block" from BLOCK_SCOPE_SINCE on, "function" before (and for what is no version). */
export function bundleFormFor(version: string): BundleForm {
  return versionParts(version) !== null && versionAtLeast(version, BLOCK_SCOPE_SINCE) ? "block" : "function";
}

/**
 * The function form of a block-form bundle: `{BODY}` becomes `(function(){PRELUDE BODY})();`.
 * Throws for text that is not one outer block (a bundle of another shape has no block to unwrap).
 */
export function functionForm(blockBundle: string): string {
  const text = blockBundle.replace(/\s+$/, "");
  if (!text.startsWith("{let ") || !text.endsWith("}")) throw new Error("the firmware bundle is not one outer block of lets, so it has no function form");
  return "(function(){" + FUNCTION_FORM_PRELUDE + text.slice(1, -1) + "})();\n";
}

/** The bundle a board reporting `version` runs: the block form as built, or its function form. */
export function bundleForVersion(blockBundle: string, version: string): { form: BundleForm; code: string } {
  const form = bundleFormFor(version);
  return { form, code: form === "block" ? blockBundle : functionForm(blockBundle) };
}
