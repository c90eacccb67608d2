/**
 * Power cuts of the emulated ESP32 while the pet saves, through the product's own soak: `npm run
 * soak -- --cut-with test/fixtures/chip-power-cycle.sh ...` runs 20 rounds in which the chip saves
 * its pet over and over and QEMU is killed (SIGKILL: the chip loses power mid-instruction, mid flash
 * operation) at a random instant, started again on the same flash file, and what comes back is
 * judged by the soak. Independently of the soak, the cut script records what `pet-save inspect` finds
 * in the flash file while the power is off; every record must hold a readable save of the same pet,
 * no older than the last save the chip confirmed before that cut, with no committed slot that fails
 * to load (nothing mixed).
 */
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Chip } from "../src/host/node/emulatedChip/qemuChip";
import { bootChip, installedImage, ROOT, runCommand, stopEveryChipOn } from "./chip-fixtures";

const ROUNDS = 20;

interface Inspected {
  unreadable?: boolean;
  chipOffset: number;
  current: { status: string; payload: { name: string; updateCount: string; elapsedMs: string } | null };
  sectors: { slots: { verdict: string }[] }[];
}

interface SoakJson {
  rounds: number;
  confirmedSaves: number;
  lostSaves: number;
  problems: string[];
  cutsFlashPower: boolean;
  roundResults: { round: number; lastConfirmed: { updateCount: string; elapsedMs: string } | null; held: boolean }[];
}

describe("power cuts on the emulated ESP32 while the pet saves", () => {
  const image = installedImage();
  const record = image + ".inspected.jsonl";
  let chip: Chip | null = null;
  afterAll(async () => {
    await chip?.stop();
    await stopEveryChipOn(image);
  });

  it(ROUNDS + " cuts at random instants: the soak loses no confirmed save, and pet-save inspect finds each one in the flash file", async () => {
    chip = await bootChip(image);
    const cut = [join(ROOT, "test", "fixtures", "chip-power-cycle.sh"), image, String(chip.port), record].join(" ");
    // The cut within 1 s of the round's first confirmed save: a save takes about 0.5 s on the emulated
    // chip and the next follows 50 ms later, so a 1 s window can land on any instant of a save.
    const r = await runCommand("npm", ["run", "-s", "soak", "--", "--port", chip.consoleUrl, "--cut-with", cut, "--rounds", String(ROUNDS), "--window", "1000", "--json"], {}, 900_000);
    // Start-ups the cut script powered on again (the emulator's, before Espruino ran): said, not hidden.
    const restarts = existsSync(record + ".restarts") ? readFileSync(record + ".restarts", "utf8").trim().split("\n").length : 0;
    console.log("chip soak: " + ROUNDS + " cuts; " + restarts + " start-up(s) stopped in the emulator (no Espruino in 15 s, or no prompt in 30 s) and were powered on again");
    expect(r.code, r.err).toBe(0);
    const soak = JSON.parse(r.out) as SoakJson;
    expect(soak.rounds).toBe(ROUNDS);
    expect(soak.cutsFlashPower).toBe(true);
    expect(soak.lostSaves).toBe(0);
    expect(soak.problems).toEqual([]);
    expect(soak.confirmedSaves).toBeGreaterThanOrEqual(ROUNDS);
    expect(soak.roundResults.every((x) => x.held)).toBe(true);

    // The flash file as each cut left it, read by pet-save inspect while the power was off.
    const cuts = readFileSync(record, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Inspected);
    expect(cuts).toHaveLength(ROUNDS);
    const count = (s: string): bigint => BigInt(s);
    cuts.forEach((c, i) => {
      expect(c.unreadable, "cut " + (i + 1)).toBeUndefined();
      expect(c.chipOffset).toBe(0x310000);
      expect(c.current.status, "cut " + (i + 1)).toBe("ok");
      expect(c.current.payload!.name).toBe("Pip");
      const last = soak.roundResults[i]!.lastConfirmed;
      if (last !== null) expect(count(c.current.payload!.updateCount) >= count(last.updateCount), "cut " + (i + 1) + " lost a confirmed save").toBe(true);
      // Nothing mixed: no committed slot anywhere fails to load.
      expect(c.sectors.flatMap((s) => s.slots).filter((s) => s.verdict === "invalid"), "cut " + (i + 1)).toEqual([]);
    });
    // The saves went on across the cuts: the last record is newer than the first.
    expect(count(cuts[ROUNDS - 1]!.current.payload!.updateCount) > count(cuts[0]!.current.payload!.updateCount)).toBe(true);
  });
});
