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
 * the function's end and once to run it (what ADR 0006 removed for the block form). Instead the
 * form is two Storage files: the body, and a short `.bootcde` head that evaluates the body as a
 * module, which Espruino runs in a scope of its own (`Modules.addCached` of the file's text, then
 * `require`):
 *
 *     (function(s,f){var n=s.read(f,2,5);if(!n)return print("...");
 *       Modules.addCached("petfw",s.read(f,parseInt(n,10)|0));require("petfw");
 *       Modules.removeCached("petfw")})(require("Storage"),"petfw.js")
 *
 * and petfw.js holds the BODY, after a comment that begins with the body's offset in the file
 * (bodyTexts.ts): the head evaluates the file from there, past the texts the comment holds. The body used to follow the head in a comment of `.bootcde`
 * itself; the interpreter passed over it a character at a time at every boot, which on the emulated
 * chip cost about 1 M of the boot's 14.7 M instructions (CHANGELOG, issue 28). A file of its own is not
 * read at all until the head asks for it. The body is written before the head, so an upload that
 * stops between the two leaves the old head, which reads the new body; the head never changes
 * between firmware versions, only the body's file does.
 *
 * A head whose body file is missing says so on the console and starts nothing (the files' names are
 * at most 8 characters: on the emulated chip's 2v06 a file written under a 19-character name could
 * not be read back).
 *
 * What 2v06.63 lacks, found on the emulated chip (docs/board.md, "Espruino's own ESP32 firmware"):
 * `subarray` on typed arrays. Everything else the bundle calls is there. The firmware takes no view
 * with subarray (the codec and the panel make them with the Uint8Array constructor, native on every
 * version), and the bundle test refuses a subarray in the bundle. The function form used to begin
 * with a prelude that defined subarray where it was missing, as a safety net behind that test; it
 * cost every boot its text and the upload 260 bytes, for code the test keeps out, so it is gone.
 *
 * Either form is sent pretokenised (pretokenise.ts, ADR 0009): keywords and operators as the bytes
 * Espruino's lexer reads them as. The function form's head stays text, its body is pretokenised,
 * and its long string literals wait in a comment at the body file's start until a path reads one
 * (bodyTexts.ts).
 *
 * Host-neutral and free of parsers: the page does this in the browser, the upload in Node, on the
 * block that scripts/lib/outerBlock.js writes (`{let ...;...}`), by taking the braces off.
 */
import { versionAtLeast, versionParts } from "./boardFit";
import { BOOT_FILE } from "./consoleProtocol";
import { es5Tokens, joinPretokenised } from "./pretokenise";
import { rareFunctionsAsStandIns, withoutRareMarks } from "./rareFunctions";
import { bodyFileWithTexts, CODE_AT_DIGITS } from "./bodyTexts";

/** The first Espruino that scopes `let` to its block, and so runs the block form. */
export const BLOCK_SCOPE_SINCE = "2v14";

export type BundleForm = "block" | "function";

/** The form a board reporting `version` runs: "block" from BLOCK_SCOPE_SINCE on, "function" before (and for what is no version). */
export function bundleFormFor(version: string): BundleForm {
  return versionParts(version) !== null && versionAtLeast(version, BLOCK_SCOPE_SINCE) ? "block" : "function";
}

/** The module name the head gives the body while it runs (it is removed again). */
const MODULE = "petfw";

/** The Storage file the function form's body is written to (read by the head in BOOT_FILE). */
export const BODY_FILE = "petfw.js";

/** One Storage file of a bundle as the board receives it. */
export interface StorageFile {
  name: string;
  code: string;
}

/** A bundle as Storage receives it, in the order its files are written: the last is the one that runs. */
export interface SentBundle {
  form: BundleForm;
  files: StorageFile[];
  /**
   * Storage files the other form wrote that this one does not read, erased once `files` are written
   * and checked: the function form's body, on a board that now runs the block form (its Espruino
   * updated to 2v14 or later), would otherwise stay in Storage for good, some 30 KB of it.
   */
  stale: string[];
}

/** Bytes in all of a bundle's files. */
export function sentBytes(files: StorageFile[]): number {
  let n = 0;
  for (const f of files) n += f.code.length;
  return n;
}

/**
 * The function form of a block-form bundle: `{BODY}` becomes `BODY`, pretokenised, in
 * Storage file `bodyFile`, and a head that runs it (see above), the head last: it is what runs.
 * Throws for text that is not one outer block.
 */
export function functionForm(blockBundle: string, bodyFile: string = BODY_FILE): { body: StorageFile; head: string } {
  const text = blockBundle.replace(/\s+$/, "");
  if (!text.startsWith("{let ") || !text.endsWith("}")) throw new Error("the firmware bundle is not one outer block of lets, so it has no function form");
  // Long literals out of the code, into a comment the file begins with (bodyTexts.ts).
  // Functions no boot calls made at their first call and kept, their texts beside the others (rareFunctions.ts).
  const body = bodyFileWithTexts(rareFunctionsAsStandIns(es5Tokens(text.slice(1, -1))), bodyFile);
  const file = JSON.stringify(bodyFile);
  const missing = JSON.stringify("pet: Storage has no " + bodyFile + ", the firmware's body: upload the pet again");
  // The code's offset is the number at the file's start (bodyTexts.ts), read with radix 10 (Espruino
  // reads a leading zero as octal otherwise); a file without one (a body an older build wrote) gives
  // NaN, which | 0 turns into 0: the whole file, as the heads before this one ran it.
  const head =
    "(function(s,f){var n=s.read(f,2," + CODE_AT_DIGITS + ");if(!n)return print(" + missing + ');Modules.addCached("' + MODULE + '",s.read(f,parseInt(n,10)|0));require("' + MODULE + '");Modules.removeCached("' + MODULE + '")})(require("Storage"),' + file + ")";
  return { body: { name: bodyFile, code: body }, head };
}

/**
 * The bundle a board reporting `version` runs, as Storage receives it: the block form in `runFile`,
 * or its function form, its body in `bodyFile` and its head in `runFile`; pretokenised. The block
 * form names `bodyFile` stale: a board moving up from the function form has one to erase.
 */
export function bundleForVersion(blockBundle: string, version: string, runFile: string = BOOT_FILE, bodyFile: string = BODY_FILE): SentBundle {
  const form = bundleFormFor(version);
  if (form === "block") return { form, files: [{ name: runFile, code: blockFormCode(blockBundle) }], stale: [bodyFile] };
  const f = functionForm(blockBundle, bodyFile);
  return { form, files: [f.body, { name: runFile, code: f.head }], stale: [] };
}

/** The block form's code: the bundle pretokenised, its rarely called functions' markers dropped (rareFunctions.ts). */
export function blockFormCode(blockBundle: string): string {
  return joinPretokenised(withoutRareMarks(es5Tokens(blockBundle)));
}
