/**
 * The function form's body file with each call of its text reader replaced by the literal it reads
 * (src/boards/bodyTexts.ts), and the comment of texts and the reader's definition taken off: what
 * the body was before its long literals left the code, pretokenised. Each literal is written as
 * JSON.stringify writes it, which pretokenise leaves as it is: so the result equals the pretokenised
 * original only where the build wrote those literals the same way, which terser does for the
 * bundle's texts (double quotes, no escapes but the ones JSON uses).
 */
import { BODY_TEXT_READER, bodyTextReader } from "../src/boards/bodyTexts";
import { es5Tokens, joinPretokenised, pretokenise, untokenise } from "../src/boards/pretokenise";

export function textsRestored(file: string, bodyFile = "petfw.js"): string {
  if (!file.startsWith("/*")) return file;
  const codeAt = file.indexOf("*/") + 2;
  const reader = pretokenise(bodyTextReader(bodyFile));
  const code = file.slice(codeAt);
  if (!code.startsWith(reader)) throw new Error("the body's code does not begin with the text reader");
  const tokens = es5Tokens(untokenise(code.slice(reader.length)));
  const out: typeof tokens = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === "word" && t.text === BODY_TEXT_READER) {
      const at = Number(tokens[k + 2]!.text);
      const length = Number(tokens[k + 4]!.text);
      if (tokens[k + 1]!.text !== "(" || tokens[k + 3]!.text !== "," || tokens[k + 5]!.text !== ")") throw new Error("a reader call of another shape");
      if (at < 2 || at + length > codeAt - 2) throw new Error("a text outside the comment: " + at + "," + length);
      out.push({ kind: "string", text: JSON.stringify(file.substr(at, length)) });
      k += 5;
    } else {
      out.push(t);
    }
  }
  return joinPretokenised(out);
}
