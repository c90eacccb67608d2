/**
 * Every command that talks to a board asks it what it is first (src/boards/boardFit.ts): the soak,
 * given the default profile (boards/esp32.json, env BOARD unset) and a board whose BOARD differs, is
 * refused at once with status 2, naming the board, as the upload is, and sends the board nothing but
 * that question: the region is never read (before, it waited 46 s for a region read that could not
 * answer), no round starts, nothing is saved or written. The board is Espruino's Linux build (BOARD
 * LINUX_ESP32, or LINUX for the stock build) running the pet, behind a TCP relay that records every
 * byte sent to its console.
 *
 * Runs only when env ESPRUINO names the interpreter binary (test/espruino-interpreter.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createServer, type Server, type Socket } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { interpreterIdentity } from "../src/host/node/interpreter/espruinoLinux";
import { FLASH_START, startInterpreterBoard, type InterpreterBoard } from "../src/host/node/interpreter/interpreterBoard";
import { ESPRUINO, loadInterpreterProfile, NEEDS_ESPRUINO, uploadFirmware, type InterpreterProfile } from "./espruino-interpreter";
import { soak } from "./soak-fixtures";

describe.skipIf(!ESPRUINO)("the soak asks the board what it is first " + NEEDS_ESPRUINO, () => {
  let dir = "";
  let board: InterpreterBoard;
  let profile: InterpreterProfile;
  let relay: Server;
  let relayPort = 0;
  let sent = "";
  const sockets: Socket[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pet-soak-misfit-"));
    profile = await loadInterpreterProfile();
    board = await startInterpreterBoard(ESPRUINO!, dir);
    const up = await uploadFirmware(board, profile.path);
    expect(up.code, up.out).toBe(0);
    // The relay: what a client sends goes to the interpreter's console and into `sent`.
    relay = createServer((client) => {
      const upstream = connect(board.port, "127.0.0.1");
      sockets.push(client, upstream);
      client.on("data", (d: Buffer) => {
        sent += d.toString("latin1");
        upstream.write(d);
      });
      upstream.on("data", (d: Buffer) => client.write(d));
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      client.on("error", () => undefined);
      upstream.on("error", () => undefined);
    });
    await new Promise<void>((done) => relay.listen(0, "127.0.0.1", () => done()));
    relayPort = (relay.address() as { port: number }).port;
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    if (relay) relay.close();
    if (board) await board.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("with the default profile on a board whose BOARD differs: refused at once, naming the board, nothing read or written", async () => {
    const { board: kind, version } = await interpreterIdentity(ESPRUINO!);
    expect(kind).not.toBe("ESP32");
    const r = profile.profile.petRegion;
    const outside = (): Buffer => {
      const flash = readFileSync(board.flashFile);
      const at = r.address - FLASH_START;
      return Buffer.concat([flash.subarray(0, at), flash.subarray(at + r.size)]);
    };
    const before = outside();
    const port = "tcp://127.0.0.1:" + relayPort;
    const savedBoard = process.env.BOARD;
    delete process.env.BOARD;
    let run;
    try {
      run = await soak(["--port", port, "--cut-with", "false", "--rounds", "1", "--json"]);
    } finally {
      if (savedBoard !== undefined) process.env.BOARD = savedBoard;
    }
    expect(run.code, run.err).toBe(2);
    expect(run.out).toBe(""); // no report: no round ran
    expect(run.err).toContain(
      "soak: the board at " + port + " (Espruino " + version + " on " + kind + ") does not fit boards/esp32.json: this board reports BOARD \"" + kind + "\"",
    );
    expect(run.err).toMatch(/Nothing was read or written\.\n$/);
    expect(run.err).not.toContain("reading the pet region");
    // What the board was sent: the question what it is (asked again each second until it answers), and nothing else.
    const lines = sent.split("\n").filter((l) => l.replace(/[\x03\x10]/g, "").trim() !== "");
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.filter((l) => !l.includes("#pet-id "))).toEqual([]);
    // Nothing of Storage (or anything else outside the pet's region) changed.
    expect(Buffer.compare(outside(), before)).toBe(0);
  }, 120_000);
});
