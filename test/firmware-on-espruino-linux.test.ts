/**
 * End to end on Espruino's Linux build: the bundle for boards/linux.json is uploaded with
 * scripts/flash.js over telnet, boots (hatches), saves through the `pet` console, survives a SIGKILL
 * (a power cut for the flash file) and comes back with the same name and at least as many updates.
 *
 * Runs only when env ESPRUINO names the interpreter binary (see docs/firmware.md, "Espruino for
 * Linux"). The interpreter's telnet port 2323 is fixed, so each start waits for the machine-wide port lock
 * (scripts/lib/espruinoLinux.js), which each kill gives back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  openConsole,
  releaseTelnetPort,
  startEspruino,
  type EspruinoConsole,
  type EspruinoProcess,
} from "../scripts/lib/espruinoLinux.js";
import type { BoardProfile } from "../src/boards/boardProfile";

const ESPRUINO = process.env.ESPRUINO;
const ROOT = join(__dirname, "..");
const PET_NAME = "Kiwi";
/** Where the Linux build maps its 256 KiB flash file (docs/firmware.md). */
const LINUX_FLASH_START = 0x10000000;
const linuxProfile = JSON.parse(readFileSync(join(ROOT, "boards", "linux.json"), "utf8")) as BoardProfile;

interface PetStatus {
  name: string;
  updateCount: string;
}

function flash(dir: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, "scripts", "flash.js"), "--port", "tcp://127.0.0.1:2323", "--bundle", join(dir, "firmware.js")],
      { cwd: ROOT, env: { ...process.env, BOARD: join(ROOT, "boards", "linux.json") }, timeout: 90_000 },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr }),
    );
  });
}

describe.skipIf(!ESPRUINO)(
  "firmware on Espruino's Linux build (set ESPRUINO=/path/to/espruino (Linux build) to run)",
  () => {
    let dir = "";
    let proc: EspruinoProcess | null = null;
    let con: EspruinoConsole | null = null;
    let saved: PetStatus | null = null;

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "pet-espruino-"));
    });

    afterAll(async () => {
      if (con) await con.close();
      if (proc) await proc.kill();
      releaseTelnetPort();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("uploads the bundle and boots it from Storage (hatches on an empty region)", async () => {
      proc = await startEspruino(ESPRUINO!, dir);
      const r = await flash(dir);
      expect(r.out).toMatch(/uploaded; the board restarted from \.bootcde/);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/no save found: region empty, hatched \w+/);
    }, 300_000); // may first wait for another user of port 2323 to finish

    it("hatches, interacts and saves through the pet console", async () => {
      con = await openConsole();
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
      expect(statSync(join(dir, "espruino.flash")).size).toBe(256 * 1024);
      proc = await startEspruino(ESPRUINO!, dir);
      const boot = await proc.waitFor(/restored (\S+), updates (\d+)/, 20_000);
      expect(boot[1]).toBe(PET_NAME);
      expect(BigInt(boot[2]!)).toBeGreaterThanOrEqual(BigInt(saved!.updateCount));
      con = await openConsole();
      const now = (await con.evaluate("pet.status()")) as PetStatus;
      expect(now.name).toBe(PET_NAME);
      expect(BigInt(now.updateCount)).toBeGreaterThanOrEqual(BigInt(saved!.updateCount));
      expect(await con.evaluate('require("Storage").list()')).toEqual([".bootcde"]);
      // Storage fills the Linux flash file from the bottom: what it uses must end below the pet region
      const stats = (await con.evaluate('require("Storage").getStats()')) as { fileBytes: number; trashBytes: number };
      expect(stats.fileBytes + stats.trashBytes).toBeLessThan(linuxProfile.storageArea!.size);
      await con.close();
      con = null;
    }, 60_000);

    it("keeps the pet through saves that wrap the whole region (every page erased at least once)", async () => {
      con = await openConsole({ timeoutMs: 60_000 });
      // 1 KiB pages hold 11 slots each, 16 pages: 200 saves go round the region at least once.
      const r = (await con.evaluate(
        '(function(){var bad=0,i;for(i=0;i<200;i++){pet.interact();if(pet.save()!=="ok")bad++;}return {bad:bad,status:pet.status()};})()',
      )) as { bad: number; status: PetStatus };
      expect(r.bad).toBe(0);
      saved = r.status;
      await con.close();
      con = null;
      await proc!.kill();
      // Every page of the region now starts with the slot log's magic "PL", and some page carries a
      // sequence number above 16, so it was erased and reused (docs/storage.md has the layout).
      const file = readFileSync(join(dir, "espruino.flash"));
      const { address, size, pageSize } = linuxProfile.petRegion;
      let maxSequence = 0;
      for (let page = address; page < address + size; page += pageSize) {
        const at = page - LINUX_FLASH_START;
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
      con = await openConsole();
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
