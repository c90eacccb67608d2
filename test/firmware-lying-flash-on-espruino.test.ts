/**
 * Flash that lies, on Espruino's Linux build: the faults of test/lying-flash-faults.ts (an erase
 * that does nothing, as Espruino's ESP32 port built with ESP-IDF 5 does; a write that does nothing;
 * a write that lands half) injected into the real interpreter's flash file by the LD_PRELOAD shim
 * (src/host/node/interpreter/espruinoShim.c, through src/host/node/interpreter/interpreterBoard.ts), switched on while the
 * firmware runs and limited to the pet region. After each: `pet.save()` answers what happened, in
 * the same words as on the simulator (test/storage-lying-flash.test.ts); the flash file's region is
 * readable and its current save is the last one confirmed; after a power cut the firmware restores
 * exactly that save; and once the flash behaves again the next save is fine.
 *
 * The region starts as a log that has wrapped once (written by the storage code in Node, as the
 * device would have written it) with three free slots left in its newest sector, so that an erase
 * of a used sector is a few saves away.
 *
 * Runs only when env ESPRUINO names the interpreter binary (test/espruino-interpreter.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FLASH_START, startInterpreterBoard, type InterpreterBoard } from "../src/host/node/interpreter/interpreterBoard";
import { readRegion } from "../src/inspect/regionReport";
import { loadWorld } from "../src/save/codec";
import { payloadJson, PAYLOAD_JSON_KEYS, type PayloadJson } from "../src/save/payloadJson";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { createSlotLog } from "../src/storage/slotLog";
import { ESPRUINO, loadInterpreterProfile, NEEDS_ESPRUINO, uploadFirmware, type InterpreterProfile } from "./espruino-interpreter";
import { LYING_FLASH, type NamedFault } from "./lying-flash-faults";
import { petPayload } from "./region-tools-fixtures";

/** The payload's fields of a pet.status() answer (which also carries `storage`). */
function payloadFields(status: PayloadJson): PayloadJson {
  const out: Record<string, unknown> = {};
  for (const k of PAYLOAD_JSON_KEYS) out[k] = status[k];
  return out as unknown as PayloadJson;
}

const PET = "Keep";

describe.skipIf(!ESPRUINO)("flash that lies, on Espruino's Linux build " + NEEDS_ESPRUINO, () => {
  let dir = "";
  let profile: InterpreterProfile;
  let board: InterpreterBoard;
  /** The prepared region: a wrapped log of PET, three slots short of a sector erase. */
  let prepared: Uint8Array;
  let lastPrepared = 0;

  const region = () => profile.profile.petRegion;
  const regionOffset = () => region().address - FLASH_START;

  /** The current save of the region in the flash file (read while the board is off or idle), as pet.status() shows a pet. */
  function currentInFile(): PayloadJson {
    const bytes = new Uint8Array(readFileSync(board.flashFile).subarray(regionOffset(), regionOffset() + region().size));
    const c = readRegion(bytes, { file: profile.path, profile: profile.profile });
    expect(c.scan.status).toBe("ok");
    expect(c.current.status, c.current.message).toBe("ok");
    const loaded = loadWorld(c.current.payload!, 0);
    expect(loaded.status).toBe("ok");
    return payloadJson(loaded.world!, loaded.savedAt);
  }

  function writePrepared(): void {
    const file = readFileSync(board.flashFile);
    file.set(prepared, regionOffset());
    writeFileSync(board.flashFile, file);
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pet-lying-flash-"));
    profile = await loadInterpreterProfile();
    const r = region();
    const sim = new NorFlashSim({ size: r.size, pageSize: r.pageSize });
    const log = createSlotLog({ flash: sim, address: 0, size: r.size, sectorSize: r.pageSize, isValidPayload: () => true }).log!;
    const saves = log.layout.sectorCount * log.layout.slotsPerSector + log.layout.slotsPerSector - 3;
    for (lastPrepared = 1; lastPrepared <= saves; lastPrepared++) expect(log.save(petPayload(PET, lastPrepared)).status).toBe("ok");
    lastPrepared--;
    prepared = sim.image();
    board = await startInterpreterBoard(ESPRUINO!, dir);
    const up = await uploadFirmware(board, profile.path);
    expect(up.code, up.out).toBe(0);
    expect(up.out).toMatch(/no save found: region empty, hatched \w+/);
  }, 120_000);

  afterAll(async () => {
    if (board) await board.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Power cut onto the prepared region; the firmware restores it; its loop is stopped so that the
   * only saves are the test's (an automatic save between two steps would move the newest save).
   * Answers the newest save then in the flash file.
   */
  async function bootPrepared(): Promise<PayloadJson> {
    await board.powerCut(writePrepared);
    await board.process.waitFor(new RegExp("restored " + PET + ", updates " + lastPrepared + "(, away \\d+ s)?\\r?\\n"), 20_000);
    const con = await board.openConsole();
    expect(await con.evaluate("(clearInterval(),1)")).toBe(1);
    await con.close();
    return currentInFile();
  }

  /** pet.save() until it fails (at most 60 times): the failure and the status after the last "ok". */
  async function saveUntilFailure(): Promise<{ failed: string | null; last: PayloadJson | null }> {
    const con = await board.openConsole({ timeoutMs: 30_000 });
    const r = (await con.evaluate(
      '(function(){var x="ok",s=null,i;for(i=0;i<60;i++){x=pet.save();if(x!=="ok")return {failed:x,last:s};s=pet.status();}return {failed:null,last:s};})()',
    )) as { failed: string | null; last: PayloadJson | null };
    await con.close();
    // pet.status() also says how saving goes (`storage`); a payload holds the save's fields only.
    return { failed: r.failed, last: r.last === null ? null : payloadFields(r.last) };
  }

  /** After the power cut, with the flash behaving again: the restore, then one more save. */
  async function restoresAndSavesAgain(expected: PayloadJson): Promise<void> {
    await board.powerCut(() => {
      // Read while the board is off: the region is whole and its newest save is the last confirmed.
      expect(currentInFile()).toEqual(expected);
      board.clearFaults();
    });
    const boot = await board.process.waitFor(/restored (\S+), updates (\d+)/, 20_000);
    expect([boot[1], boot[2]]).toEqual([PET, expected.updateCount]);
    const con = await board.openConsole();
    expect(await con.evaluate("pet.save()")).toBe("ok");
    await con.close();
  }

  for (const fault of LYING_FLASH as NamedFault[]) {
    it(fault.name + ": pet.save() says so, the last confirmed save survives a power cut, saving works again after", async () => {
      const before = await bootPrepared();
      const applied = board.faultsApplied().length;
      board.setFaults(region(), [fault.rule]);
      const r = await saveUntilFailure();
      expect(r.failed).toMatch(fault.says);
      // The shim really did it, and only in the pet region.
      const done = board.faultsApplied().slice(applied);
      expect(done.length).toBeGreaterThan(0);
      for (const line of done) {
        const [op, mode, at] = line.split(" ");
        expect([op, mode]).toEqual([fault.rule.op, fault.rule.mode]);
        expect(Number(at)).toBeGreaterThanOrEqual(regionOffset());
        expect(Number(at)).toBeLessThan(regionOffset() + region().size);
      }
      if (fault.rule.op === "erase") expect(r.last).not.toBeNull(); // the free slots took saves first
      if (fault.rule.op === "write") {
        // Nothing outside the region is touched: Storage, in the same flash file, still writes.
        const con = await board.openConsole();
        expect(await con.evaluate('(function(){var S=require("Storage");S.write("probe","hello");var t=S.read("probe");S.erase("probe");return t;})()')).toBe("hello");
        await con.close();
      }
      await restoresAndSavesAgain(r.last ?? before);
    }, 90_000);
  }

  it("write half, once: the save still succeeds (the next slot takes it) and is the one restored", async () => {
    await bootPrepared();
    const applied = board.faultsApplied().length;
    board.setFaults(region(), [{ op: "write", mode: "half", count: 1 }]);
    const con = await board.openConsole();
    const r = (await con.evaluate('(function(){var x=pet.save();return {x:x,s:pet.status()};})()')) as { x: string; s: PayloadJson };
    await con.close();
    expect(r.x).toBe("ok");
    expect(board.faultsApplied().length).toBe(applied + 1);
    await restoresAndSavesAgain(payloadFields(r.s));
  }, 90_000);
});
