/**
 * The pet on Espruino's own ESP32 firmware (2v06.63, ESP-IDF 3.1.3) in the emulated ESP32, as a
 * person meets it: `npm run upload -- --port tcp://...` identified the chip and wrote the firmware
 * into Storage in its function form (the global set-up); the chip boots it from Storage at power-on,
 * the pet answers pet.status(), plays and saves, and `pet-save inspect` on the chip's flash file shows
 * the save the chip reported. Power cuts are the soak's (chip-power-cuts-lose-no-save.test.ts: 20 of
 * them, each followed by the boot's restore and inspect on the flash file) and the install test's.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import type { Chip } from "../src/host/node/emulatedChip/qemuChip";
import type { BoardConsole } from "../src/host/node/serial/boardConsole";
import { bootChip, chipConsole, evaluate, installedImage, petSave } from "./chip-fixtures";

interface Status {
  name: string;
  updateCount: string;
  storage: string;
  activityName: string;
}

describe("the pet on Espruino 2v06 in the emulated ESP32", () => {
  const image = installedImage();
  let chip: Chip | null = null;
  let con: BoardConsole | null = null;
  afterAll(async () => {
    await con?.close();
    await chip?.stop();
  });

  it("the upload identified the chip, sent the function form its Espruino needs, and the pet answered", () => {
    const out = inject("uploadOutput");
    expect(out).toMatch(/^Espruino 2v06\.63 on ESP32 at tcp:\/\/127\.0\.0\.1:\d+: fits boards\/esp32\.json \(pet region 0x310000, 65536 bytes/m);
    expect(out).toContain("in the function form Espruino 2v06.63 needs (it has no block scope: the body in petfw.js)");
    expect(out).toMatch(/sent 100% \((\d+) of \1 bytes\)/);
    expect(out).toMatch(/the pet answers: Pip, updates \d+, storage ok/);
  });

  it("boots the pet from Storage at power-on: pet.status() answers, saving works", async () => {
    chip = await bootChip(image);
    con = await chipConsole(chip);
    const st = await evaluate<Status>(con, "pet.status()");
    expect(st.name).toBe("Pip");
    expect(st.storage).toBe("ok");
    // The bundle's names (one or two letters after terser) stay out of the global scope on an Espruino
    // without block scope; E and the pins D0..D39 are Espruino's own.
    expect(await evaluate<string[]>(con, "Object.keys(global).filter(function(k){return k.length<3&&k!='E'&&!/^D\\d+$/.test(k)})")).toEqual([]);
  });

  it("plays and saves, and pet-save inspect on the flash file shows that save", async () => {
    expect(await evaluate(con!, "pet.interact()")).toBe("ok");
    expect(await evaluate(con!, "pet.rename('Nova')")).toBe("ok");
    const saved = await evaluate<{ s: string; st: Status }>(con!, "(function(){var s=pet.save();return {s:s,st:pet.status()}})()");
    expect(saved.s).toBe("ok");
    const r = await petSave(["inspect", chip!.image, "--json"]);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { chipOffset: number; current: { status: string; payload: { name: string; updateCount: string } } };
    expect(j.chipOffset).toBe(0x310000);
    expect(j.current.status).toBe("ok");
    expect(j.current.payload.name).toBe("Nova");
    expect(j.current.payload.updateCount).toBe(saved.st.updateCount);
  });
});
