/**
 * The firmware bundle as Espruino's own lexer would read it, with each keyword and multi-character
 * operator already replaced by the one byte the lexer turns it into (its token number), and no
 * whitespace the code does not need: what EspruinoTools calls pretokenising, and what the board's
 * Storage holds.
 *
 * Why: Espruino keeps a function's code as text and reads that text again at every call, so every
 * `return`, `function`, `===` on a path is read a character at a time and matched against the
 * reserved words at every run. A byte of 128 or more is a token the lexer takes as it is (2v06's
 * jslGetNextToken passes any character outside its jump table through as the token; every version
 * since keeps the numbers, which the Web IDE and Bangle.js's app loader rely on). So the bundle in
 * Storage is smaller and each path is shorter to read; measured in docs/speed.md.
 *
 * What is left as text, though the lexer has a token for it:
 * - `catch`: Espruino's own tools leave it as text (espruino/Espruino#1868);
 * - a keyword used as a property name (`a.default`, `{default: 1}`): reading it as text gives the
 *   same token, and an old interpreter need not handle a token where it expects a name;
 * - `undefined`, which is a name in JavaScript, and what ES5 output does not hold (`=>`, `class`, `of`...).
 * Strings, numbers and names stay as they are (raw strings and numbers need 2v20 and 2v25).
 *
 * The bundle is terser's ES5 output, so this reads ES5 tokens only, without a parser; a `/` after a
 * `)`, `]`, `}`, name or number is a division, elsewhere a regular expression starts (terser never
 * writes one where that guess is wrong; test/bundle-pretokenised-tokens-agree.test.ts holds every
 * board's bundle to acorn's tokens). Anything else (a template, a backslash outside a string) throws.
 * Host-neutral: the upload in Node and the page in the browser both call it (bundleForm.ts).
 */

/** Espruino's first token number for an operator (LEX_EQUAL), and the operators in token order. */
const OPERATOR_START = 138;
const OPERATORS = ["==", "===", "!=", "!==", "<=", "<<", "<<=", ">=", ">>", ">>>", ">>=", ">>>=", "+=", "-=", "++", "--", "*=", "/=", "%=", "&=", "&&", "|=", "||", "^=", "=>"];
/** The reserved words in token order, from LEX_R_IF (right after the operators). */
const RESERVED = ["if", "else", "do", "while", "for", "break", "continue", "function", "return", "var", "let", "const", "this", "throw", "try", "catch", "finally", "true", "false", "null", "undefined", "new", "in", "instanceof", "switch", "case", "default", "delete", "typeof", "void"];
/** Left as text (above). */
const KEPT_AS_TEXT = ["catch", "undefined", "=>"];

/** The token byte for each text that gets one. */
const TOKEN_BYTE: { [text: string]: string } = {};
OPERATORS.concat(RESERVED).forEach((text, i) => {
  if (KEPT_AS_TEXT.indexOf(text) < 0) TOKEN_BYTE[text] = String.fromCharCode(OPERATOR_START + i);
});

/** The multi-character punctuators of ES5 (the operators but `=>`), longest first, so the first that matches is the lexer's. */
const PUNCTUATORS = OPERATORS.filter((o) => o !== "=>").sort((a, b) => b.length - a.length);
/** Words after which an expression starts, so that a `/` opens a regular expression. */
const BEFORE_EXPRESSION = ["return", "typeof", "instanceof", "in", "new", "delete", "void", "throw", "case", "do", "else"];

type Kind = "word" | "number" | "string" | "regex" | "punct";
export interface Token {
  kind: Kind;
  text: string;
}

const isWordStart = (c: string): boolean => /^[A-Za-z_$]$/.test(c);
const isWordChar = (c: string): boolean => /^[A-Za-z0-9_$]$/.test(c);
const isDigit = (c: string): boolean => c >= "0" && c <= "9";

/** The ES5 tokens of `code`, comments and whitespace dropped. Throws on what ES5 output does not hold. */
export function es5Tokens(code: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = code.length;
  const fail = (what: string): never => {
    throw new Error("cannot pretokenise the bundle: " + what + " at character " + i);
  };
  while (i < n) {
    const c = code.charAt(i);
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
    } else if (c === "/" && code.charAt(i + 1) === "/") {
      while (i < n && code.charAt(i) !== "\n") i++;
    } else if (c === "/" && code.charAt(i + 1) === "*") {
      const end = code.indexOf("*/", i + 2);
      if (end < 0) fail("an unfinished comment");
      i = end + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && code.charAt(j) !== c) {
        if (code.charAt(j) === "\n") fail("a string across lines");
        j += code.charAt(j) === "\\" ? 2 : 1;
      }
      if (j >= n) fail("an unfinished string");
      out.push({ kind: "string", text: code.slice(i, j + 1) });
      i = j + 1;
    } else if (isDigit(c) || (c === "." && isDigit(code.charAt(i + 1)))) {
      const m = /^(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(code.slice(i, i + 40));
      if (m === null) return fail("a number");
      if (isWordChar(code[i + m[0].length] || "")) fail("a number run into a name");
      out.push({ kind: "number", text: m[0] });
      i += m[0].length;
    } else if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordChar(code.charAt(j))) j++;
      out.push({ kind: "word", text: code.slice(i, j) });
      i = j;
    } else if (c === "/" && regexMayStart(out[out.length - 1])) {
      let j = i + 1;
      let inClass = false;
      while (j < n && (inClass || code.charAt(j) !== "/")) {
        if (code.charAt(j) === "\n") fail("a regular expression across lines");
        if (code.charAt(j) === "[") inClass = true;
        else if (code.charAt(j) === "]") inClass = false;
        j += code.charAt(j) === "\\" ? 2 : 1;
      }
      if (j >= n) fail("an unfinished regular expression");
      j++;
      while (j < n && isWordChar(code.charAt(j))) j++;
      out.push({ kind: "regex", text: code.slice(i, j) });
      i = j;
    } else if (c === "`" || c === "\\" || c.charCodeAt(0) > 0x7e || c.charCodeAt(0) < 0x20) {
      fail(c === "`" ? "a template literal" : "a character outside ES5 tokens (code " + c.charCodeAt(0) + ")");
    } else {
      let p = c;
      for (const q of PUNCTUATORS) {
        if (code.startsWith(q, i)) {
          p = q;
          break;
        }
      }
      out.push({ kind: "punct", text: p });
      i += p.length;
    }
  }
  return out;
}

/** Whether a `/` after token `prev` starts a regular expression rather than dividing. */
function regexMayStart(prev: Token | undefined): boolean {
  if (prev === undefined) return true;
  if (prev.kind === "word") return BEFORE_EXPRESSION.indexOf(prev.text) >= 0;
  if (prev.kind === "punct") return prev.text !== ")" && prev.text !== "]" && prev.text !== "}";
  return false;
}

/** Whether `a` then `b`, with nothing between them, would be read as other tokens than the two. */
function needsSpace(a: string, b: string): boolean {
  const last = a.charAt(a.length - 1);
  const first = b.charAt(0);
  return (isWordChar(last) && isWordChar(first)) || (last === "+" && first === "+") || (last === "-" && first === "-") ||
    (last === "/" && (first === "/" || first === "*")) || (isDigit(a.charAt(0)) && first === ".");
}

/**
 * `code` (ES5) pretokenised: keywords and operators as Espruino's token bytes, whitespace and comments
 * gone but where two tokens would otherwise run together. Each character of the result is one byte
 * (code below 256), as Storage holds it.
 */
export function pretokenise(code: string): string {
  return joinPretokenised(es5Tokens(code));
}

/** `tokens` (es5Tokens') as pretokenise writes them. */
export function joinPretokenised(tokens: readonly Token[]): string {
  let out = "";
  let lastText = "";
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    let byte: string | undefined = TOKEN_BYTE.hasOwnProperty(t.text) && (t.kind === "word" || t.kind === "punct") ? TOKEN_BYTE[t.text] : undefined;
    if (byte !== undefined && t.kind === "word") {
      const prev = tokens[k - 1];
      const next = tokens[k + 1];
      const isPropertyName = (prev !== undefined && prev.text === ".") ||
        (next !== undefined && next.text === ":" && prev !== undefined && (prev.text === "{" || prev.text === ","));
      if (isPropertyName) byte = undefined;
    }
    if (byte !== undefined) {
      out += byte;
      lastText = "";
    } else {
      if (lastText !== "" && needsSpace(lastText, t.text)) out += " ";
      out += t.text;
      lastText = t.text;
    }
  }
  return out;
}

/**
 * The text of a pretokenised `code` again, each token byte as its word or operator with a space
 * wherever it would otherwise run into what is beside it: for tests, and for reading what a board holds.
 */
export function untokenise(code: string): string {
  const words = OPERATORS.concat(RESERVED);
  const runsInto = (w: string, c: string): boolean => c !== "" && (isWordChar(w.charAt(0)) ? isWordChar(c) : "+-*/%&|^!<>=".indexOf(c) >= 0);
  let out = "";
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c < OPERATOR_START || c >= OPERATOR_START + words.length) {
      out += code.charAt(i);
      continue;
    }
    const w = words[c - OPERATOR_START] as string;
    const after = code.charCodeAt(i + 1) >= OPERATOR_START ? " " : code.charAt(i + 1);
    out += (runsInto(w, out.charAt(out.length - 1)) ? " " : "") + w + (runsInto(w, after) ? " " : "");
  }
  return out;
}
