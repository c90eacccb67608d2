/**
 * The function form's long string literals kept out of its code, in the same Storage file.
 *
 * Why: Espruino reads a function's whole text when it defines the function, and a string literal
 * costs more to read than the code around it: on the emulated chip the bundle's 54 literals of 24
 * characters and more, 2 039 bytes and nearly all of them failure texts, cost the boot 0.47 M
 * instructions (docs/speed.md, ADR 0011). A comment is passed over for a fraction of that. So the
 * body file begins with one comment holding those texts, and each literal in the code becomes a call
 * that reads its text back from Storage (a view of the flash, no copy on a board where Storage is
 * memory-mapped):
 *
 *     /*04417import rejected: bad-hex (...)could not read ...* /READER...$$t(7,61)...
 *
 * The comment begins with the offset of the code after it, five digits: the head evaluates the file
 * from there (bundleForm.ts), so the boot does not pass over the texts at all. Passed over, the 11 KB
 * of texts and marked functions' texts cost the boot on the emulated chip about 34 instructions a
 * byte (docs/speed.md). An older head, which evaluates the whole file, still runs it: to it the
 * texts are a comment.
 *
 * The texts live in the same file as the code that reads them, at offsets the code carries, so no
 * upload cut between two files can pair one firmware's code with another's texts. Only the function
 * form does this (Espruino before 2v14); the block form keeps its literals. Left as they are: a
 * literal used as an object's key, one with a character above 255 (Storage holds bytes) and one
 * holding the comment's end.
 */
import { es5Tokens, joinPretokenised, type Token } from "./pretokenise";

/** The shortest text kept out of the code. */
export const BODY_TEXT_MIN = 24;
/** The function that reads a text back; the build never gives a name of this form (outerBlock.js). */
export const BODY_TEXT_READER = "$$t";
/**
 * The function that makes a marked function (one no boot calls) from its text at its first call
 * and keeps it (rareFunctions.ts). A stand-in calls it with the text as its first argument, which this file
 * turns into the text's offset and length: the maker reads the text only the first time.
 */
export const RARE_MAKER = "$$r";

/** The one-character escapes of ES5 strings; any other escaped character stands for itself. */
const SIMPLE_ESCAPES: { [k: string]: string } = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", "0": "\0" };

/** The value of a string token of ES5 (its quotes and escapes as terser writes them). */
export function stringValue(raw: string): string {
  const body = raw.slice(1, -1);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body.charAt(i);
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = body.charAt(++i);
    if (e === "x" || e === "u") {
      const n = e === "x" ? 2 : 4;
      const hex = body.substr(i + 1, n);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) throw new Error("a string escape the function form cannot read: " + raw.slice(0, 40));
      out += String.fromCharCode(parseInt(hex, 16));
      i += n;
    } else if (e >= "1" && e <= "9") {
      throw new Error("an octal escape in the bundle: " + raw.slice(0, 40));
    } else {
      out += SIMPLE_ESCAPES.hasOwnProperty(e) ? SIMPLE_ESCAPES[e] : e;
    }
  }
  return out;
}

/** Whether the string token at `k` is an object literal's key. */
function isKey(tokens: readonly Token[], k: number): boolean {
  const prev = tokens[k - 1];
  const next = tokens[k + 1];
  return next !== undefined && next.text === ":" && prev !== undefined && (prev.text === "{" || prev.text === ",");
}

/** Whether `text` can sit in the texts comment: bytes only, and no end of comment. */
export function fitsComment(text: string): boolean {
  if (text.indexOf("*/") >= 0) return false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 255) return false;
  return true;
}

/**
 * The width of the number the body file begins with, inside its comment: the offset of the code
 * (decimal, zero-padded). The head reads it and evaluates the file from there, so the boot never
 * passes over the texts (bundleForm.ts).
 */
export const CODE_AT_DIGITS = 5;

/** Where the texts start in the body file: after the comment's opening and the code's offset. */
const TEXTS_AT = "/*".length + CODE_AT_DIGITS;

/** The reader's definition, for the body in Storage file `file`: the text of `length` bytes from `offset`. */
export function bodyTextReader(file: string): string {
  return "function " + BODY_TEXT_READER + "(o,l){return require(\"Storage\").read(" + JSON.stringify(file) + ",o,l)}";
}

/**
 * The maker's definition, `$$r(offset,length,names,self,args,standIn,property)`: the function made
 * from the text of `length` bytes at `offset` (text that evaluates to a function of the free names,
 * which returns the function), called with `self` and `args`, or itself when no `args` are given.
 * 2v06's eval runs in the global scope, hence the names handed over in `names`. The made function
 * is kept with the values it was made with, by offset, and made again when a call hands over other
 * values: a stand-in inside a function that runs more than once (a method of an object made per
 * call) reads that run's names, as the function it stands for did. When `self[property]` is
 * `standIn`, the made function takes its place there.
 */
export const RARE_MAKER_DEFINITION =
  "var $$c={};function " + RARE_MAKER + "(o,l,f,t,a,s,p){var c=$$c[o],i=0;if(c)for(;i<f.length;i++)if(c[i+1]!==f[i]){c=0;break}" +
  "if(!c)c=$$c[o]=[eval(" + BODY_TEXT_READER + "(o,l)).apply(0,f)].concat(f);if(s&&t&&t[p]===s)t[p]=c[0];return a?c[0].apply(t,a):c[0]}";

/** Whether the string token at `k` is the first argument of a call of RARE_MAKER. */
function isMadeText(tokens: readonly Token[], k: number): boolean {
  return tokens[k - 1]?.text === "(" && tokens[k - 2]?.text === RARE_MAKER;
}

/**
 * `tokens` with each long literal replaced by a call of BODY_TEXT_READER (and each text handed to
 * RARE_MAKER by its offset and length), and the texts those calls read, which the file holds from
 * byte `at` on (each text once). Throws if the code already uses the reader's name, or hands the
 * maker a text the comment cannot hold.
 */
export function textsOutOfCode(tokens: readonly Token[], at: number): { tokens: Token[]; texts: string } {
  const out: Token[] = [];
  const offsets: { [text: string]: number } = {};
  let texts = "";
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.kind === "word" && t.text === BODY_TEXT_READER) throw new Error("the bundle already has a name " + BODY_TEXT_READER + ", which the function form's texts need");
    const value = t.kind === "string" ? stringValue(t.text) : "";
    const made = t.kind === "string" && isMadeText(tokens, k);
    if (made && !fitsComment(value)) throw new Error("a rarely called function's text cannot sit in the body file's comment");
    if (!made && (t.kind !== "string" || value.length < BODY_TEXT_MIN || isKey(tokens, k) || !fitsComment(value))) {
      out.push(t);
      continue;
    }
    if (!offsets.hasOwnProperty(value)) {
      offsets[value] = at + texts.length;
      texts += value;
    }
    if (made) {
      out.push({ kind: "number", text: String(offsets[value]) }, { kind: "punct", text: "," }, { kind: "number", text: String(value.length) });
      continue;
    }
    // A call is an expression wherever a literal is, but as a key (left above).
    out.push(
      { kind: "word", text: BODY_TEXT_READER },
      { kind: "punct", text: "(" },
      { kind: "number", text: String(offsets[value]) },
      { kind: "punct", text: "," },
      { kind: "number", text: String(value.length) },
      { kind: "punct", text: ")" },
    );
  }
  return { tokens: out, texts };
}

/**
 * The body file Storage file `file` holds for `code` (text, or its tokens), pretokenised: one
 * comment with the offset of the code (CODE_AT_DIGITS digits) and the long literals, then the
 * reader's definition (when there are literals) and the code.
 */
export function bodyFileWithTexts(code: string | readonly Token[], file: string): string {
  const { tokens, texts } = textsOutOfCode(typeof code === "string" ? es5Tokens(code) : code, TEXTS_AT);
  const maker = tokens.some((t) => t.kind === "word" && t.text === RARE_MAKER) ? RARE_MAKER_DEFINITION : "";
  const body = texts === "" ? joinPretokenised(tokens) : joinPretokenised(es5Tokens(bodyTextReader(file) + maker).concat(tokens));
  const codeAt = TEXTS_AT + texts.length + "*/".length;
  const digits = String(codeAt);
  if (digits.length > CODE_AT_DIGITS) throw new Error("the body file's texts end past byte " + (Math.pow(10, CODE_AT_DIGITS) - 1) + ", which its first line cannot say");
  return "/*" + "0".repeat(CODE_AT_DIGITS - digits.length) + digits + texts + "*/" + body;
}

