/**
 * How the soak (src/host/node/soak) judges a round, without a board: the region read after a cut
 * against the saves the board confirmed before it (the same pet, a valid payload, not older than
 * the last confirmed save, equal to it when it is one of them), the confirmed-save lines it counts
 * (a line cut short by the cut does not count), and the reset it sends on RTS (DTR kept released,
 * so an ESP32 development board boots normally rather than into its ROM loader).
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { readRegion } from "../src/inspect/regionReport";
import { readProfile } from "../src/host/node/cli/regionFile";
import { BOARDS_DIR } from "../src/host/node/boardProfiles";
import { loadWorld } from "../src/save/codec";
import { payloadJson, type PayloadJson } from "../src/save/payloadJson";
import { checkReadBack, parseSoakLines, type ConfirmedSave } from "../src/host/node/soak/soakProtocol";
import { rtsCut } from "../src/host/node/soak/powerCuts";
import type { BoardConsole } from "../src/host/node/serial/boardConsole";
import { mustSave, newRegion, petPayload, rotten } from "./region-tools-fixtures";

const board = readProfile(join(BOARDS_DIR, "desktop.json")); // 16 x 4 KiB, as the fixtures' region

function status(payload: Uint8Array): PayloadJson {
  const l = loadWorld(payload, 0);
  return payloadJson(l.world!, l.savedAt);
}

function confirmed(...updates: number[]): ConfirmedSave[] {
  return updates.map((u, i) => ({ round: 1, n: i + 1, status: status(petPayload("Mochi", u)) }));
}

/** A region whose newest save is `newest` (after a few older ones). */
function regionWith(newest: Uint8Array) {
  const { sim, log } = newRegion();
  mustSave(log, petPayload("Mochi", 1));
  mustSave(log, newest);
  return readRegion(sim.image(), board);
}

const MOCHI = status(petPayload("Mochi", 1)).nameHex;

describe("the soak's judgement of what comes back", () => {
  it("holds when the newest save is the last confirmed one, or newer (a save whose report the cut swallowed)", () => {
    const saves = confirmed(3, 4, 5);
    for (const newest of [5, 6]) {
      const c = checkReadBack(regionWith(petPayload("Mochi", newest)), saves, status(petPayload("Mochi", newest)), MOCHI);
      expect(c).toMatchObject({ held: true, lost: 0, problems: [] });
      expect(c.readBack?.updateCount).toBe(String(newest));
    }
  });

  it("counts every confirmed save newer than what came back as lost", () => {
    const c = checkReadBack(regionWith(petPayload("Mochi", 3)), confirmed(3, 4, 5), status(petPayload("Mochi", 3)), MOCHI);
    expect(c.held).toBe(false);
    expect(c.lost).toBe(2);
    expect(c.problems[0]).toMatch(/^lost 2 confirmed save\(s\): the region's newest save has updates 3/);
  });

  it("a different pet, or no readable save, loses every confirmed save", () => {
    const other = checkReadBack(regionWith(petPayload("Rex", 9)), confirmed(3, 4), status(petPayload("Rex", 9)), MOCHI);
    expect(other.lost).toBe(2);
    expect(other.problems[0]).toMatch(/^a different pet came back: "Rex"/);
    const { sim } = newRegion();
    const empty = checkReadBack(readRegion(sim.image(), board), confirmed(3, 4), null, MOCHI);
    expect(empty.lost).toBe(2);
    expect(empty.problems[0]).toMatch(/^the region holds no readable save after the cut \(empty/);
  });

  it("a save with a confirmed save's counters but another field is mixed", () => {
    const saves = confirmed(4, 5);
    // The board reported save 2 with another stamp (savedAtMs) than the region holds for the same
    // update count and world clock: the region's save is neither that save nor a later one.
    const twin = { ...(saves[1] as ConfirmedSave), status: { ...(saves[1] as ConfirmedSave).status, savedAtMs: "1" } };
    const c = checkReadBack(regionWith(petPayload("Mochi", 5)), [saves[0] as ConfirmedSave, twin], status(petPayload("Mochi", 5)), MOCHI);
    expect(c.held).toBe(false);
    expect(c.lost).toBe(1);
    expect(c.problems[0]).toMatch(/^mixed: /);
  });

  it("a committed save that does not load is mixed, even when the save behind it is the last confirmed one", () => {
    const { sim, log } = newRegion();
    mustSave(log, petPayload("Mochi", 5));
    mustSave(log, rotten(petPayload("Mochi", 6))); // committed, but its bytes fail the CRC
    const c = checkReadBack(readRegion(sim.image(), board), confirmed(5), status(petPayload("Mochi", 5)), MOCHI);
    expect(c.held).toBe(false);
    expect(c.lost).toBe(0);
    expect(c.problems).toEqual(["the newest committed save does not load: the boot passed over 1 committed slot(s) that fail the check (mixed or damaged bytes)"]);
  });

  it("says so when the pet the board runs is not the save its region holds", () => {
    const c = checkReadBack(regionWith(petPayload("Mochi", 5)), confirmed(5), status(petPayload("Mochi", 2)), MOCHI);
    expect(c.lost).toBe(0);
    expect(c.problems).toEqual(['the pet the board restored ("Mochi", updates 2) is not the region\'s newest save (updates 5)']);
  });

  it("counts complete confirmed-save lines of its round only; a line cut short is not a confirmed save", () => {
    const json = JSON.stringify(status(petPayload("Mochi", 7)));
    const lines = [
      "SOAKSAVE 2 1 " + json,
      "Mochi: idle, neutral, updates 7, saved",
      "SOAKSAVE 1 9 " + json, // another round
      "SOAKSAVE 2 2 " + json.slice(0, 40), // the power went in the middle of the line
      "SOAKFAIL 2 verify-failed (sector 3 did not erase: 60 of its 60 header and mark bytes read back unerased)",
      "SOAKSAVE 2 3 " + json + "\r",
    ];
    const r = parseSoakLines(lines, 2);
    expect(r.saves.map((s) => s.n)).toEqual([1, 3]);
    expect(r.failures).toEqual(["verify-failed (sector 3 did not erase: 60 of its 60 header and mark bytes read back unerased)"]);
  });

  it("resets through RTS with DTR released throughout, and names the way out where there is no RTS", async () => {
    const calls: { rts: boolean; dtr: boolean }[] = [];
    const con = { port: "/dev/ttyUSB0", isOpen: true, setLines: async (l: { rts: boolean; dtr: boolean }) => void calls.push(l) } as unknown as BoardConsole;
    await rtsCut().cut(con, () => undefined, 1);
    expect(calls).toEqual([
      { rts: true, dtr: false },
      { rts: false, dtr: false },
    ]);
    const noLines = { port: "tcp://x:1", isOpen: true, setLines: () => Promise.reject(new Error("none")) } as unknown as BoardConsole;
    await expect(rtsCut().cut(noLines, () => undefined, 1)).rejects.toThrow(/--cut-with CMD or --manual/);
  });
});
