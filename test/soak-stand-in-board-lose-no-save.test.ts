/**
 * `npm run soak` (docs/board.md, "Cut the power, many times") on the stand-in board: Espruino's
 * Linux build behind a pseudo-terminal (test/fixtures/fake-board-pty.py bridging to its console,
 * across restarts), cut by --cut-with (a command that kills and restarts the interpreter through
 * src/host/node/interpreter/interpreterBoard.ts) or by --manual (the test plays the person who
 * unplugs it). Every round holds: no confirmed save is lost. And the soak can fail: a "cut" that
 * puts an older region back is reported as lost saves with exit status 1; the default RTS cut on a
 * port without modem lines is refused with status 2 and the way out.
 *
 * A few rounds each, with a short window: the soak's own rounds are the long run.
 * test/soak-on-espruino-lose-no-save.test.ts runs it with --espruino, as its own process.
 * Runs only when env ESPRUINO names the interpreter binary (test/espruino-interpreter.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:net";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FLASH_START, startInterpreterBoard, type InterpreterBoard } from "../src/host/node/interpreter/interpreterBoard";
import { ESPRUINO, loadInterpreterProfile, NEEDS_ESPRUINO, uploadFirmware, type InterpreterProfile } from "./espruino-interpreter";
import { portList, startFakeBoard, type FakeBoard } from "./serial-fake-board";
import { FAST, soak, type SoakJson } from "./soak-fixtures";

describe.skipIf(!ESPRUINO)("npm run soak on the stand-in board " + NEEDS_ESPRUINO, () => {
  describe("the stand-in board: the interpreter behind a pseudo-terminal", () => {
    let dir = "";
    let profile: InterpreterProfile;
    let board: InterpreterBoard;
    let bridge: FakeBoard;
    let server: Server;
    let cutCommand = "";
    let portFile = "";
    let serialList = "";
    const savedList = process.env.PET_SERIAL_LIST;
    /** The pet region as it was after the upload: the "cut" of the rollback test puts it back. */
    let oldRegion: Buffer;
    let cutMode: "cut" | "rollback" = "cut";

    const publishPort = (): void => {
      writeFileSync(portFile + ".tmp", String(board.port));
      renameSync(portFile + ".tmp", portFile);
    };

    /** The power cut of the stand-in: SIGKILL and restart (the rollback also puts the old region back). */
    async function cutPower(): Promise<void> {
      const r = profile.profile.petRegion;
      await board.powerCut(() => {
        if (cutMode !== "rollback") return;
        const file = readFileSync(board.flashFile);
        oldRegion.copy(file, r.address - FLASH_START);
        writeFileSync(board.flashFile, file);
      });
      publishPort();
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "pet-soak-standin-"));
      profile = await loadInterpreterProfile();
      board = await startInterpreterBoard(ESPRUINO!, dir);
      const up = await uploadFirmware(board, profile.path);
      expect(up.code, up.out).toBe(0);
      const r = profile.profile.petRegion;
      oldRegion = Buffer.from(readFileSync(board.flashFile).subarray(r.address - FLASH_START, r.address - FLASH_START + r.size));
      portFile = join(dir, "console-port");
      publishPort();
      bridge = await startFakeBoard("bridge", join(dir, "bridge.bin"), ["127.0.0.1", "@" + portFile]);
      serialList = portList(join(dir, "ports.json"), []);
      process.env.PET_SERIAL_LIST = serialList; // the machine's real ports are not this test's business
      // The power switch: a command that asks this test to cut, and returns once the power is back.
      server = createServer((socket) => {
        void cutPower().then(() => socket.end("done\n"));
      });
      await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
      const port = (server.address() as { port: number }).port;
      cutCommand = JSON.stringify(process.execPath) + " -e " + JSON.stringify("require('net').connect(" + port + ",'127.0.0.1').on('data',()=>process.exit(0)).on('error',()=>process.exit(1))");
    }, 120_000);

    afterAll(async () => {
      if (savedList === undefined) delete process.env.PET_SERIAL_LIST;
      else process.env.PET_SERIAL_LIST = savedList;
      if (server) server.close();
      if (bridge) await bridge.stop();
      if (board) await board.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("--cut-with a command that cuts the power: every round holds", async () => {
      const r = await soak(["--port", bridge.path, "--board", profile.path, "--cut-with", cutCommand, "--rounds", "2", "--json", ...FAST]);
      expect(r.code, r.err).toBe(0);
      const j = JSON.parse(r.out) as SoakJson;
      expect([j.rounds, j.lostSaves, j.problems]).toEqual([2, 0, []]);
      expect(j.cut).toBe("command");
      expect(j.confirmedSaves).toBeGreaterThanOrEqual(2);
      expect(board.cuts).toBe(2);
      expect(r.err).toContain("round 1: cutting the power: ");
    }, 120_000);

    it("a cut after which an older pet comes back is counted as lost saves, exit status 1", async () => {
      cutMode = "rollback";
      try {
        const r = await soak(["--port", bridge.path, "--board", profile.path, "--cut-with", cutCommand, "--rounds", "1", "--json", ...FAST]);
        expect(r.code, r.err).toBe(1);
        const j = JSON.parse(r.out) as SoakJson;
        expect(j.lostSaves).toBeGreaterThanOrEqual(1);
        expect(j.problems.join("\n")).toMatch(/round 1: lost \d+ confirmed save\(s\): the region's newest save has updates \d+, world clock \d+ ms; the last confirmed one had updates \d+/);
        expect(j.roundResults[0]!.held).toBe(false);
      } finally {
        cutMode = "cut";
      }
    }, 120_000);

    it("the default cut (RTS) on a port without modem lines is refused: status 2, and the way out", async () => {
      const r = await soak(["--port", bridge.path, "--board", profile.path, "--rounds", "1", ...FAST]);
      expect(r.code, r.out + r.err).toBe(2);
      expect(r.out).toContain("note: a reset is not a power loss");
      expect(r.err).toMatch(/cannot drive the RTS line of \S+ .*with --cut-with CMD or --manual instead/s);
    }, 120_000);

    it("--manual: asks the person to unplug the board, waits for it, and judges what comes back", async () => {
      const asked: string[] = [];
      const r = await soak(["--port", bridge.path, "--board", profile.path, "--manual", "--rounds", "1", ...FAST], (line) => {
        if (!/UNPLUG THE BOARD NOW/.test(line)) return;
        asked.push(line);
        void cutPower(); // the person pulls the cable and puts it back
      });
      expect(r.code, r.out + r.err).toBe(0);
      expect(asked).toEqual(["round 1: UNPLUG THE BOARD NOW (it is saving), then plug it back in"]);
      expect(r.out).toMatch(/round 1\/1: \d+ saves confirmed, .*: held/);
      expect(r.out).toMatch(/summary: 1 rounds, \d+ confirmed saves, 0 lost saves \(must be 0\), 0 problems/);
      expect(r.out).not.toContain("note: a reset is not a power loss");
    }, 120_000);
  });
});
