/**
 * The device's codec path, held to Node's. The bundle for a profile that runs on Espruino reads and
 * writes the payload's u32 fields through Uint32Array views, one of them 6 bytes off the 4-byte grid
 * (ESPRUINO_WORD_VIEWS, src/save/codec.ts); Node, the simulators and the golden tests run the
 * DataView path, which test/codec-golden-vectors.test.ts pins to hand-assembled bytes. Here a probe
 * bundle (test/fixtures/codec-probe-entry.ts) runs on Espruino's Linux build, loads every golden
 * file and random valid payloads, from views 0 to 3 bytes into their buffers and at two wall clocks,
 * and saves each loaded world again; every answer (status, save stamp, absence, bytes written) must
 * be Node's, and a valid golden file loaded at clock 0 must come back byte for byte.
 *
 * Runs only with ESPRUINO (test/espruino-interpreter.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";
import { loadWorld, saveWorld } from "../src/save/codec";
import { bytesToHex, hexToBytes } from "../src/core/hex";
import { validWorld, clockBig, fromBig } from "./core-arbitraries";
import { ESPRUINO, runEspruinoCode, loadInterpreterProfile, NEEDS_ESPRUINO } from "./espruino-interpreter";

const PROBE = join(ROOT, "test", "fixtures", "codec-probe-entry.ts");
const GOLDEN = join(ROOT, "test", "golden");
/** A wall clock a day after the random worlds' save stamps at most: absence up to the clamp. */
const LATE_NOW = 1_900_000_000_000;

type Case = [string, number, number];

/** The line Node's codec gives for a case, in the probe's format. */
function nodeLine(i: number, c: Case): string {
  const loaded = loadWorld(hexToBytes(c[0])!, c[1]);
  let again = "-";
  if (loaded.world !== null) {
    const saved = saveWorld(loaded.world, loaded.savedAt);
    again = saved.bytes === null ? saved.status : bytesToHex(saved.bytes);
  }
  return i + " " + loaded.status + " " + loaded.savedAt.hi + ":" + loaded.savedAt.lo + " " + loaded.absenceMs + " " + again;
}

describe.skipIf(!ESPRUINO)("the device's word-view codec agrees with Node's " + NEEDS_ESPRUINO, () => {
  let dir = "";
  let bundle = "";
  const cases: Case[] = [];
  const golden: { file: string; hex: string }[] = [];
  let printed = new Map<string, string>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pet-codec-probe-"));
    for (const file of readdirSync(GOLDEN).filter((f) => f.endsWith(".hex")).sort()) {
      golden.push({ file, hex: readFileSync(join(GOLDEN, file), "utf8").trim() });
    }
    const random = fc.sample(fc.tuple(validWorld, clockBig), { numRuns: 40, seed: 20261205 });
    const randomHex = random.map(([w, at]) => bytesToHex(saveWorld(w, fromBig(at)).bytes!));
    for (const hex of golden.map((g) => g.hex).concat(randomHex)) {
      for (const now of [0, LATE_NOW]) for (let offset = 0; offset < 4; offset++) cases.push([hex, now, offset]);
    }
    const { code } = await buildFirmware({ board: (await loadInterpreterProfile()).path, entry: PROBE, outFile: null });
    bundle = code;
    const out = await runEspruinoCode("var PROBE_CASES = " + JSON.stringify(cases) + ";\n" + code, dir);
    printed = new Map();
    for (const m of out.matchAll(/#probe (\S+) (.*)/g)) printed.set(m[1]!, m[1] + " " + m[2]!.trim());
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the probe's bundle takes the word views, not a DataView", () => {
    expect(bundle).toContain("Uint32Array");
    expect(bundle).not.toMatch(/getUint32\(6,|setUint32\(6,/);
  });

  it("answers every case as Node does", () => {
    expect(printed.get("done")).toBe("done 1");
    expect(cases.length).toBeGreaterThan(100);
    for (let i = 0; i < cases.length; i++) expect(printed.get(String(i)), "case " + i + ": " + cases[i]![0].slice(0, 24) + "... at " + cases[i]![1] + ", offset " + cases[i]![2]).toBe(nodeLine(i, cases[i]!));
  });

  it("gives back each valid golden file byte for byte", () => {
    const valid = golden.filter((g) => g.file.startsWith("valid-"));
    expect(valid.length).toBeGreaterThanOrEqual(3);
    for (const g of valid) {
      const i = cases.findIndex((c) => c[0] === g.hex && c[1] === 0 && c[2] === 3);
      expect(printed.get(String(i))!.split(" ")[4], g.file).toBe(g.hex);
    }
  });
});
