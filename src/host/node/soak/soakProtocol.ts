/**
 * What the soak (`npm run soak`, docs/board.md, "Cut the power, many times") asks of a board running
 * the pet, and how it judges what comes back. Host-neutral and free of I/O, so the tests check the
 * judging directly.
 *
 * The board is driven through its Espruino console with what the firmware already offers (the
 * `pet` console object, require("Flash")); nothing of the firmware changes for the soak:
 *
 * - while a round runs, an interval calls `pet.save()` and, after every "ok", prints one line
 *   `SOAKSAVE <round> <n> <pet.status() as JSON>`: a confirmed save, and exactly the world that
 *   was written (status() right after save() shows the saved world and the save's own stamp);
 *   a failed save prints `SOAKFAIL <round> <answer>`. The interval lives in a global, `__soak`,
 *   so a probe tells a board that restarted (no `__soak`) from one the cut missed;
 * - after the cut and the restart, the region is read whole with `pet-save pull`'s program (one
 *   synchronous loop, so no save of the firmware falls in the middle of it) and judged by the same
 *   reader as `pet-save inspect`: the save the next boot restores. Beside it, `pet.status()` says
 *   what the boot did restore.
 */
import { loadWorld } from "../../../save/codec";
import { payloadJson, PAYLOAD_JSON_KEYS, type PayloadJson } from "../../../save/payloadJson";
import type { RegionContents } from "../../../inspect/regionReport";

/** One confirmed save as the board reported it. */
export interface ConfirmedSave {
  round: number;
  n: number;
  status: PayloadJson;
}

/** An expression that starts the interval that saves and reports, every `intervalMs`, for round `round`. */
export function savingProgram(round: number, intervalMs: number): string {
  return (
    "(global.__soak={round:" + round + ",n:0,t:setInterval(function(){var x;try{x=pet.save();}catch(e){x=\"error \"+e;}" +
    "if(x===\"ok\")print(\"SOAKSAVE " + round + " \"+(++__soak.n)+\" \"+JSON.stringify(pet.status()));" +
    "else print(\"SOAKFAIL " + round + " \"+x);}," + intervalMs + ")},1)"
  );
}

/** An expression whose value says whether the pet runs and whether the soak's interval does (false after a restart). */
export const PROBE = '({pet:typeof pet==="object"&&pet!==null&&typeof pet.save==="function",soak:typeof __soak==="object"})';

/** Stops the saving interval (used when a cut fails, so the board is not left saving). */
export const STOP_SAVING = '(typeof __soak==="object"?(clearInterval(__soak.t),delete global.__soak,1):0)';

/** The board's pet as status() shows it, or null when it has no pet console. */
export const PET_STATUS = '(typeof pet==="object"&&pet?pet.status():null)';

const SAVE_LINE = /SOAKSAVE (\d+) (\d+) (\{[^\r\n]*\})\r?$/;
const FAIL_LINE = /SOAKFAIL (\d+) ([^\r\n]*?)\r?$/;

/**
 * The confirmed saves and failures among complete console lines (a line cut short by the power
 * cut does not parse as JSON and does not count). Lines of other rounds are left out.
 */
export function parseSoakLines(lines: string[], round: number): { saves: ConfirmedSave[]; failures: string[] } {
  const saves: ConfirmedSave[] = [];
  const failures: string[] = [];
  for (const line of lines) {
    const m = SAVE_LINE.exec(line);
    if (m && Number(m[1]) === round) {
      try {
        const status = JSON.parse(m[3] as string) as PayloadJson;
        if (typeof status.updateCount === "string" && typeof status.elapsedMs === "string") saves.push({ round, n: Number(m[2]), status });
      } catch {
        // cut off in the middle, or garbled by the restart: not a confirmed save
      }
      continue;
    }
    const f = FAIL_LINE.exec(line);
    if (f && Number(f[1]) === round) failures.push(f[2] as string);
  }
  return { saves, failures };
}

/** a is older than b (by update count, then world clock): decimal strings of any length. */
function older(a: PayloadJson, b: PayloadJson): boolean {
  const cmp = (x: string, y: string): number => (x.length !== y.length ? x.length - y.length : x < y ? -1 : x > y ? 1 : 0);
  const c = cmp(a.updateCount, b.updateCount);
  return c !== 0 ? c < 0 : cmp(a.elapsedMs, b.elapsedMs) < 0;
}

/**
 * The same save: every field of the payload equal, the name by its bytes (nameHex; `name` is text,
 * which on the ESP32 is a string of the UTF-8 bytes and here the decoded name). Only the payload's
 * fields count: pet.status() also says how saving goes (`storage`), which no payload holds.
 */
function sameSave(a: PayloadJson, b: PayloadJson): boolean {
  return PAYLOAD_JSON_KEYS.every((k) => k === "name" || a[k] === b[k]);
}

/** The verdict on what came back after a cut. */
export interface RoundCheck {
  held: boolean;
  /** Confirmed saves the read-back does not hold (0 when it held). */
  lost: number;
  /** What went wrong, one sentence each; empty when it held. */
  problems: string[];
  /** The save the region's next boot restores, as status() would show it; null when there is none. */
  readBack: PayloadJson | null;
}

/**
 * Judges the region read after a cut against the saves confirmed before it (`confirmed`: the last
 * confirmed save of the rounds before, then the round's own, oldest first; the last is the one that
 * must not be lost) and
 * the pet the board runs now (`live`). The pet that comes back must be the same pet (the same name
 * bytes), its payload valid, not older than the last confirmed save (by update count, then world
 * clock), and, when it is one of the confirmed saves, equal to it in every field; and no committed
 * slot newer than it may fail to load (nothing mixed).
 * A save newer than the last confirmed one is fine: a save whose report the cut swallowed, or one
 * the firmware made after the restart.
 */
export function checkReadBack(region: RegionContents, confirmed: ConfirmedSave[], live: PayloadJson | null, petNameHex: string): RoundCheck {
  const problems: string[] = [];
  const last = confirmed.length > 0 ? (confirmed[confirmed.length - 1] as ConfirmedSave).status : null;
  const c = region.current;
  if (c.status !== "ok" || c.payload === null) {
    problems.push("the region holds no readable save after the cut (" + c.status + ": " + c.message + ")");
    return { held: false, lost: confirmed.length, problems, readBack: null };
  }
  const loaded = loadWorld(c.payload, 0);
  if (loaded.status !== "ok" || loaded.world === null) {
    problems.push("the save the next boot restores does not load: " + loaded.status);
    return { held: false, lost: confirmed.length, problems, readBack: null };
  }
  const back = payloadJson(loaded.world, loaded.savedAt);
  let lost = 0;
  // A committed save is one whose bytes were read back whole before its mark was set: none may fail
  // to load. The boot passing over one is damage or a mixture, whatever it found behind it.
  if (c.checks > 1) {
    problems.push("the newest committed save does not load: the boot passed over " + (c.checks - 1) + " committed slot(s) that fail the check (mixed or damaged bytes)");
  }
  if (back.nameHex !== petNameHex) {
    problems.push("a different pet came back: " + JSON.stringify(back.name) + " (name bytes " + back.nameHex + "), not the pet of the soak (" + petNameHex + ")");
    lost = confirmed.length;
  } else if (last !== null && older(back, last)) {
    lost = confirmed.filter((s) => older(back, s.status)).length;
    problems.push(
      "lost " + lost + " confirmed save(s): the region's newest save has updates " + back.updateCount + ", world clock " + back.elapsedMs +
        " ms; the last confirmed one had updates " + last.updateCount + ", world clock " + last.elapsedMs + " ms",
    );
  } else {
    const twin = confirmed.find((s) => s.status.updateCount === back.updateCount && s.status.elapsedMs === back.elapsedMs);
    if (twin !== undefined && !sameSave(twin.status, back)) {
      problems.push("mixed: the region's newest save matches confirmed save " + twin.n + " of round " + twin.round + " in its counters but not in every field");
      lost = 1;
    }
  }
  if (live === null) problems.push("the board runs no pet after the restart");
  else if (live.nameHex !== back.nameHex || older(live, back)) {
    problems.push("the pet the board restored (" + JSON.stringify(live.name) + ", updates " + live.updateCount + ") is not the region's newest save (updates " + back.updateCount + ")");
  }
  return { held: problems.length === 0, lost, problems, readBack: back };
}
