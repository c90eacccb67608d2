/**
 * The `pet` console object: status() has exactly the keys and values of `pet-save decode --json`
 * (then `storage`, whether saving works),
 * every method returns a status, and a rejected import changes nothing.
 */
import { describe, expect, it } from "vitest";
import { bootPet, plainSlotLog } from "./firmware-fakes";
import { PAYLOAD_JSON_KEYS, payloadJson } from "../src/save/payloadJson";
import { loadWorld, saveWorld } from "../src/save/codec";
import { createWorld } from "../src/core/world";
import { nameFromString } from "../src/core/name";
import type { NorFlashSim } from "../src/storage/norFlashSim";
import { U64_MAX } from "./core-arbitraries";
import { bytesToHex } from "../src/core/hex";

const JULY_2026 = Date.UTC(2026, 6, 1);

const started = (wallClockMs?: number) => bootPet({ wallClockMs });

/** The newest payload in flash, read by an independent SlotLog. */
function newestPayload(sim: NorFlashSim): Uint8Array {
  const log = plainSlotLog(sim);
  return log.load().payload!;
}

describe("pet.status()", () => {
  it("matches what pet-save decode --json prints for the save just written, key for key, then says storage ok", () => {
    const { sim, env, app } = started(JULY_2026);
    env.advance(25000);
    app.pet.interact();
    env.advance(1500);
    expect(app.pet.save()).toBe("ok");
    const { storage, ...status } = app.pet.status()!;
    expect(Object.keys(status)).toEqual(PAYLOAD_JSON_KEYS);
    const decoded = loadWorld(newestPayload(sim), 0);
    expect(status).toEqual(payloadJson(decoded.world!, decoded.savedAt));
    expect(storage).toBe("ok"); // and, after them, whether the pet is being saved
    // The world as of its last step (the tick at 26 s; pet.save() takes no step), stamped with that
    // step's instant, not the moment of the call.
    expect(status.savedAtMs).toBe(String(JULY_2026 + 26000));
    expect(typeof status.activity).toBe("number");
    expect(typeof status.elapsedMs).toBe("string");
  });

  it("says savedAtMs 0 when no save carried a wall clock", () => {
    const { app } = started();
    expect(app.pet.status()!.savedAtMs).toBe("0");
  });
});

describe("pet.rename / pet.hatch", () => {
  it("renames to valid names and refuses bad ones without changing anything", () => {
    const { app } = started();
    expect(app.pet.rename("Żaba")).toBe("ok");
    expect(app.pet.status()!.name).toBe("Żaba");
    expect(app.pet.status()!.nameHex).toBe("c5bb616261");
    const before = app.pet.status();
    expect(app.pet.rename("")).toBe("bad-name");
    expect(app.pet.rename("x".repeat(32))).toBe("bad-name");
    expect(app.pet.rename("a\u0000b")).toBe("bad-name");
    expect(app.pet.rename(42 as unknown as string)).toBe("bad-name");
    expect(app.pet.status()).toEqual(before);
    expect(app.pet.rename("é".repeat(15) + "x")).toBe("ok"); // 31 bytes
  });

  it("hatches a new pet, named or default, and saves it", () => {
    const { sim, env, app } = started();
    env.advance(30000);
    expect(app.pet.hatch("Nova")).toBe("ok");
    expect(app.pet.status()).toMatchObject({ name: "Nova", updateCount: "0", elapsedMs: "0", activity: 0 });
    expect(loadWorld(newestPayload(sim), 0).world!.name).toEqual(nameFromString("Nova"));
    expect(app.pet.hatch()).toBe("ok");
    expect(app.pet.status()!.name).toBe("Pip");
    expect(app.pet.hatch("")).toBe("bad-name");
  });
});

describe("pet.exportHex / pet.importHex", () => {
  it("exports 168 hex digits that decode to the current world", () => {
    const { env, app } = started();
    env.advance(12000);
    const hex = app.pet.exportHex();
    expect(hex).toMatch(/^[0-9a-f]{168}$/);
    const loaded = loadWorld(new Uint8Array(Buffer.from(hex, "hex")), 0);
    expect(loaded.status).toBe("ok");
    expect(loaded.world).toEqual(app.world());
  });

  it("imports a payload, saves it, and the next boot restores it", () => {
    const { sim, app } = started();
    const w = createWorld(nameFromString("Imported") as Uint8Array)!;
    w.elapsed = { hi: 1, lo: 5 };
    w.updateCount = { hi: 0, lo: 777 };
    w.activity = 4;
    w.expression = 2;
    const hex = Buffer.from(saveWorld(w, 0).bytes!).toString("hex");
    expect(app.pet.importHex(hex.toUpperCase())).toBe("ok");
    expect(app.pet.status()).toMatchObject({ name: "Imported", updateCount: "777", elapsedMs: "4294967301" });
    const env2 = bootPet({ sim }).env;
    expect(env2.lines).toEqual(["restored Imported, updates 777"]);
  });

  it("rejects a bad payload with the codec's status, prints it, and changes nothing", () => {
    const { sim, env, app } = started();
    env.advance(5000);
    app.pet.save();
    const before = app.pet.status();
    const imageBefore = sim.image();
    const good = Buffer.from(saveWorld(createWorld(nameFromString("X") as Uint8Array)!, 0).bytes!);

    const damaged = Buffer.from(good);
    damaged[20] = damaged[20]! ^ 1;
    expect(app.pet.importHex(damaged.toString("hex"))).toBe("bad-checksum");
    expect(env.lines[env.lines.length - 1]).toBe("import rejected: bad-checksum");

    expect(app.pet.importHex(good.toString("hex").slice(0, 166))).toBe("bad-length");
    expect(app.pet.importHex("5045")).toBe("too-short");
    expect(app.pet.importHex("zz")).toBe("bad-hex");
    expect(app.pet.importHex("abc")).toBe("bad-hex");
    expect(app.pet.importHex(undefined as unknown as string)).toBe("bad-hex");
    expect(env.lines[env.lines.length - 1]).toMatch(/^import rejected: bad-hex/);

    expect(app.pet.status()).toEqual(before);
    expect(sim.image()).toEqual(imageBefore);
  });
});

describe("a replaced pet starts with no remembered refusal", () => {
  /** A payload whose world clock is at 2^64 - 1, so every further update is refused. */
  function stuckPetHex(name: string): string {
    const world = createWorld(nameFromString(name) as Uint8Array)!;
    world.elapsed = U64_MAX;
    return bytesToHex(saveWorld(world, 0).bytes!);
  }

  it("prints the refusal again after importHex brings in another stuck pet", () => {
    const { env, app } = started();
    expect(app.pet.importHex(stuckPetHex("Old"))).toBe("ok");
    env.advance(3000);
    const refusals = () => env.lines.filter((l) => l.indexOf("update refused: clock-overflow") >= 0).length;
    expect(refusals()).toBe(1); // a stuck world says so once, not every tick
    expect(app.pet.importHex(stuckPetHex("New"))).toBe("ok");
    env.advance(3000);
    expect(refusals()).toBe(2);
  });
});
