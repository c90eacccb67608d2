/**
 * nameForDisplay (src/core/name.ts) run by Espruino itself, whose strings keep only a character's
 * low byte where Node's keep all of it (String.fromCharCode(0x263A) is ':' there, as on the ESP32):
 * the text the panel draws for a name is the same as in Node. Reading the name through a string
 * would show "Zoë☺" as "Zo?:" and "Żaba" as "{aba" on the board. Run twice: as the simulators'
 * bundles build it, and with ESPRUINO_BUILD defined as the device bundles do (the name read with
 * E.toString itself).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { nameForDisplay } from "../src/core/name";
import { ESPRUINO, NEEDS_ESPRUINO } from "./espruino-interpreter";

const NAMES = ["Zo\u00eb\u263a", "\u017baba", "\u0141ucja", "Stra\u00dfe", "a\u{1f600}b", "Pip"];

describe.skipIf(!ESPRUINO)("the name as the panel draws it, on Espruino " + NEEDS_ESPRUINO, () => {
  it.each([
    ["as the simulators build it", {}],
    ["as the device bundles build it (ESPRUINO_BUILD)", { ESPRUINO_BUILD: "true" }],
  ])("is the same text as in Node, accented letters without their accents, %s", async (_how, define) => {
    const bytes = NAMES.map((n) => Array.from(new TextEncoder().encode(n)));
    const entry =
      'import { nameForDisplay } from "./src/core/name";\n' +
      "const names = " + JSON.stringify(bytes) + ";\n" +
      'for (let k = 0; k < names.length; k++) print("#name " + nameForDisplay(new Uint8Array(names[k])));\n';
    const bundled = await build({
      stdin: { contents: entry, resolveDir: join(__dirname, ".."), loader: "ts" },
      bundle: true,
      format: "iife",
      target: "es2015",
      write: false,
      logLevel: "silent",
      define,
    });
    const out = await new Promise<string>((resolve, reject) =>
      execFile(ESPRUINO as string, ["-e", bundled.outputFiles[0]!.text], { timeout: 20_000 }, (e, stdout) => (e && !stdout.includes("#name") ? reject(e) : resolve(stdout))),
    );
    const shown = out.split("\n").filter((l) => l.startsWith("#name ")).map((l) => l.slice(6).replace(/\r$/, ""));
    expect(shown).toEqual(NAMES.map((n) => nameForDisplay(new TextEncoder().encode(n))));
    expect(shown).toEqual(["Zoe?", "Zaba", "Lucja", "Strase", "a?b", "Pip"]);
  });
});
