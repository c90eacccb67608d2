/**
 * Nothing typed at the `pet` console may stop the pet: every method, given any value or any sequence
 * of calls (re-entrant ones from timers and from inside the console's own printing included), returns
 * its status instead of throwing, a rejected call changes neither the world nor the flash, and
 * afterwards the 1 s loop still ticks (world clock and update count move on) and pet.save() writes
 * the live pet as the newest save.
 *
 * The expected status of each call comes from a small model built here from the rules (a name is 1 to
 * 31 UTF-8 bytes without NUL; hex is an even run of hex digits once whitespace is removed; a payload
 * is judged by the codec), not from the console's own helpers.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { startPet } from "../firmware/app";
import { fakeEnv, newFlash, plainSlotLog, rawFlashOver, testBoard, type FakeEnv } from "./firmware-fakes";
import { createWorld } from "../src/core/world";
import { loadWorld, saveWorld } from "../src/save/codec";
import { U64_MAX } from "./core-arbitraries";
import type { World } from "../src/core/types";
import type { NorFlashSim } from "../src/storage/norFlashSim";
import { MAX_HEX_TEXT, type PetConsole } from "../firmware/petConsole";

const JULY_2026 = Date.UTC(2026, 6, 1);
const U64_MAX_TEXT = "18446744073709551615";
const TWO_POW_64 = BigInt("18446744073709551616");

function worldNamed(name: string, edit?: (w: World) => void): World {
  const w = createWorld(new Uint8Array(Buffer.from(name, "utf8")))!;
  if (edit) edit(w);
  return w;
}

function hexOf(w: World): string {
  return Buffer.from(saveWorld(w, 0).bytes!).toString("hex");
}

/** Every u64 at its end: the clock cannot move and the count cannot grow, so every update is refused. */
const LIMIT_HEX = hexOf(
  worldNamed("Max", (w) => {
    w.elapsed = { ...U64_MAX };
    w.updateCount = { ...U64_MAX };
    w.activitySince = { ...U64_MAX };
    w.expressionSince = { ...U64_MAX };
  }),
);
/** Only the update count at its end. */
const COUNT_LIMIT_HEX = hexOf(worldNamed("Cnt", (w) => (w.updateCount = { ...U64_MAX })));
/** Only the world clock at its end. */
const CLOCK_LIMIT_HEX = hexOf(
  worldNamed("Clk", (w) => {
    w.elapsed = { ...U64_MAX };
    w.activitySince = { ...U64_MAX };
    w.expressionSince = { ...U64_MAX };
  }),
);
const GOOD_HEX = hexOf(worldNamed("Good"));

const LONG = 10000;
const longStrings = [
  "x".repeat(LONG),
  "a".repeat(LONG), // 10 000 hex digits: even and valid hex, 5000 bytes
  "ab ".repeat(LONG / 3),
  " ".repeat(LONG),
  "\n".repeat(LONG),
  "é".repeat(LONG),
  "\u0000".repeat(LONG),
  "😀".repeat(LONG / 2),
];

/** Names at the byte limit in multibyte UTF-8 (31 is the most a name may have). */
const edgeNames = [
  "é".repeat(15) + "x", // 31 bytes
  "é".repeat(16), // 32
  "😀".repeat(7) + "abc", // 31
  "😀".repeat(8), // 32
  "☺".repeat(10) + "x", // 31
  "☺".repeat(10) + "xy", // 32
  "x".repeat(31),
  "x".repeat(32),
  "\ud800abc", // lone surrogate: U+FFFD in UTF-8
  "a\u0000b",
  "\u0000",
  "",
  " ",
];

/** Hex texts around the accepted form. */
function hexVariants(): fc.Arbitrary<string> {
  const spaced = fc
    .array(fc.constantFrom(" ", "\n", "\t", "\r\n", "  "), { minLength: 1, maxLength: 4 })
    .map((ws) => {
      let out = "";
      let k = 0;
      for (let i = 0; i < GOOD_HEX.length; i += 2) out += GOOD_HEX.slice(i, i + 2) + (i % 8 === 0 ? ws[k++ % ws.length] : "");
      return ws[0] + out + ws[ws.length - 1];
    });
  return fc.oneof(
    fc.constantFrom(GOOD_HEX, GOOD_HEX.toUpperCase(), LIMIT_HEX, COUNT_LIMIT_HEX, CLOCK_LIMIT_HEX, GOOD_HEX.slice(1), GOOD_HEX + "0", "505", "5045", ""),
    spaced,
    fc.uint8Array({ minLength: 84, maxLength: 84 }).map((b) => Buffer.from(b).toString("hex")),
    fc.uint8Array({ minLength: 84, maxLength: 84 }).map((b) => "50455453" + Buffer.from(b).toString("hex").slice(8)),
    fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF \n\u0000g"), maxLength: 200 }),
    fc.integer({ min: 0, max: GOOD_HEX.length - 2 }).map((i) => GOOD_HEX.slice(0, i) + "\u0000" + GOOD_HEX.slice(i + 1)),
  );
}

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, NaN, 0, -1, 1e308, Infinity, true, [] as unknown, {} as unknown),
  fc.double(),
  fc.object({ maxDepth: 1 }),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(...longStrings),
  fc.constantFrom(...edgeNames),
  hexVariants(),
);

type Method = "status" | "save" | "interact" | "rename" | "hatch" | "exportHex" | "importHex";
const METHODS: Method[] = ["status", "save", "interact", "rename", "hatch", "exportHex", "importHex"];

type Command =
  | { kind: "call"; method: Method; arg: unknown; noArg: boolean }
  /** The call runs from a setTimeout callback (the loop's own timer queue), `ms` later. */
  | { kind: "timer"; method: Method; arg: unknown; ms: number }
  /** The call runs from inside the next line the firmware prints (in the middle of another method). */
  | { kind: "fromPrint"; method: Method; arg: unknown; then: Method }
  | { kind: "wait"; ms: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("call" as const), method: fc.constantFrom(...METHODS), arg: hostileValue, noArg: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("timer" as const), method: fc.constantFrom(...METHODS), arg: hostileValue, ms: fc.integer({ min: 0, max: 2500 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("fromPrint" as const), method: fc.constantFrom(...METHODS), arg: hostileValue, then: fc.constantFrom(...METHODS) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 70000 }) }) },
);

/** The name bytes a typed value makes, or null: what the console must accept (UTF-8, 1..31 bytes, no NUL). */
function modelName(v: unknown): Buffer | null {
  if (typeof v !== "string") return null;
  const b = Buffer.from(v, "utf8");
  return b.length >= 1 && b.length <= 31 && b.indexOf(0) < 0 ? b : null;
}

/** What importHex must answer for `v` before any saving: "bad-hex" or the codec's verdict. */
function modelImport(v: unknown, wallMs: number): string {
  if (typeof v !== "string") return "bad-hex";
  if (v.length > 1024) return "bad-length"; // refused unread: too long to be a pasted save
  let digits = "";
  for (const ch of v) if (ch !== " " && ch !== "\t" && ch !== "\r" && ch !== "\n") digits += ch;
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(digits)) return "bad-hex";
  return loadWorld(new Uint8Array(Buffer.from(digits, "hex")), wallMs).status;
}

interface Rig {
  sim: NorFlashSim;
  env: FakeEnv;
  pet: PetConsole;
  world: () => World;
  /** A pet call to make from inside the next printed line, once. */
  armPrint: (fn: (() => void) | null) => void;
}

/** A started pet; `paused`: the region holds a committed save the firmware cannot read. */
function rig(paused: boolean, wall: boolean): Rig {
  const sim = newFlash();
  if (paused) expect(plainSlotLog(sim).save(new Uint8Array(84).fill(0x5a)).status).toBe("ok");
  const env = fakeEnv({ flash: rawFlashOver(sim), wallClockMs: wall ? JULY_2026 : 0 });
  let pending: (() => void) | null = null;
  const print = env.print;
  env.print = (line: string) => {
    print(line);
    const fn = pending;
    pending = null;
    if (fn) fn();
  };
  const app = startPet(testBoard(), env);
  if (paused) expect(env.lines[0]).toMatch(/^save unreadable: /);
  return { sim, env, pet: app.pet, world: app.world, armPrint: (fn) => (pending = fn) };
}

/** Calls pet[method] as the console would, recording that it returned the documented type. */
function callPet(pet: PetConsole, method: Method, arg: unknown, noArg: boolean): unknown {
  const f = pet[method] as (...a: unknown[]) => unknown;
  let r: unknown;
  expect(() => {
    r = noArg ? f() : f(arg);
  }).not.toThrow();
  if (method === "status") {
    expect(r === null || (typeof r === "object" && typeof (r as { updateCount: unknown }).updateCount === "string")).toBe(true);
  } else {
    expect(typeof r).toBe("string");
  }
  return r;
}

function isStuck(status: { elapsedMs: string; updateCount: string }): boolean {
  return status.updateCount === U64_MAX_TEXT || BigInt(status.elapsedMs) + BigInt(60000) >= TWO_POW_64;
}

/** The pet after the hostile sequence: the loop ticks, a save works and is the newest in flash. */
function checkStillAlive(r: Rig): void {
  expect(r.env.intervalPeriods()).toContain(1000);
  let before = r.pet.status()!;
  if (isStuck(before)) {
    // A pet at the u64 limits cannot move; the loop still runs and says so once. The owner starts over.
    r.env.advance(3000);
    expect(r.pet.status()).toEqual(before);
    expect(r.pet.hatch("Fresh")).toBe("ok");
    before = r.pet.status()!;
  }
  r.env.advance(3000);
  const after = r.pet.status()!;
  // Three ticks fall in any 3 s, each adding the time since the step before (a call in between moved it).
  const clock = Number(BigInt(after.elapsedMs) - BigInt(before.elapsedMs));
  expect(clock).toBeGreaterThan(2000);
  expect(clock).toBeLessThanOrEqual(3000);
  expect(Number(BigInt(after.updateCount) - BigInt(before.updateCount))).toBe(3);
  const saved = r.pet.save();
  if (saved === "paused") {
    expect(r.pet.hatch()).toBe("ok");
  } else {
    expect(saved).toBe("ok");
  }
  const newest = plainSlotLog(r.sim).load();
  expect(newest.status).toBe("ok");
  expect(loadWorld(newest.payload!, 0).world).toEqual(r.world());
}

/** Runs one call and checks its status against the model and that a refusal changed nothing. */
function checkedCall(r: Rig, method: Method, arg: unknown, noArg: boolean, paused: () => boolean, wall: number): unknown {
  const worldBefore = JSON.stringify(r.world());
  const imageBefore = r.sim.image();
  const wasPaused = paused();
  const result = callPet(r.pet, method, arg, noArg);
  const unchanged = () => {
    expect(JSON.stringify(r.world())).toBe(worldBefore);
    expect(Buffer.from(r.sim.image()).equals(Buffer.from(imageBefore))).toBe(true);
  };
  const value = noArg ? undefined : arg;
  switch (method) {
    case "status":
    case "exportHex":
      unchanged();
      if (method === "exportHex") expect(result).toMatch(/^[0-9a-f]{168}$/);
      break;
    case "hatch": {
      const ok = value === undefined || modelName(value) !== null;
      expect(result).toBe(ok ? "ok" : "bad-name");
      if (!ok) unchanged();
      else if (value !== undefined) expect(Buffer.from(r.world().name).equals(modelName(value)!)).toBe(true);
      break;
    }
    case "rename": {
      const name = modelName(value);
      const expected = name === null ? "bad-name" : wasPaused ? "paused" : "ok";
      expect(result).toBe(expected);
      if (expected !== "ok") unchanged();
      else expect(Buffer.from(r.world().name).equals(name!)).toBe(true);
      break;
    }
    case "importHex": {
      const expected = modelImport(value, wall);
      expect(result).toBe(expected);
      if (expected !== "ok") unchanged();
      break;
    }
    case "save":
      expect(result).toBe(wasPaused ? "paused" : "ok");
      if (wasPaused) expect(Buffer.from(r.sim.image()).equals(Buffer.from(imageBefore))).toBe(true);
      break;
    case "interact": {
      // refused only for a pet at the u64 limits
      const stuck = isStuck(JSON.parse(JSON.stringify(r.pet.status())));
      if (!stuck) expect(result).toBe("ok");
      else expect(["ok", "count-overflow", "clock-overflow"]).toContain(result);
      break;
    }
  }
  return result;
}

describe("the pet console under hostile input", () => {
  it("every method and sequence returns a status, refusals change nothing, and the loop goes on", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.array(command, { minLength: 1, maxLength: 14 }), (startPaused, wall, commands) => {
        const r = rig(startPaused, wall);
        const wallAt = () => (wall ? Math.floor(r.env.dateNow()) : 0);
        // Saving stays paused (the planted save never reads) until a hatch or an import succeeds.
        let paused = startPaused;
        const pausedNow = () => paused;
        const notePaused = (method: Method, result: unknown) => {
          if ((method === "hatch" || method === "importHex") && result === "ok") paused = false;
        };
        for (const c of commands) {
          if (c.kind === "wait") {
            r.env.advance(c.ms);
          } else if (c.kind === "call") {
            notePaused(c.method, checkedCall(r, c.method, c.arg, c.noArg, pausedNow, wallAt()));
          } else if (c.kind === "timer") {
            let result: unknown = "not run";
            r.env.setTimeout(() => {
              result = callPet(r.pet, c.method, c.arg, false);
            }, c.ms);
            r.env.advance(c.ms);
            expect(result).not.toBe("not run");
            notePaused(c.method, result);
          } else {
            let inner: unknown = "not run";
            r.armPrint(() => {
              inner = callPet(r.pet, c.method, c.arg, false);
            });
            notePaused(c.then, callPet(r.pet, c.then, undefined, true));
            r.armPrint(null); // the outer call may print nothing (status): the inner one is dropped
            notePaused(c.method, inner);
          }
        }
        checkStillAlive(r);
      }),
      { numRuns: 120 },
    );
  });
});

describe("the worst cases, one by one", () => {
  it("text longer than MAX_HEX_TEXT is refused unread as bad-length: world and flash untouched", () => {
    const r = rig(false, false);
    r.env.advance(2000);
    const world = JSON.stringify(r.world());
    const image = r.sim.image();
    for (const text of longStrings) {
      expect(text.length).toBeGreaterThan(MAX_HEX_TEXT);
      expect(r.pet.importHex(text)).toBe("bad-length");
      expect(r.env.lines[r.env.lines.length - 1]).toBe("import rejected: bad-length (" + text.length + " characters; a save is 168 hex digits)");
    }
    expect(JSON.stringify(r.world())).toBe(world);
    expect(Buffer.from(r.sim.image()).equals(Buffer.from(image))).toBe(true);
    checkStillAlive(r);
  });

  it("a save spaced out to MAX_HEX_TEXT characters still imports; only space, tab, CR and LF are spacing", () => {
    const r = rig(false, false);
    const pad = " \t\r\n".repeat((MAX_HEX_TEXT - GOOD_HEX.length) / 4);
    const spaced = pad.slice(0, 100) + GOOD_HEX + pad.slice(100);
    expect(spaced.length).toBe(MAX_HEX_TEXT);
    expect(r.pet.importHex(spaced)).toBe("ok");
    expect(r.pet.status()!.name).toBe("Good");
    // Espruino's \s does not match these (measured on 2v29: all three were bad-hex there)
    for (const space of ["\u00a0", "\u2028", "\ufeff"]) expect(r.pet.importHex(space + GOOD_HEX)).toBe("bad-hex");
    expect(r.pet.importHex(" " + spaced)).toBe("bad-length");
  });

  it("a pet at the u64 limits: every update refused with one line, status/save/export still answer", () => {
    const r = rig(false, false);
    expect(r.pet.importHex(LIMIT_HEX)).toBe("ok");
    const before = r.pet.status()!;
    expect(before).toMatchObject({ elapsedMs: U64_MAX_TEXT, updateCount: U64_MAX_TEXT });
    const lines = r.env.lines.length;
    r.env.advance(10000);
    expect(r.env.lines.slice(lines)).toEqual(["update refused: clock-overflow"]);
    // right after a tick no time has passed, so the count is what overflows
    expect(r.pet.interact()).toBe("count-overflow");
    expect(r.pet.save()).toBe("ok");
    expect(r.pet.exportHex()).toBe(LIMIT_HEX);
    expect(r.pet.status()).toEqual(before);
    expect(r.pet.importHex(COUNT_LIMIT_HEX)).toBe("ok");
    r.env.advance(3000);
    expect(r.pet.interact()).toBe("count-overflow");
    expect(r.pet.status()!.updateCount).toBe(U64_MAX_TEXT);
    checkStillAlive(r);
  });

  it("status() and exportHex() while saving is paused answer and write nothing", () => {
    const r = rig(true, true);
    const image = r.sim.image();
    const s = r.pet.status()!;
    expect(s).toMatchObject({ name: "Pip", updateCount: "0" });
    expect(r.pet.exportHex()).toMatch(/^[0-9a-f]{168}$/);
    r.env.advance(5000);
    expect(r.pet.status()!.elapsedMs).toBe("5000");
    expect(r.pet.save()).toBe("paused");
    expect(r.pet.rename("Nope")).toBe("paused");
    expect(Buffer.from(r.sim.image()).equals(Buffer.from(image))).toBe(true);
    checkStillAlive(r);
  });

  for (const how of ["hatch", "importHex"] as const) {
    it(how + " 500 times in a tight loop: every one saved, sectors reused, and the loop goes on", () => {
      const r = rig(false, false);
      const erasesBefore = r.sim.eraseCounts().reduce((a, b) => a + b, 0);
      for (let i = 0; i < 500; i++) {
        const result = how === "hatch" ? r.pet.hatch("L" + i) : r.pet.importHex(i % 2 === 0 ? GOOD_HEX : GOOD_HEX.toUpperCase());
        expect(result).toBe("ok");
      }
      // 500 saves of 47 slots per 4 KiB sector: the log went round its 16 sectors
      const erases = r.sim.eraseCounts().reduce((a, b) => a + b, 0) - erasesBefore;
      expect(erases).toBeGreaterThanOrEqual(10);
      expect(r.pet.status()!.name).toBe(how === "hatch" ? "L499" : "Good");
      checkStillAlive(r);
    });
  }
});
