/**
 * The text the Device tab types into Espruino's console (src/web/device/protocol.ts): names as UTF-8
 * byte escapes, which boards and versions are refused, an upload that covers the bundle exactly, and
 * answers that cannot be mistaken for the echo of the command that asked for them.
 */
import { describe, expect, it } from "vitest";
import * as P from "../src/web/device/protocol";

describe("device protocol text", () => {
  it("sends a name as its UTF-8 bytes, escaping quotes, backslashes and anything outside printable ASCII", () => {
    expect(P.espruinoString('Zoë "q" \\')).toBe('"Zo\\xc3\\xab \\x22q\\x22 \\x5c"');
    expect(P.espruinoString("🐾")).toBe('"\\xf0\\x9f\\x90\\xbe"');
    expect(P.espruinoString("Rex")).toBe('"Rex"');
  });

  it("accepts an ESP32 with 2v26 or later and refuses everything else", () => {
    for (const v of ["2v26", "2v26.3", "2v29.277", "2v100", "3v0"]) expect(P.refusal({ board: "ESP32", version: v })).toBeNull();
    for (const v of ["2v25", "2v25.99", "1v99", "2v9", "unknown", ""]) expect(P.refusal({ board: "ESP32", version: v })).toContain("needs 2v26 or later");
    for (const b of ["ESP32S3", "ESP8266", "LINUX", "PICO_R1_3", ""]) expect(P.refusal({ board: b, version: "2v29" })).toContain('BOARD "' + b + '"');
  });

  it("cuts the bundle into 1 KiB Storage.write pieces that cover it exactly, the first giving the total size", () => {
    const code = "x".repeat(2500) + '"\\\n\u0001';
    const steps = P.uploadCommands(code);
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

  it("never reads a command's own echo as its answer", () => {
    const commands = [P.identifyCommand(), P.crcCommand(), P.statusCommand(), P.petCallCommand("rename", ['x" #pet-r "ok']), ...P.uploadCommands("abc").map((s) => s.line)];
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
