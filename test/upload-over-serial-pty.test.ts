/**
 * `npm run upload` over a real serial device: a pseudo-terminal whose far side is a scripted
 * Espruino console (test/fixtures/fake-board-pty.py). A pty is never in the espruino tool's list
 * of ports (that list comes from udev), so every upload here is also the "port not listed, used as
 * named" case. What the board received after the upload asked it what it is is replayed against a
 * recording Storage: it must be the bundle, byte for byte, then load(".bootcde"); the scripted board
 * acknowledges each piece and answers the CRC and pet.status() as a board does (the shared console
 * protocol, src/boards/consoleProtocol.ts). A board that does not answer, or answers as one the
 * profile does not fit, is sent nothing of the bundle; one that stops answering mid-way is never
 * loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { blockFormCode } from "../src/boards/bundleForm";
import { portList, replayUpload, runNode, startFakeBoard, TINY_ENTRY, type FakeBoard } from "./serial-fake-board";

const dir = mkdtempSync(join(tmpdir(), "pet-upload-pty-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** No list from this machine: what the tests see does not depend on its serial hardware. */
const noPorts = { PET_SERIAL_LIST: portList(join(dir, "none.json"), []) };

describe("the upload over a pty to a scripted Espruino console", () => {
  let board: FakeBoard;
  let run: { code: number; out: string };
  beforeAll(async () => {
    board = await startFakeBoard("repl", join(dir, "repl.bin"));
    run = await runNode("scripts/upload.js", ["--port", board.path, "--bundle", join(dir, "firmware.js")], noPorts);
  }, 120_000);
  afterAll(() => board?.stop());

  it("asks the board what it is first, says it fits, then uploads the bundle, pretokenised, byte for byte into .bootcde and restarts into it", () => {
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain("Espruino 2v29 on ESP32 at " + board.path + ": fits boards/esp32.json (pet region 0x310000, 65536 bytes, in free flash, outside Storage)");
    expect(board.received().indexOf("#pet-id ")).toBeLessThan(board.received().indexOf("Storage"));
    const replay = replayUpload(board.received());
    const bundle = readFileSync(join(dir, "firmware.js"), "latin1");
    expect(bundle.length).toBeGreaterThan(1000);
    expect(Object.keys(replay.files)).toEqual([".bootcde"]);
    expect(replay.files[".bootcde"]).toBe(blockFormCode(bundle));
    expect(replay.loads).toEqual([".bootcde"]);
    expect(run.out).toMatch(/uploaded; the board restarted from \.bootcde and the pet answers: Pip, updates 0, storage ok/);
    // The pet was paused before the first piece, and the load came only after the CRC was asked.
    const received = board.received();
    expect(received.indexOf("#pet-quiet")).toBeLessThan(received.indexOf("Storage\").write"));
    expect(received.indexOf("#pet-crc")).toBeLessThan(received.indexOf('load(".bootcde")'));
  });

  it("says in one line that the port is not listed and is used as named", () => {
    const lines = run.out.split("\n").filter((l) => l.includes("not in the espruino tool's list"));
    expect(lines).toEqual(["port " + board.path + " is not in the espruino tool's list of serial ports; using it as named"]);
  });

  it("reports progress in rising steps up to the whole bundle", () => {
    const steps = [...run.out.matchAll(/sent (\d+)% \((\d+) of (\d+) bytes\)/g)].map((m) => ({ pct: Number(m[1]), sent: Number(m[2]), total: Number(m[3]) }));
    expect(steps.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.sent).toBeGreaterThan(steps[i - 1]!.sent);
    const last = steps[steps.length - 1]!;
    expect(last.pct).toBe(100);
    expect(last.sent).toBe(last.total);
    expect(last.total).toBe(blockFormCode(readFileSync(join(dir, "firmware.js"), "latin1")).length);
  });
});

describe("the upload refuses", () => {
  it("a board that never answers, within seconds and before a byte of the bundle is sent", async () => {
    const board = await startFakeBoard("silent", join(dir, "silent.bin"));
    try {
      const r = await runNode("scripts/upload.js", ["--port", board.path, "--entry", TINY_ENTRY, "--bundle", join(dir, "tiny.js")], noPorts);
      expect(r.code).toBe(1);
      expect(r.out).toContain("upload failed: the board at " + board.path + " did not answer within 3 s: is it running Espruino, at 115200 baud?");
      expect(r.out).not.toMatch(/^built /m);
      expect(board.received()).toContain("#pet-id "); // it was asked (three times, a second apart)
      expect(board.received()).not.toContain("Storage");
    } finally {
      await board.stop();
    }
  });

  it.each([
    ["another board", { BOARD: "ESP8266" }, /this board reports BOARD "ESP8266"; ESP32 \(Espruino 2v06 or later\) \(boards\/esp32\.json\) is for "ESP32" only/],
    ["an older Espruino", { VERSION: "2v05" }, /this board runs Espruino 2v05; .* needs 2v06 or later .*Install a newer Espruino on it first/],
  ])("%s, in one line with what to do, sending it nothing of the bundle", async (_label, identity, why) => {
    const board = await startFakeBoard("repl", join(dir, "other.bin"), undefined, identity);
    try {
      const r = await runNode("scripts/upload.js", ["--port", board.path, "--entry", TINY_ENTRY, "--bundle", join(dir, "tiny.js")], noPorts);
      expect(r.code).toBe(1);
      const failed = r.out.split("\n").filter((l) => l.startsWith("upload failed: "));
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatch(why);
      expect(failed[0]).toMatch(/does not fit boards\/esp32\.json: .*\. Nothing was sent\.$/);
      expect(board.received()).not.toContain("Storage");
    } finally {
      await board.stop();
    }
  });

  it("a board that stops answering mid-way, in one line with the byte it reached, and never loads the half-written file", async () => {
    const board = await startFakeBoard("repl", join(dir, "stall.bin"), undefined, undefined, { FAKE_BOARD_ACKS: "0" });
    try {
      const r = await runNode("scripts/upload.js", ["--port", board.path, "--entry", TINY_ENTRY, "--bundle", join(dir, "tiny.js")], { ...noPorts, PET_UPLOAD_ACK_MS: "1500" });
      expect(r.code).toBe(1);
      const failed = r.out.split("\n").filter((l) => l.startsWith("upload failed: "));
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatch(/^upload failed: the upload stopped at byte 0 of \d+ \(no answer from \S+ to Storage\.write at byte 0 within 1\.5 s\); the pet was saved and paused first/);
      expect(board.received()).not.toContain('load(".bootcde")');
      expect(r.out).not.toMatch(/^\s+at /m); // no stack
    } finally {
      await board.stop();
    }
  });

  it("a port that does not exist, naming it and the ports that do", async () => {
    const env = { PET_SERIAL_LIST: portList(join(dir, "one.json"), [{ path: "/dev/ttyUSB7", vendorId: "10c4", productId: "ea60", product: "CP2102 USB to UART" }]) };
    const r = await runNode("scripts/upload.js", ["--port", "/dev/ttyNOPE0"], env);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/no serial port "\/dev\/ttyNOPE0": it does not exist/);
    expect(r.out).toMatch(/\/dev\/ttyUSB7 {2}10c4:ea60 {2}CP2102 USB to UART/);
    expect(r.out).not.toMatch(/^built /m); // refused before building
  });

  it("a device that is not a serial port, in one line", async () => {
    const r = await runNode("scripts/upload.js", ["--port", "/dev/null"], noPorts);
    expect(r.code).toBe(1);
    expect(r.out.split("\n").filter((l) => l.startsWith("upload failed"))).toEqual([
      "upload failed: /dev/null is not a serial port (it takes no serial settings): name the board's port (`npm run upload -- --list` lists them)",
    ]);
    expect(r.out).not.toMatch(/^\s+at /m);
  });

  it("a path that is not a serial device", async () => {
    const r = await runNode("scripts/upload.js", ["--port", join(dir, "none.json")], noPorts);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/none\.json" is not a serial port \(not a character device\)/);
  });
});
