/**
 * The soak's rounds (docs/board.md, "Cut the power, many times"): the board is first asked what it is
 * and refused at once when the profile does not fit it (src/boards/boardFit.ts, as the upload refuses
 * it); then it saves continuously and reports each confirmed save; at a random instant its power is
 * cut; once it answers again the region is read and judged against the confirmed saves
 * (soakProtocol.ts). The result is a report with at least `rounds`, `confirmedSaves`, `lostSaves` and
 * `problems` (empty when everything held). Everything is said through the console protocol
 * (src/boards/consoleProtocol.ts) over the one Node transport (../serial/boardConsole.ts).
 */
import { createPrng } from "../../../storage/norFlashSim";
import { evaluate as evaluateOver } from "../../../boards/consoleProtocol";
import type { DeviceBoardProfile } from "../../../boards/boardProfile";
import { logPullProgram, pullThenEvaluate } from "../../../inspect/regionPull";
import { readRegion, type LoadedProfile, type RegionContents } from "../../../inspect/regionReport";
import type { PayloadJson } from "../../../save/payloadJson";
import { shortPath } from "../packageRoot";
import type { BoardConsole } from "../serial/boardConsole";
import { boardLine, identifyBoard, misfitText } from "../serial/identifyBoard";
import { CutError, RESET_IS_NOT_POWER_LOSS, type PowerCut } from "./powerCuts";
import { checkReadBack, parseSoakLines, PET_STATUS, PROBE, savingProgram, STOP_SAVING, type ConfirmedSave } from "./soakProtocol";

export interface SoakOptions {
  rounds: number;
  /** Milliseconds between two saves on the board. */
  intervalMs: number;
  /** The cut comes at a random instant within this many ms after the round's first confirmed save. */
  windowMs: number;
  seed: number;
  /** The board's profile, a device profile: the board must fit it, and its region is read. */
  board: LoadedProfile;
  /** Opens the board's console (again after a cut: the port may have come back under a new name). */
  connect(): Promise<BoardConsole>;
  cut: PowerCut;
  /** Progress for the person, one line at a time. */
  say(line: string): void;
}

export interface RoundResult {
  round: number;
  confirmedSaves: number;
  /** The last confirmed save's counters (this round's, or the one before when none was confirmed). */
  lastConfirmed: { updateCount: string; elapsedMs: string } | null;
  /** When the cut came, in ms after the round's first confirmed save. */
  cutAfterMs: number;
  backAfterMs: number;
  readBack: { updateCount: string; elapsedMs: string } | null;
  lostSaves: number;
  held: boolean;
  failedSaves: string[];
}

export interface SoakReport {
  rounds: number;
  confirmedSaves: number;
  lostSaves: number;
  problems: string[];
  durationMs: number;
  seed: number;
  cut: string;
  /** False for a reset: then the run proves less (RESET_IS_NOT_POWER_LOSS). */
  cutsFlashPower: boolean;
  note: string | null;
  pet: { name: string; nameHex: string } | null;
  /** What the board says it is: process.env.BOARD and VERSION (LINUX_ESP32 for the interpreter, not a board). */
  boardInfo: { board: string; version: string } | null;
  roundResults: RoundResult[];
}

/** A board the soak cannot work with at all (one the profile does not fit, no pet, nothing to protect): the run stops at once. */
export class SoakSetupError extends Error {}

/** How long an evaluation may take when nothing else is said. */
const EVALUATE_MS = 10_000;

/**
 * A probe unanswered this long is sent again (a board still booting, a console reconnecting). Not
 * shorter: Espruino 2v06 on the emulated ESP32 answers a line in 0.6 s when idle and later while the
 * pet starts, and at 0.4 s every probe there was given up just before its answer came, so the soak
 * waited out its 60 s and called a board that was back "not answering".
 */
const PROBE_MS = 3000;
const FIRST_SAVE_MS = 20_000;
/** A board still running the round's interval this long after a reset or command did not restart. */
const NOT_RESTARTED_MS = 15_000;

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function counters(s: PayloadJson | null): { updateCount: string; elapsedMs: string } | null {
  return s === null ? null : { updateCount: s.updateCount, elapsedMs: s.elapsedMs };
}

/** Evaluates `expr` on the board (the protocol's evaluation); its value, or an Error naming the expression. */
function evaluate<T>(con: BoardConsole, expr: string, ms = EVALUATE_MS): Promise<T> {
  return evaluateOver<T>(con.exchange, expr, expr.length > 60 ? expr.slice(0, 57) + "..." : expr, ms);
}

/**
 * The region as the slot log sees it, read in one synchronous program (no save falls inside it):
 * every sector's header, and whole the sectors whose header is not erased (logPullProgram), which
 * is everything the next boot's restore reads. A sector holds 48 saves, so a soak's rounds fill few:
 * reading those alone is what keeps a round short on a slow console or chip (the whole 64 KiB took
 * 70 s on the emulated ESP32; about 10 s at 115200 baud on a board). The running pet's status is
 * asked in the same breath, typed behind the read (the board runs it once the read has printed its
 * last line): one wait for the console instead of two, which on the emulated ESP32, whose console
 * takes 0.6 s to pass on a line, is most of what a question costs.
 */
async function readBoardRegion(con: BoardConsole, board: LoadedProfile, then = ""): Promise<{ region: RegionContents; live: PayloadJson | null }> {
  const r = board.profile.petRegion;
  // `then` (the next round's saving program) runs after the status is taken, in the same line.
  const expr = then === "" ? PET_STATUS : "[" + PET_STATUS + "," + then + "][0]";
  const { image, value } = await pullThenEvaluate(con.exchange, logPullProgram(r.address, r.size, r.pageSize), r.size, expr, EVALUATE_MS);
  return { region: readRegion(image, board), live: value as PayloadJson | null };
}

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const started = Date.now();
  const random = createPrng(o.seed);
  const report: SoakReport = {
    rounds: 0,
    confirmedSaves: 0,
    lostSaves: 0,
    problems: [],
    durationMs: 0,
    seed: o.seed,
    cut: o.cut.kind,
    cutsFlashPower: o.cut.cutsFlashPower,
    note: o.cut.cutsFlashPower ? null : RESET_IS_NOT_POWER_LOSS,
    pet: null,
    boardInfo: null,
    roundResults: [],
  };
  let roundLines: string[] = [];
  let con = await o.connect();
  const listen = (c: BoardConsole): void => c.onLine((line) => roundLines.push(line));
  listen(con);

  try {
    // The fit rule first, before anything is read or run: a board the profile does not fit is refused at once.
    const { report: seen, fit } = await identifyBoard(con, o.board.profile as DeviceBoardProfile, shortPath(o.board.file));
    if (!fit.fits) throw new SoakSetupError(misfitText(con.port, seen, fit, shortPath(o.board.file)) + " Nothing was read or written.");
    report.boardInfo = { board: seen.board, version: seen.version };
    o.say("board: " + boardLine(seen) + " at " + con.port + ": fits " + shortPath(o.board.file));
    const probe = await evaluate<{ pet: boolean; soak: boolean }>(con, PROBE);
    if (!probe.pet) throw new SoakSetupError("the board at " + con.port + " has no pet console: the pet firmware is not running on it (upload it with npm run upload)");
    if (probe.soak) await evaluate(con, STOP_SAVING); // left running by a soak that was interrupted
    const { region, live } = await readBoardRegion(con, o.board);
    if (region.current.status !== "ok" || region.current.payload === null || live === null) {
      throw new SoakSetupError(
        "the board's pet region holds no readable save (" + region.current.status + ": " + region.current.message + "); " +
          "the soak needs a pet that saves (pet.status() and pet.save() on the console say more)",
      );
    }
    report.pet = { name: live.name, nameHex: live.nameHex };
    o.say("pet: " + live.name + ", updates " + live.updateCount + "; the region's newest save is sector " + region.current.sector + " slot " + region.current.slot);
    let lastConfirmed: ConfirmedSave = { round: 0, n: 0, status: live };
    // The baseline is what the region holds, not the live pet (which may be ahead of its last save).
    const baseline = checkReadBack(region, [], live, live.nameHex);
    if (baseline.readBack !== null) lastConfirmed = { round: 0, n: 0, status: baseline.readBack };

    let saving = false;
    for (let round = 1; round <= o.rounds; round++) {
      // A round that cannot finish (the board stopped answering mid-read, say) ends the run with
      // what it found; a cut that cannot be made at all is the caller's (CutError).
      try {
        // The round's saves start here, or started already in the same line as the last round's read.
        if (!saving) {
          roundLines = [];
          await evaluate(con, savingProgram(round, o.intervalMs));
        }
        saving = false;
        const firstBy = Date.now() + FIRST_SAVE_MS;
        while (parseSoakLines(roundLines, round).saves.length === 0 && Date.now() < firstBy && con.isOpen) await sleep(20);
        const delay = random() % Math.max(1, o.windowMs);
        await sleep(delay);
        const cutAt = Date.now();
        try {
          await o.cut.cut(con, o.say, round);
        } catch (e) {
          if (con.isOpen) await evaluate(con, STOP_SAVING).catch(() => undefined);
          throw e;
        }
        // Back: the board answers and runs no soak interval any more (it restarted).
        const backBy = Date.now() + o.cut.backWithinMs;
        const stillRunningBy = Date.now() + NOT_RESTARTED_MS;
        let back = false;
        while (!back) {
          if (Date.now() > backBy) {
            report.problems.push("round " + round + ": the board did not answer within " + o.cut.backWithinMs / 1000 + " s of the cut");
            break;
          }
          if (!con.isOpen) {
            try {
              con = await o.connect();
              listen(con);
            } catch {
              await sleep(500);
              continue;
            }
          }
          let p: { pet: boolean; soak: boolean };
          try {
            p = await evaluate<{ pet: boolean; soak: boolean }>(con, PROBE, PROBE_MS);
          } catch {
            await sleep(200);
            continue;
          }
          if (p.soak && o.cut.kind !== "manual" && Date.now() > stillRunningBy) {
            await evaluate(con, STOP_SAVING).catch(() => undefined);
            throw new CutError(
              "round " + round + ": the board kept running through the cut: it never restarted" +
                (o.cut.kind === "rts" ? " (is RTS wired to EN on this board? If not, use --cut-with CMD or --manual)" : ""),
            );
          }
          if (!p.soak && p.pet) back = true;
          else await sleep(300);
        }
        const backAfterMs = Date.now() - cutAt;
        const { saves, failures } = parseSoakLines(roundLines, round);
        report.rounds = round;
        report.confirmedSaves += saves.length;
        for (const f of failures.slice(0, 3)) report.problems.push("round " + round + ": a save failed on the board: " + f);
        if (saves.length === 0 && failures.length === 0) report.problems.push("round " + round + ": the board confirmed no save before the cut (none within " + FIRST_SAVE_MS / 1000 + " s)");
        if (!back) break;
        // The region read, the pet's status and the next round's saving program, in one exchange: on
        // the emulated ESP32 each line typed costs 0.6 s before the board starts on it.
        const next = round < o.rounds ? savingProgram(round + 1, o.intervalMs) : "";
        roundLines = [];
        saving = next !== "";
        const { region, live } = await readBoardRegion(con, o.board, next);
        const check = checkReadBack(region, [lastConfirmed, ...saves], live, report.pet.nameHex);
        const confirmedNow = saves.length > 0 ? (saves[saves.length - 1] as ConfirmedSave) : lastConfirmed;
        report.lostSaves += check.lost;
        for (const p of check.problems) report.problems.push("round " + round + ": " + p);
        report.roundResults.push({
          round,
          confirmedSaves: saves.length,
          lastConfirmed: counters(confirmedNow.status),
          cutAfterMs: delay,
          backAfterMs,
          readBack: counters(check.readBack),
          lostSaves: check.lost,
          held: check.held,
          failedSaves: failures,
        });
        o.say(
          "round " + round + "/" + o.rounds + ": " + saves.length + " saves confirmed, cut " + delay + " ms after the first; back after " +
            (backAfterMs / 1000).toFixed(1) + " s: " + (check.readBack ? check.readBack.name + ", updates " + check.readBack.updateCount : "no pet") +
            " (last confirmed: updates " + confirmedNow.status.updateCount + "): " + (check.held ? "held" : "NOT HELD: " + check.problems.join("; ")),
        );
        lastConfirmed = confirmedNow;
      } catch (e) {
        // The next round's saving may have started in the line that failed: the board is left quiet.
        if (saving && con.isOpen) await evaluate(con, STOP_SAVING).catch(() => undefined);
        if (e instanceof CutError) throw e;
        report.rounds = round;
        report.problems.push("round " + round + ": " + (e instanceof Error ? e.message : String(e)));
        break;
      }
    }
  } finally {
    report.durationMs = Date.now() - started;
    await con.close().catch(() => undefined);
  }
  return report;
}
