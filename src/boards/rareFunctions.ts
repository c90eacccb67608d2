/**
 * The function form's marked functions, made at their first call and kept (ADR 0012, ADR 0013).
 *
 * Why: Espruino reads a function's whole text when it defines the function, about 205 Xtensa
 * instructions a byte on the emulated ESP32 (2v06), while the body file's comment is passed over for
 * about 34 (docs/speed.md). A function that a boot restoring a save never calls (a failure's path,
 * opening a new sector, pet.rename(), a rule change) need not be read at every boot. The source
 * marks such a function with the directive "rarely called" or "not called at boot", and the build
 * (scripts/lib/rareFunctions.js) writes into it the names of the enclosing scopes the function
 * reads, and the outer block's name it is the one value of (`function(a){"$$L:x,y=f";...}`) or,
 * for one marked as called often, the property it is the value of (`"$$L:x,y.p"`), if any.
 *
 * In the function form each marked function becomes a stand-in that has the body file's maker
 * (bodyTexts.ts RARE_MAKER) make it and call it:
 *
 *     function(){return $$r("(function(x,y){return function(a){...}})",[x,y],this,arguments)}
 *     function(){return(f=$$r("(function(x,y){return function(a){...}})",[x,y])).apply(this,arguments)}
 *     function s(){return $$r("(function(x,y){return function(a){...}})",[x,y],this,arguments,s,"p")}
 *
 * The second when the function is the one value of outer name `f`, the third when it is the value
 * of property `p` (`{p:function}`, `o.p=function`): the made function takes the stand-in's place
 * in `f`, or in `this.p` when that is the stand-in, so only the first call goes through the maker.
 * A stand-in still held elsewhere (handed as a value to a function made before) goes through the
 * maker at every call, which the build keeps off what runs often (scripts/lib/rareFunctions.js).
 * The text is pretokenised whole (ADR 0009), the wrapper that hands it the names as well as the
 * function, so its keywords are a byte each; eval reads it as the boot reads the code. The text
 * becomes its offset and length in the body file's comment (bodyTexts.ts). Espruino 2v06's eval runs in the
 * global scope, so the names the function reads are handed to it as arguments; the build only marks
 * a function whose every such name holds one value for good. The block form (Espruino 2v14 on)
 * keeps the function as it was, less its marker.
 */
import type { Token } from "./pretokenise";
import { es5Tokens, joinPretokenised } from "./pretokenise";
import { fitsComment, RARE_MAKER, stringValue } from "./bodyTexts";

/** What a marked function's body holds (after any hoisted `var`): this prefix, then its free names. */
export const RARE_MARK = "$$L:";

/** What separates the free names from the outer block's name the function is the value of (scripts/lib/rareFunctions.js). */
const RARE_BINDING = "=";
/** What separates them from the property the function is the value of. */
const RARE_PROPERTY = ".";

/**
 * The free names of the marker at `k` (a string token), and the outer block's name ("" for none)
 * or else the property ("" for none) the function is the value of; null when it is not a marker.
 */
function markAt(tokens: readonly Token[], k: number): { names: string[]; bound: string; property: string } | null {
  const t = tokens[k];
  if (t === undefined || t.kind !== "string") return null;
  const value = stringValue(t.text);
  if (value.slice(0, RARE_MARK.length) !== RARE_MARK) return null;
  const rest = value.slice(RARE_MARK.length);
  let at = rest.indexOf(RARE_BINDING);
  if (at < 0) at = rest.indexOf(RARE_PROPERTY);
  const names = at < 0 ? rest : rest.slice(0, at);
  const target = at < 0 ? "" : rest.slice(at + 1);
  const kind = at < 0 ? "" : rest.charAt(at);
  return { names: names === "" ? [] : names.split(","), bound: kind === RARE_BINDING ? target : "", property: kind === RARE_PROPERTY ? target : "" };
}

/** A name for a stand-in to call itself by: one letter that is none of `taken`. */
function selfName(taken: readonly string[]): string {
  for (const c of "sqzjkxwvuy") if (taken.indexOf(c) < 0) return c;
  throw new Error("rarely called functions: no free name for a stand-in");
}

/** Index of the token closing the bracket opened at `open`. */
function closing(tokens: readonly Token[], open: number): number {
  const o = (tokens[open] as Token).text;
  const c = o === "{" ? "}" : ")";
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.kind !== "punct") continue;
    if (t.text === o) depth++;
    else if (t.text === c && --depth === 0) return k;
  }
  throw new Error("rarely called functions: unbalanced " + o);
}

/**
 * Where `function` at `f` has its parameters' and body's brackets and its marker (or null when
 * its body holds no marker before its first statement that is not a `var`).
 */
function markedFunction(tokens: readonly Token[], f: number): { open: number; end: number; mark: number; names: string[]; bound: string; property: string } | null {
  const openParams = f + 1;
  if ((tokens[openParams] as Token | undefined)?.text !== "(") return null;
  const closeParams = closing(tokens, openParams);
  const open = closeParams + 1;
  if ((tokens[open] as Token | undefined)?.text !== "{") return null;
  // Past the hoisted var (one statement up to its ";") and empty statements.
  let k = open + 1;
  for (;;) {
    const t = tokens[k];
    if (t === undefined) return null;
    if (t.text === ";") k++;
    else if (t.kind === "word" && t.text === "var") {
      while (k < tokens.length && (tokens[k] as Token).text !== ";") k++;
      k++;
    } else break;
  }
  const mark = markAt(tokens, k);
  if (mark === null) return null;
  return { open, end: closing(tokens, open), mark: k, names: mark.names, bound: mark.bound, property: mark.property };
}

/** `tokens` without the marker at `mark` and the ";" after it. */
function withoutMark(tokens: readonly Token[], mark: number): Token[] {
  const after = tokens[mark + 1];
  return tokens.slice(0, mark).concat(tokens.slice(after !== undefined && after.text === ";" ? mark + 2 : mark + 1));
}

/** The block form: every marked function as it was written, without its marker. */
export function withoutRareMarks(tokens: readonly Token[]): Token[] {
  let out = tokens.slice();
  for (let k = out.length - 1; k >= 0; k--) {
    if ((out[k] as Token).kind === "string" && markAt(out, k) !== null) out = withoutMark(out, k);
  }
  return out;
}

/** The function form: every marked function replaced by a stand-in that makes it when called. */
export function rareFunctionsAsStandIns(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    const m = t.kind === "word" && t.text === "function" ? markedFunction(tokens, k) : null;
    if (m === null) {
      out.push(t);
      continue;
    }
    const fn = withoutMark(tokens.slice(k, m.end + 1), m.mark - k);
    const free = m.names.join(",");
    // Pretokenised whole, the wrapper too: its `function` and `return` are a byte each, as the
    // function's own are, and eval reads the tokens as the boot does (ADR 0009).
    const made = joinPretokenised(es5Tokens("(function(" + free + "){return ").concat(fn, es5Tokens("})")));
    // A text the body file's comment cannot hold stays a function, defined at boot as any other.
    if (!fitsComment(made)) {
      for (const s of fn) out.push(s);
    } else {
      // The one value of an outer block's name puts what it made there, and a property's value in
      // the property of the object it was called on when it finds itself there (so it calls itself
      // by a name): later calls go to the made function directly.
      const make = RARE_MAKER + "(" + JSON.stringify(made) + ",[" + free + "]";
      const self = m.property !== "" ? selfName(m.names) : "";
      const standIn =
        m.bound !== ""
          ? "function(){return(" + m.bound + "=" + make + ")).apply(this,arguments)}"
          : self !== ""
            ? "function " + self + "(){return " + make + ",this,arguments," + self + "," + JSON.stringify(m.property) + ")}"
            : "function(){return " + make + ",this,arguments)}";
      for (const s of es5Tokens(standIn)) out.push(s);
    }
    k = m.end;
  }
  return out;
}
