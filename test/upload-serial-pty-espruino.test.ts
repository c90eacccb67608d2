/**
 * The serial path end to end with the real interpreter: Espruino's Linux build with its console
 * bridged to a pseudo-terminal (test/fixtures/fake-board-pty.py in bridge mode, over its telnet
 * console), so `npm run upload`, `pet-save pull` and `push` talk to it through a real tty that the
 * espruino tool does not list, or pick it as the one board. The pet then boots, saves, and comes
 * back after a kill.
 *
 * Runs only when env ESPRUINO names the interpreter binary (test/espruino-interpreter.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openConsole, startEspruino, TELNET_HOST, type EspruinoProcess } from "../src/host/node/interpreter/espruinoLinux";
import { main } from "../src/host/node/cli";
import type { RegionJson } from "../src/inspect/regionReport";
import { memoryIo, petPayload } from "./region-tools-fixtures";
import { portList, runNode, startFakeBoard, type FakeBoard } from "./serial-fake-board";
import { ESPRUINO, loadInterpreterProfile, NEEDS_ESPRUINO } from "./espruino-interpreter";

describe.skipIf(!ESPRUINO)("serial over a pty to Espruino's Linux build " + NEEDS_ESPRUINO, () => {
  let dir = "";
  let proc: EspruinoProcess | null = null;
  let bridge: FakeBoard | null = null;
  let LINUX_BOARD = "";
  const savedList = process.env.PET_SERIAL_LIST;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pet-serial-espruino-"));
    LINUX_BOARD = (await loadInterpreterProfile()).path;
    process.env.PET_SERIAL_LIST = portList(join(dir, "none.json"), []);
    proc = await startEspruino(ESPRUINO!, dir);
    bridge = await startFakeBoard("bridge", join(dir, "bridge.bin"), [TELNET_HOST, proc.port]);
  }, 120_000);

  afterAll(async () => {
    if (savedList === undefined) delete process.env.PET_SERIAL_LIST;
    else process.env.PET_SERIAL_LIST = savedList;
    if (bridge) await bridge.stop();
    if (proc) await proc.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the upload goes through the tty (not listed, used as named) with progress, and the pet boots", async () => {
    const r = await runNode("scripts/upload.js", ["--port", bridge!.path, "--bundle", join(dir, "firmware.js"), "--verbose"], {
      BOARD: LINUX_BOARD,
      PET_SERIAL_LIST: process.env.PET_SERIAL_LIST!,
    });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("port " + bridge!.path + " is not in the espruino tool's list of serial ports; using it as named");
    expect(r.out).toMatch(/sent 100% \((\d+) of \1 bytes\)/);
    expect(r.out).toMatch(/the pet answers: \w+, updates \d+, storage ok/);
    expect(r.out).toMatch(/^  no save found: region empty, hatched \w+/m); // the board's own boot line, with --verbose
  }, 120_000);

  it("push (the tty picked as the one board) and pull (named) go through the tty", async () => {
    process.env.PET_SERIAL_LIST = portList(join(dir, "one.json"), [{ path: bridge!.path, vendorId: "10c4", productId: "ea60" }]);
    const pay = join(dir, "mango.pay");
    writeFileSync(pay, petPayload("Mango", 77));
    const io = memoryIo();
    expect(await main(["push", pay, "--board", LINUX_BOARD], io), io.err).toBe(0);
    expect(io.err).toContain("no --port given: using " + bridge!.path);

    const image = join(dir, "pulled.bin");
    const pullIo = memoryIo();
    expect(await main(["pull", "--port", bridge!.path, "-o", image, "--board", LINUX_BOARD], pullIo), pullIo.err).toBe(0);
    const inspectIo = memoryIo();
    expect(await main(["inspect", image, "--json", "--board", LINUX_BOARD], inspectIo)).toBe(0);
    expect((JSON.parse(inspectIo.out) as RegionJson).current.payload?.name).toBe("Mango");
  }, 120_000);

  it("the pushed pet saves and comes back after a kill", async () => {
    await bridge!.stop(); // frees the telnet console for our own session
    bridge = null;
    const con = await openConsole({ port: proc!.port });
    // save and status in one synchronous call: a loop tick in between would advance the pet past
    // what was saved, and those unsaved updates are rightly lost at the kill
    const r = (await con.evaluate("(function(){var s=pet.save();return {saved:s,status:pet.status()};})()")) as {
      saved: string;
      status: { name: string; updateCount: string };
    };
    expect(r.saved).toBe("ok");
    const saved = r.status;
    await con.close();
    expect(saved.name).toBe("Mango");
    await proc!.kill();
    proc = await startEspruino(ESPRUINO!, dir);
    const boot = await proc.waitFor(/restored (\S+), updates (\d+)/, 20_000);
    expect(boot[1]).toBe("Mango");
    expect(BigInt(boot[2]!)).toBeGreaterThanOrEqual(BigInt(saved.updateCount));
  }, 300_000);
});
