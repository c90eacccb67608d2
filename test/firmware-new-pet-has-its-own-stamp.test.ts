/**
 * A pet put in by the owner carries the stamp of the save it came from, whatever happens to its
 * own first save: pet.status().savedAtMs of a hatched pet whose save failed is "0" (it was never
 * saved), not the stamp of the pet it replaced; an imported pet whose save failed shows the stamp
 * of the payload it was imported from. (Before the running pet had one owner, only the restore set
 * the stamp, and a hatch on a failing flash kept the old pet's.)
 */
import { describe, expect, it } from "vitest";
import { bootPet } from "./firmware-fakes";
import { saveWorld } from "../src/save/codec";
import { createWorld } from "../src/core/world";
import { bytesToHex } from "../src/core/hex";
import type { World } from "../src/core/types";

const JULY_2026 = Date.UTC(2026, 6, 1);

function bootedWithOneSave() {
  const { sim, env, app } = bootPet({ wallClockMs: JULY_2026 });
  expect(app.pet.save()).toBe("ok");
  const stamp = app.pet.status()!.savedAtMs;
  expect(Number(stamp)).toBeGreaterThanOrEqual(JULY_2026);
  return { sim, env, app, stamp };
}

describe("a new pet's savedAtMs is its own", () => {
  it("hatch on a flash that refuses every write: savedAtMs is 0, not the old pet's stamp", () => {
    const { sim, app, stamp } = bootedWithOneSave();
    sim.injectFailure({ op: "write", mode: "status" });
    const answer = app.pet.hatch("Rex");
    expect(answer).toMatch(/^write-failed/);
    const status = app.pet.status()!;
    expect(status.name).toBe("Rex");
    expect(status.savedAtMs).not.toBe(stamp);
    expect(status.savedAtMs).toBe("0");
  });

  it("import on a flash that refuses every write: savedAtMs is the imported payload's stamp", () => {
    const { sim, app } = bootedWithOneSave();
    const imported = createWorld(new Uint8Array([73, 109, 112])) as World;
    const importedAt = Date.UTC(2026, 5, 1);
    const hex = bytesToHex(saveWorld(imported, importedAt).bytes!);
    sim.injectFailure({ op: "write", mode: "status" });
    expect(app.pet.importHex(hex)).toMatch(/^write-failed/);
    expect(app.pet.status()!.savedAtMs).toBe(String(importedAt));
  });

  it("hatch that saves: savedAtMs is the new save's stamp", () => {
    const { env, app, stamp } = bootedWithOneSave();
    env.advance(5000);
    expect(app.pet.hatch("Rex")).toBe("ok");
    const after = app.pet.status()!.savedAtMs;
    expect(Number(after)).toBeGreaterThan(Number(stamp));
  });
});
