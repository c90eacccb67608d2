/**
 * `npm run soak -- --espruino PATH` (docs/board.md, "Cut the power, many times") end to end, as a
 * person runs it: the soak starts Espruino's Linux build, uploads the firmware, and cuts by SIGKILL
 * and a restart on the same flash file, round after round. Every round holds: no confirmed save is
 * lost, and the report says what it ran on. test/soak-stand-in-board-lose-no-save.test.ts runs it on
 * a serial port.
 *
 * A few rounds, with a short window: the soak's own rounds are the long run.
 * Runs only when env ESPRUINO names the interpreter binary (test/espruino-interpreter.ts).
 */
import { describe, expect, it } from "vitest";
import { ESPRUINO, NEEDS_ESPRUINO } from "./espruino-interpreter";
import { FAST, soakProcess, type SoakJson } from "./soak-fixtures";

describe.skipIf(!ESPRUINO)("npm run soak --espruino " + NEEDS_ESPRUINO, () => {
  it("--espruino: uploads, cuts by SIGKILL, and every round holds; --json counts the confirmed saves and no lost one", async () => {
    const r = await soakProcess(["--espruino", ESPRUINO!, "--rounds", "3", "--json", ...FAST]);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as SoakJson;
    expect(j.rounds).toBe(3);
    expect(j.lostSaves).toBe(0);
    expect(j.problems).toEqual([]);
    expect(j.cut).toBe("kill");
    expect(j.cutsFlashPower).toBe(true);
    expect(j.boardInfo.board).toMatch(/^LINUX/); // it says what it ran on: the interpreter, not a board
    expect(j.roundResults).toHaveLength(3);
    expect(j.confirmedSaves).toBe(j.roundResults.reduce((n, x) => n + x.confirmedSaves, 0));
    expect(j.confirmedSaves).toBeGreaterThanOrEqual(3);
    for (const x of j.roundResults) {
      expect(x.held).toBe(true);
      expect(BigInt(x.readBack!.updateCount)).toBeGreaterThanOrEqual(BigInt(x.lastConfirmed!.updateCount));
    }
    // The progress and the summary go to stderr with --json.
    expect(r.err).toMatch(/summary: 3 rounds, \d+ confirmed saves, 0 lost saves \(must be 0\), 0 problems/);
  }, 120_000);
});
