/**
 * `npm run soak`: power cuts on a board that keeps saving, round after round, and a check after each
 * that no confirmed save was lost (docs/board.md, "Cut the power, many times"). This file is the
 * command line: options, the board (a serial port as `npm run upload` picks it, a tcp:// console, or
 * Espruino's Linux build with --espruino), the way the power is cut, and the report. The rounds are
 * soakRun.ts.
 *
 * Exit status: 0 when every round held, 1 when a save was lost or anything else went wrong in a
 * round, 2 for bad usage or a board the soak cannot work with.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { deviceProfile, loadProfile, profileFileFor, type LoadedDeviceProfile } from "../boardProfiles";
import { interpreterProfile } from "../interpreter/espruinoLinux";
import { startInterpreterBoard } from "../interpreter/interpreterBoard";
import { packageVersion } from "../packageRoot";
import { PROCESS_IO, type CommandIo } from "../commandIo";
import { PortError, resolveBoardPort } from "../serial/serialPorts";
import { BAUD, command } from "../../../boards/consoleProtocol";
import { openBoardConsole, tcpAddress, type BoardConsole } from "../serial/boardConsole";
import { commandCut, CutError, killCut, manualCut, RESET_IS_NOT_POWER_LOSS, rtsCut, type PowerCut } from "./powerCuts";
import { STOP_SAVING } from "./soakProtocol";
import { runSoak, SoakSetupError, type SoakReport } from "./soakRun";

export const USAGE =
  "usage: npm run soak -- [--port P] [--rounds N] [--cut-with CMD | --manual] [--board FILE] [--interval MS] [--window MS] [--seed N] [--baud N] [--json]\n" +
  "       npm run soak -- --espruino PATH [--dir DIR] [--rounds N] [--interval MS] [--window MS] [--seed N] [--json]";

const PROGRAM = "npm run soak";

/** --help: what it does, every option, examples and the exit statuses (docs/board.md says more). */
export const HELP =
  USAGE +
  `

Cuts the power of a board that keeps saving its pet, round after round, and checks after each cut
that the pet that comes back holds every save the board confirmed. The pet firmware must be running
on the board (npm run upload). Only the pet's region is read; nothing is written but the pet's saves.

options:
  -p, --port P      the board's port: a serial device (/dev/ttyUSB0, COM3) or tcp://HOST:PORT;
                    without it, the one ESP32 board plugged in
      --cut-with CMD  cut the power by running CMD (through the shell), which must take the power
                    away and give it back before it exits: the real test
      --manual      you unplug the board when told, and plug it back: the real test, by hand
                    (without either, the board is reset through RTS: a reset, not a power cut)
      --espruino PATH  run the rounds on Espruino's Linux build at PATH instead of a board, cut by
                    killing it (SIGKILL) and starting it again on the same flash file
      --dir DIR     with --espruino: where the interpreter runs and keeps its flash file (default: a
                    temporary directory, removed at the end)
      --rounds N    how many cuts (default 20)
      --board FILE  the board profile: the board must fit it, and its region is read (default:
                    env BOARD, else boards/esp32.json; with --espruino, else the profile for that
                    build)
      --interval MS  between two saves on the board (default 50)
      --window MS   the cut comes within this long after a round's first confirmed save (default 3000)
      --seed N      the random instants; printed at the start so a run can be repeated
  -b, --baud N      serial speed (default ${BAUD})
      --json        print one JSON object on stdout (rounds, confirmedSaves, lostSaves, problems,
                    cut, cutsFlashPower, roundResults, ...); the progress goes to stderr
  -h, --help        this help
      --version     print the version

examples:
  npm run soak
  npm run soak -- --port /dev/ttyUSB0 --cut-with "uhubctl -l 1-1 -p 2 -a cycle -d 2"
  npm run soak -- --manual --rounds 5
  npm run soak -- --espruino $(../shared/espruino/build.sh | tail -1) --rounds 10

exit status:
  0  every round held: no confirmed save was lost
  1  a save was lost, or a round went wrong (a save failed on the board, it did not come back)
  2  usage, or the soak could not start or cut at all (no board, a board the profile does not
     fit, no pet running, a bad profile, a board that kept running through an RTS "cut"); the
     message says why
`;

export const EXIT_HELD = 0;
export const EXIT_LOST = 1;
export const EXIT_USAGE = 2;

/**
 * What the soak needs from the build tooling (scripts/lib/build.js), which its entry (scripts/soak.js)
 * hands in: src/ imports nothing from scripts/.
 */
export interface SoakTools {
  /** Builds the firmware for the profile file `profile` into `dir` and checks it; answers the bundle's path. */
  firmwareFor?(profile: string, dir: string): Promise<string>;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? s + " s" : Math.floor(s / 60) + " min " + (s % 60) + " s";
}

function positiveInt(name: string, v: string | undefined, dflt: number, min = 1): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error("--" + name + " takes a whole number of at least " + min + ", got " + v);
  return n;
}

/** Where the soak runs and how it cuts; `close` undoes what was set up. */
interface Target {
  describe: string;
  board: LoadedDeviceProfile;
  connect(): Promise<BoardConsole>;
  cut: PowerCut;
  close(): Promise<void>;
}

async function interpreterTarget(
  binary: string,
  dirOption: string | undefined,
  boardOption: string | undefined,
  say: (l: string) => void,
  tools: SoakTools,
): Promise<Target> {
  const firmwareFor = tools.firmwareFor;
  if (firmwareFor === undefined) throw new SoakSetupError("--espruino builds the firmware, which only `npm run soak` (scripts/soak.js) can do");
  // The profile named (--board, else env BOARD), else the one for the interpreter's own build.
  const profile = boardOption !== undefined || process.env.BOARD ? profileFileFor(boardOption) : await interpreterProfile(binary);
  const board = deviceProfile(loadProfile(profile), "soak");
  const dir = dirOption ? resolve(dirOption) : mkdtempSync(join(tmpdir(), "pet-soak-"));
  const ib = await startInterpreterBoard(binary, dir);
  const close = async (): Promise<void> => {
    await ib.stop();
    if (!dirOption) rmSync(dir, { recursive: true, force: true });
  };
  say("Espruino's Linux build " + binary + " in " + dir + ": uploading the firmware for " + board.profile.name + " (" + profile + ")");
  let up: { code: number; out: string };
  try {
    up = await ib.upload(await firmwareFor(profile, dir), profile);
  } catch (e) {
    up = { code: 1, out: e instanceof Error ? e.message : String(e) };
  }
  if (up.code !== 0) {
    await close();
    throw new SoakSetupError("the upload to the interpreter failed:\n" + up.out.trim().split("\n").slice(-5).join("\n"));
  }
  return {
    describe: "Espruino's Linux build (" + binary + "), not a board",
    board,
    connect: () => openBoardConsole("tcp://127.0.0.1:" + ib.port),
    cut: killCut(() => ib.powerCut()),
    close,
  };
}

async function portTarget(named: string | undefined, cut: PowerCut, baud: number, boardOption: string | undefined, say: (l: string) => void): Promise<Target> {
  const find = async (): Promise<string> => {
    try {
      return (await resolveBoardPort(named)).path;
    } catch (e) {
      if (e instanceof PortError) throw new SoakSetupError(e.message);
      throw e;
    }
  };
  let first: { path: string; lines: string[] };
  try {
    first = await resolveBoardPort(named);
  } catch (e) {
    if (e instanceof PortError) throw new SoakSetupError(e.message);
    throw e;
  }
  for (const l of first.lines) say(l);
  const board = deviceProfile(loadProfile(profileFileFor(boardOption)), "soak");
  const tcp = tcpAddress(first.path);
  if (first.path.startsWith("tcp://") && tcp === null) throw new SoakSetupError("a tcp port is tcp://HOST:PORT, got " + first.path);
  if (tcp !== null && cut.kind === "rts") {
    throw new SoakSetupError("a tcp:// console has no RTS line to reset the board with: cut the power with --cut-with CMD or --manual");
  }
  return {
    describe: first.path,
    board,
    // An unplugged board may come back under another name: without --port it is looked for again.
    connect: async () => openBoardConsole(tcp !== null || named ? first.path : await find(), { baud }),
    cut,
    close: async () => undefined,
  };
}

export function formatSummary(r: SoakReport): string {
  return (
    "summary: " + r.rounds + " rounds, " + r.confirmedSaves + " confirmed saves, " + r.lostSaves + " lost saves (must be 0), " +
    r.problems.length + " problems, " + duration(r.durationMs)
  );
}

export async function soakMain(
  argv: string[],
  io: CommandIo = PROCESS_IO,
  tools: SoakTools = {},
): Promise<number> {
  let v: { [k: string]: string | boolean | undefined };
  let rounds: number, intervalMs: number, windowMs: number, seed: number, baud: number;
  try {
    v = parseArgs({
      args: argv,
      options: {
        port: { type: "string", short: "p" },
        rounds: { type: "string" },
        "cut-with": { type: "string" },
        manual: { type: "boolean" },
        espruino: { type: "string" },
        dir: { type: "string" },
        board: { type: "string" },
        interval: { type: "string" },
        window: { type: "string" },
        seed: { type: "string" },
        baud: { type: "string", short: "b" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
      strict: true,
    }).values;
    rounds = positiveInt("rounds", v.rounds as string | undefined, 20);
    intervalMs = positiveInt("interval", v.interval as string | undefined, 50);
    windowMs = positiveInt("window", v.window as string | undefined, 3000);
    seed = positiveInt("seed", v.seed as string | undefined, (Date.now() % 2147483647) + 1);
    baud = positiveInt("baud", v.baud as string | undefined, BAUD);
    if (v["cut-with"] !== undefined && v.manual) throw new Error("--cut-with and --manual are two ways to cut: choose one");
    if (v.espruino !== undefined && (v.port !== undefined || v["cut-with"] !== undefined || v.manual || v.baud !== undefined)) {
      throw new Error("--espruino runs the interpreter and cuts it itself: it takes none of --port, --cut-with, --manual, --baud");
    }
    if (v.dir !== undefined && v.espruino === undefined) throw new Error("--dir goes with --espruino");
    if (v["cut-with"] === "") throw new Error("--cut-with needs a command");
  } catch (e) {
    io.err((e instanceof Error ? e.message : String(e)) + "\n" + USAGE + "\n");
    return EXIT_USAGE;
  }
  if (v.help) {
    io.out(HELP);
    return EXIT_HELD;
  }
  if (v.version) {
    io.out(PROGRAM + " " + packageVersion() + "\n");
    return EXIT_HELD;
  }
  const json = v.json === true;
  const say = (line: string): void => (json ? io.err(line + "\n") : io.out(line + "\n"));

  let target: Target | null = null;
  let current: BoardConsole | null = null;
  const onInterrupt = (): void => {
    // Leave no board saving every few milliseconds: stop the round's interval, then go.
    if (current !== null && current.isOpen) void current.send(command(STOP_SAVING));
    setTimeout(() => process.exit(130), 300);
  };
  process.once("SIGINT", onInterrupt);
  try {
    if (typeof v.espruino === "string") target = await interpreterTarget(v.espruino, v.dir as string | undefined, v.board as string | undefined, say, tools);
    else {
      const cut = typeof v["cut-with"] === "string" ? commandCut(v["cut-with"]) : v.manual ? manualCut() : rtsCut();
      target = await portTarget(v.port as string | undefined, cut, baud, v.board as string | undefined, say);
    }
    const t = target;
    say("soak: " + rounds + " rounds on " + t.describe + "; the power is cut by " + t.cut.describe + "; seed " + seed);
    if (!t.cut.cutsFlashPower) say("note: " + RESET_IS_NOT_POWER_LOSS);
    const report = await runSoak({
      rounds,
      intervalMs,
      windowMs,
      seed,
      board: t.board,
      connect: async () => (current = await t.connect()),
      cut: t.cut,
      say,
    });
    say(formatSummary(report));
    if (!report.cutsFlashPower) say("note: these were resets, not power cuts (see the note above)");
    for (const p of report.problems) say("problem: " + p);
    if (json) io.out(JSON.stringify({ ...report, target: t.describe, board: t.board.profile.name }, null, 2) + "\n");
    return report.lostSaves > 0 || report.problems.length > 0 ? EXIT_LOST : EXIT_HELD;
  } catch (e) {
    // A board the soak cannot work with (no port, no pet, a cut that cannot be made, a bad profile).
    if (e instanceof SoakSetupError || e instanceof CutError || e instanceof Error) {
      io.err("soak: " + e.message + "\n");
      return EXIT_USAGE;
    }
    throw e;
  } finally {
    process.removeListener("SIGINT", onInterrupt);
    if (target !== null) await target.close().catch(() => undefined);
  }
}
