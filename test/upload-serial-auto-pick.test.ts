/**
 * Without --port, `npm run upload` uses the one USB serial device whose ids are a chip ESP32 boards
 * carry, says which, and stops with the list and how to choose when there is none or several. The
 * machine's list is stubbed at its boundary (env PET_SERIAL_LIST); the picked "board" is a pty with
 * a scripted Espruino console on the far side, so the pick is followed by a real upload.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { portList, replayUpload, runNode, startFakeBoard, TINY_ENTRY, type FakeBoard } from "./serial-fake-board";

const dir = mkdtempSync(join(tmpdir(), "pet-upload-pick-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const arduino = { path: "/dev/ttyACM3", vendorId: "2341", productId: "0043", manufacturer: "Arduino (www.arduino.cc)" };
const ch340 = { path: "/dev/ttyUSB4", vendorId: "1a86", productId: "7523", product: "USB Serial" };
const tiny = ["--entry", TINY_ENTRY, "--bundle", join(dir, "tiny.js")];

describe("the upload without --port", () => {
  let board: FakeBoard;
  beforeAll(async () => {
    board = await startFakeBoard("repl", join(dir, "repl.bin"));
  });
  afterAll(() => board?.stop());

  it("uses the one ESP32 board among other serial devices, says which, and uploads to it", async () => {
    const cp2102 = { path: board.path, vendorId: "10c4", productId: "ea60", manufacturer: "Silicon Labs", product: "CP2102 USB to UART Bridge Controller" };
    const env = { PET_SERIAL_LIST: portList(join(dir, "one.json"), [arduino, cp2102]) };
    const r = await runNode("scripts/upload.js", tiny, env);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("no --port given: using " + board.path + "  10c4:ea60  Silicon Labs CP2102 USB to UART Bridge Controller");
    expect(replayUpload(board.received()).loads).toEqual([".bootcde"]);
  });

  it("--monitor opens its terminal on the picked board after the upload", async () => {
    const env = { PET_SERIAL_LIST: portList(join(dir, "s3.json"), [{ path: board.path, vendorId: "303a", productId: "1001" }]) };
    const r = await runNode("scripts/upload.js", tiny.concat("--monitor"), env);
    expect(r.code, r.out).toBe(0);
    const after = r.out.slice(r.out.indexOf("monitor on " + board.path));
    expect(after).toMatch(/^monitor on \S+ \(Ctrl-C twice to leave\)[\s\S]*Connecting to '\/dev\/[^']+'\nConnected/);
  });

  it("stops with the list and how to choose when no ESP32 board is there", async () => {
    const env = { PET_SERIAL_LIST: portList(join(dir, "none.json"), [arduino]) };
    const r = await runNode("scripts/upload.js", tiny, env);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/no ESP32 board found/);
    expect(r.out).toContain("/dev/ttyACM3  2341:0043  Arduino (www.arduino.cc)");
    expect(r.out).toMatch(/Name the port with --port P/);
    expect(r.out).not.toMatch(/^built /m);
  });

  it("stops with the list when several could be the board", async () => {
    const cp2102 = { path: "/dev/ttyUSB0", vendorId: "10c4", productId: "ea60" };
    const env = { PET_SERIAL_LIST: portList(join(dir, "two.json"), [cp2102, arduino, ch340]) };
    const r = await runNode("scripts/upload.js", tiny, env);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/2 USB serial devices that could be ESP32 boards; choose one with --port/);
    expect(r.out).toContain("/dev/ttyUSB0  10c4:ea60  [ESP32 board? CP210x (Silicon Labs)]");
    expect(r.out).toContain("/dev/ttyUSB4  1a86:7523  USB Serial  [ESP32 board? CH340 (WCH)]");
  });
});

describe("upload --list", () => {
  it("prints every port with what is known of it", async () => {
    const env = { PET_SERIAL_LIST: portList(join(dir, "list.json"), [arduino, ch340, { path: "/dev/ttyAMA0" }]) };
    const r = await runNode("scripts/upload.js", ["--list"], env);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines.slice(1)).toEqual([
      "  /dev/ttyACM3  2341:0043  Arduino (www.arduino.cc)",
      "  /dev/ttyUSB4  1a86:7523  USB Serial  [ESP32 board? CH340 (WCH)]",
      "  /dev/ttyAMA0",
    ]);
  });
});
