/**
 * The text the Device tab types into Espruino's console (src/web/device/protocol.ts): names as UTF-8
 * byte escapes, which boards and versions are refused, an upload that covers the bundle exactly, and
 * answers that cannot be mistaken for the echo of the command that asked for them.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as P from "../src/web/device/protocol";
import type { BoardProfile } from "../src/boards/boardProfile";

describe("device protocol text", () => {
  it("sends a name as its UTF-8 bytes, escaping quotes, backslashes and anything outside printable ASCII", () => {
    expect(P.espruinoString('Zoë "q" \\')).toBe('"Zo\\xc3\\xab \\x22q\\x22 \\x5c"');
    expect(P.espruinoString("🐾")).toBe('"\\xf0\\x9f\\x90\\xbe"');
    expect(P.espruinoString("Rex")).toBe('"Rex"');
  });

  it("refuses by the rule the tools share (src/boards/boardFit.ts), with the page's profile: another board, an older Espruino, flash laid out otherwise", () => {
    const esp32 = JSON.parse(readFileSync(join(__dirname, "..", "boards", "esp32.json"), "utf8")) as BoardProfile;
    // What an ESP32 with Espruino 2v29 answers (its port's hard-coded free list, 4 KiB pages).
    const answer = (board: string, version: string, free = [{ addr: 0xe000, length: 0x2000 }, { addr: 0x310000, length: 0x10000 }, { addr: 0x360000, length: 0xa0000 }]) =>
      P.parseIdentity("#pet-id " + JSON.stringify({ b: board, v: version, f: 0, s: 917504, free, p: { addr: 0x31f000, length: 4096 } }))!;
    for (const v of ["2v26", "2v26.3", "2v29.277", "2v100", "3v0"]) expect(P.refusal(answer("ESP32", v), esp32)).toBeNull();
    for (const v of ["2v05", "1v99", "2v5", "unknown", ""]) expect(P.refusal(answer("ESP32", v), esp32)).toContain("needs 2v06 or later");
    for (const b of ["ESP32S3", "ESP8266", "LINUX", "PICO_R1_3", ""]) expect(P.refusal(answer(b, "2v29"), esp32)).toContain('BOARD "' + b + '"');
    expect(P.refusal(answer("ESP32", "2v29", [{ addr: 0xe000, length: 0x2000 }]), esp32)).toMatch(/not inside the flash this board reports free.*Nothing was sent\.$/);
  });

  it("cuts the bundle into 1 KiB Storage.write pieces that cover it exactly, the first giving the total size", () => {
    const code = "x".repeat(2500) + '"\\\n\u0001';
    const steps = P.uploadCommands([{ name: ".bootcde", code }]);
    expect(steps.map((s) => s.offset)).toEqual([0, 1024, 2048]);
    let rebuilt = "";
    steps.forEach((s, k) => {
      const m = /require\("Storage"\)\.write\("\.bootcde",(".*"),(\d+)(?:,(\d+))?\)\)\n$/.exec(s.line);
      expect(m).not.toBeNull();
      expect(Number(m![2])).toBe(s.offset);
      expect(m![3]).toBe(k === 0 ? String(code.length) : undefined);
      rebuilt += JSON.parse(m![1] as string);
    });
    expect(rebuilt).toBe(code);
  });

  it("sizes the pieces to the board's free memory: 1 KiB when short or unknown, up to 4 KiB with room", () => {
    expect(P.pieceBytes(null)).toBe(1024);
    expect(P.pieceBytes(0)).toBe(1024);
    expect(P.pieceBytes(665)).toBe(1024); // an ESP32 without PSRAM, the pet running: 2 500 JsVars, most of them taken
    expect(P.pieceBytes(1400)).toBe(2048);
    expect(P.pieceBytes(18167)).toBe(4096); // Espruino 2v06 on the emulated ESP32, with PSRAM
    expect(P.parseQuiet(">#pet-quiet 18167")).toEqual({ free: 18167 });
    expect(P.parseQuiet("#pet-quiet")).toEqual({ free: null });
    expect(P.parseQuiet("print('#pet-quiet '+process.memory().free)")).toBeNull();
    const code = "y".repeat(9000);
    const steps = P.uploadCommands([{ name: ".bootcde", code }], P.pieceBytes(18167));
    expect(steps.map((s) => [s.offset, s.end])).toEqual([[0, 4096], [4096, 8192], [8192, 9000]]);
    expect(steps.map((s) => JSON.parse(/,(".*"),\d+(?:,\d+)?\)\)\n$/.exec(s.line)![1] as string)).join("")).toBe(code);
  });

  it("writes a bundle of several files one after the other, each from its own offset 0, acknowledged at positions of the whole upload", () => {
    const files = [{ name: "petfw.js", code: "b".repeat(1500) }, { name: ".bootcde", code: "h".repeat(30) }];
    const steps = P.uploadCommands(files);
    expect(steps.map((s) => [s.offset, s.end])).toEqual([[0, 1024], [1024, 1500], [1500, 1530]]);
    const writes = steps.map((s) => /\.write\(("[^"]*"),(".*"),(\d+)(?:,(\d+))?\)\)\n$/.exec(s.line)!);
    expect(writes.map((m) => [JSON.parse(m[1]!), Number(m[3]), m[4]])).toEqual([["petfw.js", 0, "1500"], ["petfw.js", 1024, undefined], [".bootcde", 0, "30"]]);
    expect(steps.map((s) => P.parseAck("#pet-ack " + s.offset + " true")!.offset)).toEqual([0, 1024, 1500]);
    expect(P.crcCommand("petfw.js")).toContain('read("petfw.js")');
    expect(P.crcCommand()).toContain('read(".bootcde")');
  });

  it("never reads a command's own echo as its answer", () => {
    const commands = [P.identifyCommand({ address: 0x310000, size: 0x10000 }), P.crcCommand(), P.statusCommand(), P.petCallCommand("rename", ['x" #pet-r "ok']), ...P.uploadCommands([{ name: ".bootcde", code: "abc" }]).map((s) => s.line)];
    for (const c of commands) {
      for (const line of c.split("\n")) {
        const echoed = line.replace(/[\x03\x10]/g, "");
        expect(P.parseIdentity(echoed)).toBeNull();
        expect(P.parseAck(echoed)).toBeNull();
        expect(P.parseCrc(echoed)).toBeNull();
        expect(P.parseStatus(echoed).found).toBe(false);
        expect(P.parseResult(echoed)).toBeNull();
      }
    }
    // ...while the real answers parse.
    expect(P.parseAck(">#pet-ack 1024 true")).toEqual({ offset: 1024, ok: true });
    expect(P.parseCrc("#pet-crc -1")).toBe(0xffffffff);
    expect(P.parseResult('#pet-r "bad-name"')).toBe("bad-name");
  });
});
