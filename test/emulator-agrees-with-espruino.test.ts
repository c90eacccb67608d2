/**
 * The emulation the desktop and the page run the firmware on (src/host/emulator: Graphics, the
 * SSD1306 model behind I2C1, E) held to the real interpreter: one probe bundle
 * (test/fixtures/emulator-probe-entry.ts), built like the firmware for a board with the ESP32's
 * panel, runs on Espruino's Linux build and in the desktop host, and both must print the same lines:
 * the same bytes on the I2C bus for every picture the firmware draws (whole and partial), the same
 * frame buffers for the whole default font and for shapes at and past the edges, the same answers
 * from E and the byte helpers. The SSD1306 model, fed those transfers, must then hold the frame the
 * interpreter's Graphics drew.
 *
 * Runs only with ESPRUINO (test/espruino-interpreter.ts); the desktop-host-emulates-espruino-apis
 * tests pin the emulation on its own without an interpreter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware, ROOT } from "../scripts/lib/build.js";
import { createEspruinoHost } from "../src/host/node/sim/espruinoHost";
import { NorFlashSim } from "../src/storage/norFlashSim";
import type { BoardProfile } from "../src/boards/boardProfile";
import { ESPRUINO, runEspruinoCode, loadInterpreterProfile, NEEDS_ESPRUINO } from "./espruino-interpreter";

const PROBE = join(ROOT, "test", "fixtures", "emulator-probe-entry.ts");

/** The "#probe TAG VALUE" lines of a run, as TAG -> VALUE (a tag printed twice is an error). */
function probeLines(text: string): Map<string, string> {
  const lines = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const m = /#probe (\S+) (.*)$/.exec(raw);
    if (!m) continue;
    if (lines.has(m[1]!)) throw new Error("probe printed " + m[1] + " twice");
    lines.set(m[1]!, m[2]!);
  }
  return lines;
}

describe.skipIf(!ESPRUINO)("the emulation agrees with the interpreter " + NEEDS_ESPRUINO, () => {
  let dir = "";
  let onEspruino = new Map<string, string>();
  let emulated = new Map<string, string>();
  let panelRam: Uint8Array = new Uint8Array(0);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pet-emulator-probe-"));
    // The interpreter's own profile with the ESP32 profile's panel, button and LED, as the bench does.
    const base = (await loadInterpreterProfile()).profile;
    const esp32 = JSON.parse(readFileSync(join(ROOT, "boards", "esp32.json"), "utf8")) as BoardProfile;
    const profile: BoardProfile = { ...base, name: base.name + " with the ESP32's panel", display: esp32.display, button: esp32.button, led: esp32.led };
    const boardFile = join(dir, "board.json");
    writeFileSync(boardFile, JSON.stringify(profile));
    const { code } = await buildFirmware({ board: boardFile, entry: PROBE, outFile: null });

    onEspruino = probeLines(await runEspruinoCode(code, dir));

    const printed: string[] = [];
    const host = createEspruinoHost({
      board: { petRegion: { address: 0, size: 8192, pageSize: 4096 }, display: profile.display },
      flash: new NorFlashSim({ size: 8192, pageSize: 4096 }),
      output: (line) => printed.push(line),
    });
    try {
      host.run(code, "probe.js");
    } finally {
      host.stop();
    }
    emulated = probeLines(printed.join("\n"));
    panelRam = host.panel.ram.slice();
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ran to the end in both, drawing on a panel in both", () => {
    expect(onEspruino.get("done")).toBe("1");
    expect(emulated.get("done")).toBe("1");
    expect(onEspruino.get("display")).toBeUndefined();
    expect(emulated.get("display")).toBeUndefined();
    expect(onEspruino.has("line")).toBe(false); // no "display failed" in either
    expect(emulated.has("line")).toBe(false);
  });

  it("puts the same bytes on the I2C bus for every picture, whole and partial", () => {
    const tags = [...onEspruino.keys()].filter((t) => t === "init" || t.startsWith("show"));
    expect(tags.length).toBe(1 + 4 * 6 * 5);
    for (const tag of tags) expect(emulated.get(tag), tag).toBe(onEspruino.get(tag));
    expect(emulated.get("buffer")).toBe(onEspruino.get("buffer"));
  });

  it("shows on the SSD1306 model the frame the interpreter's Graphics drew", () => {
    expect(Buffer.from(panelRam).toString("hex")).toBe(onEspruino.get("buffer"));
  });

  it("draws the whole font and shapes past the edges alike, with either bit order", () => {
    for (const tag of ["font", "fontMsb", "shapes", "shapesMsb"]) {
      expect(onEspruino.get(tag), tag).toMatch(/^[0-9a-f]{2048}/);
      expect(emulated.get(tag), tag).toBe(onEspruino.get(tag));
    }
  });

  it("answers the same from E and the byte helpers", () => {
    expect(onEspruino.get("bytes")).toMatch(/^3421780262,/); // E.CRC32("123456789") = 0xCBF43926
    expect(emulated.get("bytes")).toBe(onEspruino.get("bytes"));
  });
});
