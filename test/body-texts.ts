/**
 * The function form's body file with each call of its text reader replaced by the literal it reads
 * (src/boards/bodyTexts.ts), and each text handed to the maker of rarely called functions by its
 * offset and length given as that text again, and the comment of texts and the reader's and maker's
 * definitions taken off: what
 * the body was before its long literals left the code, pretokenised. Each literal is written as
 * JSON.stringify writes it, which pretokenise leaves as it is: so the result equals the pretokenised
 * original only where the build wrote those literals the same way, which terser does for the
 * bundle's texts (double quotes, no escapes but the ones JSON uses).
 */
import { BODY_TEXT_READER, bodyTextReader, RARE_MAKER, RARE_MAKER_DEFINITION } from "../src/boards/bodyTexts";
import { es5Tokens, joinPretokenised, pretokenise, untokenise } from "../src/boards/pretokenise";

export function textsRestored(file: string, bodyFile = "petfw.js"): string {
  if (!file.startsWith("/*")) return file;
  const codeAt = file.indexOf("*/") + 2;
  // The offset the file begins with is where its comment ends (what the head evaluates from).
  const first = file.substr(2, 5);
  if (!/^[0-9]{5}$/.test(first) || Number(first) !== codeAt) throw new Error("the body file's first number " + first + " is not where its code starts, " + codeAt);
  const reader = pretokenise(bodyTextReader(bodyFile));
  let code = file.slice(codeAt);
  if (!code.startsWith(reader)) throw new Error("the body's code does not begin with the text reader");
  code = code.slice(reader.length);
  const maker = pretokenise(RARE_MAKER_DEFINITION);
  if (code.startsWith(maker)) code = code.slice(maker.length);
  const tokens = es5Tokens(untokenise(code));
  const out: typeof tokens = [];
  const text = (at: number, length: number): string => {
    if (at < 7 || at + length > codeAt - 2) throw new Error("a text outside the comment: " + at + "," + length);
    return JSON.stringify(file.substr(at, length));
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === "word" && t.text === RARE_MAKER && tokens[k + 1]?.text === "(" && tokens[k + 2]?.kind === "number") {
      if (tokens[k + 3]!.text !== ",") throw new Error("a maker call of another shape");
      out.push(t, tokens[k + 1]!, { kind: "string", text: text(Number(tokens[k + 2]!.text), Number(tokens[k + 4]!.text)) });
      k += 4;
    } else if (t.kind === "word" && t.text === BODY_TEXT_READER) {
      const at = Number(tokens[k + 2]!.text);
      const length = Number(tokens[k + 4]!.text);
      if (tokens[k + 1]!.text !== "(" || tokens[k + 3]!.text !== "," || tokens[k + 5]!.text !== ")") throw new Error("a reader call of another shape");
      out.push({ kind: "string", text: text(at, length) });
      k += 5;
    } else {
      out.push(t);
    }
  }
  return joinPretokenised(out);
}
