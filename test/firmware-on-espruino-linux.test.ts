/**
 * End to end on Espruino's Linux build: the bundle for the build's profile (boards/linux-esp32.json
 * on the ESP32-like build CI uses, boards/linux.json on the stock one) is uploaded with
 * scripts/upload.js over telnet, boots (hatches) from Storage, saves through the `pet` console,
 * survives a SIGKILL (a power cut for the flash file) and comes back with the same name and at least
 * as many updates; saves that wrap the whole region and a kill in a burst of saves lose nothing.
 *
 * Runs only when env ESPRUINO names the interpreter binary (test/espruino-interpreter.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openConsole, startEspruino, type EspruinoConsole, type EspruinoProcess } from "../src/host/node/interpreter/espruinoLinux";
import { layoutForRegion } from "../src/storage/regionLayout";
import { ESPRUINO, loadInterpreterProfile, NEEDS_ESPRUINO, type InterpreterProfile } from "./espruino-interpreter";

const ROOT = join(__dirname, "..");
const PET_NAME = "Kiwi";

interface PetStatus {
  name: string;
  updateCount: string;
}

function flash(dir: string, port: number, board: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, "scripts", "upload.js"), "--port", "tcp://127.0.0.1:" + port, "--bundle", join(dir, "firmware.js"), "--verbose"],
      { cwd: ROOT, env: { ...process.env, BOARD: board }, timeout: 90_000 },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr }),
    );
  });
}

describe.skipIf(!ESPRUINO)(
  "firmware on Espruino's Linux build " + NEEDS_ESPRUINO,
  () => {
    let dir = "";
    let board: InterpreterProfile;
    let proc: EspruinoProcess | null = null;
    let con: EspruinoConsole | null = null;
    let saved: PetStatus | null = null;
    const connect = (timeoutMs?: number) => openConsole({ port: proc!.port, timeoutMs });

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "pet-espruino-"));
      board = await loadInterpreterProfile();
    });

    afterAll(async () => {
      if (con) await con.close();
      if (proc) await proc.kill();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("uploads the bundle and boots it from Storage (hatches on an empty region)", async () => {
      proc = await startEspruino(ESPRUINO!, dir);
      const r = await flash(dir, proc.port, board.path);
      expect(r.out).toMatch(/uploaded; the board restarted from \.bootcde/);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/no save found: region empty, hatched \w+/);
    }, 120_000);

    it("hatches, interacts and saves through the pet console", async () => {
      con = await connect();
      expect(await con.evaluate("typeof pet")).toBe("object");
      expect(await con.evaluate("pet.hatch(" + JSON.stringify(PET_NAME) + ")")).toBe("ok");
      expect(await con.evaluate("pet.interact()")).toBe("ok");
      // save and status in one synchronous call: a loop tick in between would advance the pet
      // past what was saved, and those unsaved updates are rightly lost at the kill
      const r = (await con.evaluate("(function(){var s=pet.save();return {saved:s,status:pet.status()};})()")) as {
        saved: string;
        status: PetStatus;
      };
      expect(r.saved).toBe("ok");
      saved = r.status;
      expect(saved.name).toBe(PET_NAME);
      await con.close();
      con = null;
    }, 60_000);

    it("comes back after SIGKILL with the same pet and no lost updates", async () => {
      expect(saved).not.toBeNull();
      await proc!.kill();
      const flashBytes = statSync(join(dir, "espruino.flash")).size;
      proc = await startEspruino(ESPRUINO!, dir);
      const boot = await proc.waitFor(/restored (\S+), updates (\d+)/, 20_000);
      expect(boot[1]).toBe(PET_NAME);
      expect(BigInt(boot[2]!)).toBeGreaterThanOrEqual(BigInt(saved!.updateCount));
      con = await connect();
      // The flash file is the whole flash the build says it has, and the region lies inside it.
      expect(flashBytes).toBe(await con.evaluate("process.env.FLASH"));
      const { address, size } = board.profile.petRegion;
      expect(address + size - board.flashStart).toBeLessThanOrEqual(flashBytes);
      const now = (await con.evaluate("pet.status()")) as PetStatus;
      expect(now.name).toBe(PET_NAME);
      expect(BigInt(now.updateCount)).toBeGreaterThanOrEqual(BigInt(saved!.updateCount));
      expect(await con.evaluate('require("Storage").list()')).toEqual([".bootcde"]);
      // Storage fills the Linux flash file from the bottom: what it uses must end below the pet region
      const stats = (await con.evaluate('require("Storage").getStats()')) as { fileBytes: number; trashBytes: number };
      expect(stats.fileBytes + stats.trashBytes).toBeLessThan(board.profile.storageArea!.size);
      await con.close();
      con = null;
    }, 60_000);

    it("keeps the pet through saves that wrap the whole region (every page erased at least once)", async () => {
      con = await connect(60_000);
      // Enough saves to fill every slot of every page once and go on into a page erased again
      // (16 pages of 48 slots on the ESP32-like build, 16 of 11 on the stock one).
      const { layout } = layoutForRegion(board.profile.petRegion);
      if (layout === null) throw new Error("no slot-log layout for " + board.path);
      const saves = layout.sectorCount * layout.slotsPerSector + 32;
      const r = (await con.evaluate(
        "(function(){var bad=0,i;for(i=0;i<" + saves + ";i++){pet.interact();if(pet.save()!==\"ok\")bad++;}return {bad:bad,status:pet.status()};})()",
      )) as { bad: number; status: PetStatus };
      expect(r.bad).toBe(0);
      saved = r.status;
      await con.close();
      con = null;
      await proc!.kill();
      // Every page of the region now starts with the slot log's magic "PL", and some page carries a
      // sequence number above 16, so it was erased and reused (docs/storage.md has the layout).
      const file = readFileSync(join(dir, "espruino.flash"));
      const { address, size, pageSize } = board.profile.petRegion;
      let maxSequence = 0;
      for (let page = address; page < address + size; page += pageSize) {
        const at = page - board.flashStart;
        expect([file[at], file[at + 1]]).toEqual([0x50, 0x4c]);
        maxSequence = Math.max(maxSequence, file.readUInt32LE(at + 4));
      }
      expect(maxSequence).toBeGreaterThan(size / pageSize);
      proc = await startEspruino(ESPRUINO!, dir);
      const boot = await proc.waitFor(/restored (\S+), updates (\d+)/, 20_000);
      expect(boot[1]).toBe(PET_NAME);
      expect(BigInt(boot[2]!)).toBeGreaterThanOrEqual(BigInt(saved.updateCount));
    }, 90_000);

    it("survives SIGKILL in the middle of a burst of saves", async () => {
      con = await connect();
      await con.evaluate('(function(){global.burst=setInterval(function(){pet.interact();pet.save();},5);return 1;})()');
      await new Promise((r) => setTimeout(r, 700));
      await proc!.kill();
      con = null; // the socket died with the process
      proc = await startEspruino(ESPRUINO!, dir);
      const boot = await proc.waitFor(/restored (\S+), updates (\d+)/, 20_000);
      expect(boot[1]).toBe(PET_NAME);
      expect(BigInt(boot[2]!)).toBeGreaterThanOrEqual(BigInt(saved!.updateCount));
    }, 60_000);
  },
);
