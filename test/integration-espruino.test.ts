/**
 * End to end on Espruino's Linux build: the bundle for boards/linux.json is uploaded with
 * scripts/flash.js over telnet, boots (hatches), saves through the `pet` console, survives a SIGKILL
 * (a power cut for the flash file) and comes back with the same name and at least as many updates.
 *
 * Runs only when env ESPRUINO names the interpreter binary (see docs/firmware.md, "Espruino for
 * Linux"). It uses the interpreter's fixed telnet port 2323, so it refuses to run while something
 * else answers there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  openConsole,
  startEspruino,
  type EspruinoConsole,
  type EspruinoProcess,
} from "../scripts/lib/espruinoLinux.js";

const ESPRUINO = process.env.ESPRUINO;
const ROOT = join(__dirname, "..");
const PET_NAME = "Kiwi";

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
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("uploads the bundle and boots it from Storage (hatches on an empty region)", async () => {
      proc = await startEspruino(ESPRUINO!, dir);
      const r = await flash(dir);
      expect(r.out).toMatch(/uploaded; the board restarted from \.bootcde/);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/no save found: region empty, hatched \w+/);
    }, 120_000);

    it("hatches, interacts and saves through the pet console", async () => {
      con = await openConsole();
      expect(await con.evaluate("typeof pet")).toBe("object");
      expect(await con.evaluate("pet.hatch(" + JSON.stringify(PET_NAME) + ")")).toBe("ok");
      expect(await con.evaluate("pet.interact()")).toBe("ok");
      expect(await con.evaluate("pet.save()")).toBe("ok");
      saved = (await con.evaluate("pet.status()")) as PetStatus;
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
    }, 60_000);
  },
);
