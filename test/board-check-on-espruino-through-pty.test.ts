/**
 * `npm run board-check` against Espruino's Linux build through a pseudo-terminal, exactly as against
 * a board on a serial port (test/fixtures/fake-board-pty.py in bridge mode): with the firmware
 * uploaded, its --json names the board, the region (inside free flash, inside the chip, outside
 * Storage) with what `pet-save inspect` shows of it, and on-board timings beside the floor, and the
 * check leaves every byte outside the pet's region as it was and the pet as it found it. With no pet
 * running yet it reads the region and says it timed nothing; against a profile the build does not
 * fit, it refuses, reads and writes nothing, even where the board's flash holds the region (a profile
 * for another BOARD with this build's region). All exit 1.
 *
 * Runs only when env ESPRUINO names the interpreter binary (test/espruino-interpreter.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEspruino, TELNET_HOST, type EspruinoProcess } from "../src/host/node/interpreter/espruinoLinux";
import { portList, ROOT, runNode, startFakeBoard, type FakeBoard } from "./serial-fake-board";
import { ESPRUINO, loadInterpreterProfile, NEEDS_ESPRUINO, type InterpreterProfile } from "./espruino-interpreter";


function boardCheck(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, "scripts", "board-check.js"), ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(!ESPRUINO)("board-check through a pty to Espruino's Linux build " + NEEDS_ESPRUINO, () => {
  let dir = "";
  let board: InterpreterProfile;
  let proc: EspruinoProcess | null = null;
  let bridge: FakeBoard | null = null;
  const env: Record<string, string> = {};

  /** The flash file without the pet's region. */
  const outsideRegion = (): Buffer => {
    const flash = readFileSync(join(dir, "espruino.flash"));
    const at = board.profile.petRegion.address - board.flashStart;
    return Buffer.concat([flash.subarray(0, at), flash.subarray(at + board.profile.petRegion.size)]);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pet-board-check-"));
    board = await loadInterpreterProfile();
    env.PET_SERIAL_LIST = portList(join(dir, "none.json"), []);
    proc = await startEspruino(ESPRUINO!, dir);
    bridge = await startFakeBoard("bridge", join(dir, "bridge.bin"), [TELNET_HOST, proc.port]);
  }, 120_000);

  afterAll(async () => {
    if (bridge) await bridge.stop();
    if (proc) await proc.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("on a board with Espruino but no pet yet: reads the region, times nothing, says so, status 1", async () => {
    const r = await boardCheck(["--port", bridge!.path, "--board", board.path, "--json"], env);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ fits: true, region: { free: true }, pet: null, failures: [], ok: false });
    expect(j.region.contents.current.status).toBe("empty");
    expect(j.skipped).toEqual(["the timings: no pet is running on the board (npm run upload puts it there)"]);
    expect(j.timings.petSaveMs).toBeNull();
    // Then the firmware goes up over telnet (quicker than the serial path; flash's own tests cover
    // that), which takes the console from the bridge: a new bridge for the tests after this one.
    await bridge!.stop();
    const up = await runNode("scripts/upload.js", ["--port", "tcp://127.0.0.1:" + proc!.port, "--bundle", join(dir, "firmware.js")], { BOARD: board.path });
    expect(up.code, up.out).toBe(0);
    bridge = await startFakeBoard("bridge", join(dir, "bridge2.bin"), [TELNET_HOST, proc!.port]);
  }, 120_000);

  it("reports the board, the region and on-board timings beside the floor, writing nothing outside the region", async () => {
    const before = outsideRegion();
    const r = await boardCheck(["--port", bridge!.path, "--board", board.path, "--json"], env);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({
      board: board.profile.espruino!.board,
      version: expect.stringMatching(/^2v\d+/),
      fits: true,
      region: { address: board.profile.petRegion.address, size: board.profile.petRegion.size, free: true, inFreeFlash: true, inChip: true, outsideStorage: true },
      skipped: [],
      failures: [],
      ok: true,
    });
    // The region as pet-save inspect shows it: the pet the boot hatched is its current save.
    expect(j.region.contents.kind).toBe("region");
    expect(j.region.contents.current.payload.name).toBe("Pip");
    for (const key of ["petSaveMs", "floorSaveMs", "restoreMs", "floorRestoreMs", "statusMs", "floorEncodeMs", "tickMs"]) {
      expect(j.timings[key], key).toBeGreaterThan(0);
    }
    expect(j.ratios.save).toBeCloseTo(j.timings.petSaveMs / j.timings.floorSaveMs, 1);
    // The floor wrote all-ones into erased bytes of the region: they read erased still.
    expect(j.floor.scratch).toBeGreaterThanOrEqual(board.profile.petRegion.address);
    expect(j.floor.scratchStillErased).toBe(true);
    // The same pet, further on; its newest save is its own.
    expect(j.pet.after.nameHex).toBe(j.pet.before.nameHex);
    expect(BigInt(j.pet.after.updateCount)).toBeGreaterThan(BigInt(j.pet.before.updateCount));
    expect(j.pet.checkSave).toBe("ok");
    expect(outsideRegion().equals(before)).toBe(true);
  }, 120_000);

  it("refuses a profile the board does not fit, reading and writing nothing, status 1", async () => {
    const before = readFileSync(join(dir, "espruino.flash"));
    const r = await boardCheck(["--port", bridge!.path, "--board", join(ROOT, "boards", "esp32.json"), "--json"], env);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.fits).toBe(false);
    expect(j.problems.map((p: { code: string }) => p.code)).toEqual(expect.arrayContaining(["wrong-board", "region-not-free"]));
    expect(j.region).toMatchObject({ address: 0x310000, free: false, contents: null });
    expect(j.timings.petSaveMs).toBeNull();
    expect(readFileSync(join(dir, "espruino.flash")).equals(before)).toBe(true);
    // Without --json, the same in words.
    const text = await boardCheck(["--port", bridge!.path, "--board", join(ROOT, "boards", "esp32.json")], env);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^board {4}Espruino 2v\d+ on LINUX\S* \(the profile is for ESP32, 2v06 or later\): does NOT fit$/m);
    expect(text.stdout).toMatch(/^FAILED {3}this board reports BOARD "LINUX/m);
  }, 120_000);

  it("does not read the region of a board the profile does not fit, even where its flash holds the region", async () => {
    // The interpreter's own profile, said to be for an ESP32: the region is in its flash, the board is not.
    const other = join(dir, "esp32-region-of-this-build.json");
    writeFileSync(other, JSON.stringify({ ...board.profile, espruino: { ...board.profile.espruino!, board: "ESP32" } }));
    const sentBefore = bridge!.received().length;
    const r = await boardCheck(["--port", bridge!.path, "--board", other, "--json"], env);
    expect(r.code, r.stderr).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.fits).toBe(false);
    expect(j.problems.map((p: { code: string }) => p.code)).toEqual(["wrong-board"]);
    expect(j.region).toMatchObject({ inChip: true, contents: null });
    expect(j.skipped).toContain("the region: the board does not fit the profile, so it is not read");
    expect(bridge!.received().slice(sentBefore)).not.toContain("PETPULL");
  }, 120_000);
});
