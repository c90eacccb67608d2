/**
 * The region check at boot on the real interpreter: firmware built for a profile whose region this
 * build does not hold (past the end of its flash) or whose Storage it does not have (another size)
 * is put into Storage by hand, as an upload that skipped flash's own check would. It boots from
 * Storage, says why on the console, keeps running the pet without saving, and never touches the
 * region: the interpreter (whose Flash.read past its flash would stop it) stays up, and not a byte
 * of its flash file changes while the pet is saved, hatched and ticked.
 *
 * Runs only when env ESPRUINO names the interpreter binary (test/espruino-interpreter.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openConsole, startEspruino, type EspruinoConsole, type EspruinoProcess } from "../src/host/node/interpreter/espruinoLinux";
import { buildFirmware } from "../scripts/lib/build.js";
import { ESPRUINO, loadInterpreterProfile, NEEDS_ESPRUINO, type InterpreterProfile } from "./espruino-interpreter";

/** Writes `text` into Storage file `name` in pieces (as the uploader does), through `con`. */
async function writeStorageFile(con: EspruinoConsole, name: string, text: string): Promise<void> {
  for (let at = 0; at < text.length; at += 4096) {
    const ok = await con.evaluate("require(\"Storage\").write(" + JSON.stringify(name) + "," + JSON.stringify(text.slice(at, at + 4096)) + "," + at + "," + text.length + ")", 30_000);
    expect(ok).toBe(true);
  }
}

describe.skipIf(!ESPRUINO)("the region check at boot on Espruino's Linux build " + NEEDS_ESPRUINO, () => {
  let dir = "";
  let board: InterpreterProfile;
  let proc: EspruinoProcess | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pet-region-refused-"));
    board = await loadInterpreterProfile();
  });
  afterAll(async () => {
    if (proc) await proc.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Builds for the interpreter's profile with `change` applied, puts it in .bootcde and boots it at power-on. */
  async function bootWith(label: string, change: (p: Record<string, unknown>) => void): Promise<EspruinoConsole> {
    const profile = JSON.parse(readFileSync(board.path, "utf8")) as Record<string, unknown>;
    delete profile.$schema;
    change(profile);
    const file = join(dir, label + ".json");
    writeFileSync(file, JSON.stringify(profile));
    const code = (await buildFirmware({ board: file, outFile: null })).code;
    if (proc) await proc.kill();
    proc = await startEspruino(ESPRUINO!, dir);
    const con = await openConsole({ port: proc.port });
    await writeStorageFile(con, ".bootcde", code);
    await con.close();
    await proc.kill(); // a power cut; the next start runs .bootcde with nobody on the console
    proc = await startEspruino(ESPRUINO!, dir);
    return openConsole({ port: proc.port });
  }

  it("a region past the end of the board's flash is never read: the pet runs without saving", async () => {
    // The end of the build's flash: Storage runs up to it on the kit, the region on the stock build.
    const end = Math.max(board.profile.storageArea!.address + board.profile.storageArea!.size, board.profile.petRegion.address + board.profile.petRegion.size);
    const con = await bootWith("past-the-end", (p) => {
      p.petRegion = { ...(p.petRegion as object), address: end };
    });
    const line = await proc!.waitFor(/storage refused: (\S+) \((.*)\), hatched (\w+) \(not saved\)/, 20_000);
    expect(line[1]).toBe("region-not-free");
    const before = readFileSync(join(dir, "espruino.flash"));
    const r = (await con.evaluate("[pet.save(),pet.hatch('Nova'),pet.checkSave(),pet.status().storage,pet.status().name]")) as string[];
    expect(r).toEqual(["region-not-free", "region-not-free", "region-not-free", "region-not-free", "Nova"]);
    await con.evaluate("pet.tick(),pet.tick(),1");
    expect(proc!.exited()).toBeNull();
    expect(readFileSync(join(dir, "espruino.flash")).equals(before)).toBe(true);
    await con.close();
  }, 120_000);

  it("a board whose Storage is not the size the profile expects has the region left alone", async () => {
    const reported = (board.profile.espruino!.storageSizes ?? [board.profile.storageArea!.size])[0]!;
    const con = await bootWith("other-storage", (p) => {
      p.espruino = { ...(p.espruino as object), storageSizes: [reported + 4096] };
    });
    const line = await proc!.waitFor(/storage refused: (\S+) \((.*)\), hatched/, 20_000);
    expect(line[1]).toBe("region-in-storage");
    expect(line[2]).toBe("process.env.STORAGE is " + reported + ", not " + (reported + 4096));
    const flash = readFileSync(join(dir, "espruino.flash"));
    const at = board.profile.petRegion.address - board.flashStart;
    const region = flash.subarray(at, at + board.profile.petRegion.size);
    expect(region.every((b) => b === 0xff)).toBe(true); // never formatted, never saved into
    expect(await con.evaluate("pet.save()")).toBe("region-in-storage");
    expect(readFileSync(join(dir, "espruino.flash")).equals(flash)).toBe(true);
    await con.close();
  }, 120_000);
});
