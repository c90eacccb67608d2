/**
 * `pet-save pull` and `push` find the board and use a named port the way `npm run upload` does, and
 * ask it what it is first, over a real serial device: a pty with a scripted Espruino console (or a
 * silent one) on the far side. The machine's port list is stubbed at its boundary (env
 * PET_SERIAL_LIST).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bytesToHex } from "../src/core/hex";
import { main } from "../src/host/node/cli";
import { memoryIo, petPayload } from "./region-tools-fixtures";
import { portList, startFakeBoard, type FakeBoard } from "./serial-fake-board";

const dir = mkdtempSync(join(tmpdir(), "pet-pull-push-pty-"));
const payloadFile = join(dir, "bean.pay");
writeFileSync(payloadFile, petPayload("Bean", 9));
const savedList = process.env.PET_SERIAL_LIST;
afterEach(() => {
  if (savedList === undefined) delete process.env.PET_SERIAL_LIST;
  else process.env.PET_SERIAL_LIST = savedList;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("push over a pty", () => {
  let board: FakeBoard;
  beforeAll(async () => {
    board = await startFakeBoard("repl", join(dir, "repl.bin"));
  });
  afterAll(() => board?.stop());

  it("without --port picks the one ESP32 board, says so, and sends the import through the tty", async () => {
    process.env.PET_SERIAL_LIST = portList(join(dir, "one.json"), [{ path: board.path, vendorId: "1a86", productId: "55d4" }]);
    const io = memoryIo();
    expect(await main(["push", payloadFile], io), io.err).toBe(0);
    expect(io.err).toContain("no --port given: using " + board.path + "  1a86:55d4  [ESP32 board? CH9102 (WCH)]");
    expect(io.err).toMatch(/the board imported it/);
    expect(board.received()).toContain('pet.importHex("' + bytesToHex(petPayload("Bean", 9)) + '")');
  });

  it("with a named port the tool does not list, says so in one line and uses it", async () => {
    process.env.PET_SERIAL_LIST = portList(join(dir, "none.json"), []);
    const io = memoryIo();
    expect(await main(["push", "--port", board.path, payloadFile], io), io.err).toBe(0);
    expect(io.err.split("\n").filter((l) => l.includes("not in the espruino tool's list"))).toHaveLength(1);
  });
});

describe("pull and push refuse", () => {
  it("a board that never answers, having asked it only what it is, writing nothing", async () => {
    process.env.PET_SERIAL_LIST = portList(join(dir, "none.json"), []);
    const board = await startFakeBoard("silent", join(dir, "silent.bin"));
    try {
      const out = join(dir, "never.bin");
      const io = memoryIo();
      expect(await main(["pull", "--port", board.path, "-o", out], io)).toBe(1);
      expect(io.err).toContain("the board at " + board.path + " did not answer within 3 s: is it running Espruino, at 115200 baud?");
      expect(existsSync(out)).toBe(false);
      // The fit question went out (again each second), and nothing else: the pull program never did.
      expect(board.received()).toContain("#pet-id ");
      expect(board.received().split("\n").filter((l) => l.trim() !== "" && !l.includes("#pet-id "))).toEqual([]);
    } finally {
      await board.stop();
    }
  });

  it("a port that does not exist, and no board to pick", async () => {
    process.env.PET_SERIAL_LIST = portList(join(dir, "arduino.json"), [{ path: "/dev/ttyACM3", vendorId: "2341", productId: "0043" }]);
    const io = memoryIo();
    expect(await main(["pull", "--port", "/dev/ttyNOPE1", "-o", join(dir, "x.bin")], io)).toBe(1);
    expect(io.err).toMatch(/no serial port "\/dev\/ttyNOPE1": it does not exist[\s\S]*\/dev\/ttyACM3 {2}2341:0043/);
    const io2 = memoryIo();
    expect(await main(["push", payloadFile], io2)).toBe(1);
    expect(io2.err).toMatch(/no ESP32 board found[\s\S]*\/dev\/ttyACM3/);
  });
});
