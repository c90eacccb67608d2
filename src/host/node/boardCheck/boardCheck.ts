/**
 * `npm run board-check [-- --port P] [--json]`: on a board running Espruino, in one run, without a
 * byte written outside the pet's region and leaving the pet as it found it: what the board is against
 * the profile (is the pet region inside its free flash, inside the chip, outside Storage?), the region
 * as `pet-save inspect` shows it, and on-board timings of pet.save(), a restore, pet.status() and an
 * idle tick by the board's own clock, beside the bench's floor run on the same board in the same run.
 * The steps are check.ts; the text, report.ts; docs/board.md says what each result means. Runs
 * compiled as pet-save does (scripts/board-check.js, scripts/lib/hostBuild.js).
 *
 * The board is found as `npm run upload` finds it (without --port, the one ESP32 board plugged in), and
 * talked to over a console connection of our own (src/host/node/serial/boardConsole.ts), the same against a
 * board on a serial port as against Espruino's Linux build through a pseudo-terminal or telnet.
 */
import { BAUD } from "../../../boards/consoleProtocol";
import { ConsoleError, openBoardConsole } from "../serial/boardConsole";
import { PortError, resolveBoardPort } from "../serial/serialPorts";
import { packageVersion, shortPath } from "../packageRoot";
import { PROCESS_IO, type CommandIo } from "../commandIo";
import { deviceProfile, loadProfile, profileFileFor } from "../boardProfiles";
import { checkBoard, RUNS } from "./check";
import { checkText } from "./report";

const PROGRAM = "npm run board-check";

const HELP = `usage: npm run board-check -- [options]

Checks a board running Espruino against the board profile, reads the pet's region, and times the
pet's firmware there by the board's own clock beside a floor run on the same board. Writes nothing
outside the pet's region (no Storage file, no erase) and leaves the pet as it found it: its clock
stays true, and each timed save and tick counts one update, as any save or tick does.

options:
  -p, --port P      the board's port: a serial device (/dev/ttyUSB0, COM3) or tcp://HOST:PORT;
                    without it, the one ESP32 board plugged in
      --board FILE  the board profile (default: env BOARD, else boards/esp32.json)
  -b, --baud N      serial speed (default ${BAUD})
      --runs N      time each operation N times and take the median (default ${RUNS}; fewer is quicker
                    on a slow board or the emulated ESP32, whose milliseconds are not a board's anyway)
      --json        print one JSON object instead of the report: board, version, region {address,
                    size, free, ...}, timings {petSaveMs, floorSaveMs, restoreMs, statusMs, tickMs, ...},
                    ratios, the pet before and after, skipped, failures
  -h, --help        this help
      --version     print the version

examples:
  npm run board-check
  npm run -s board-check -- --port /dev/ttyUSB0 --json > board-check.json

exit status:
  0  the board fits, its region was read, every timing was taken, and the pet is as it was found
  1  something is wrong or could not be checked: no board, a board that did not answer or does not
     fit the profile (its region is then neither read nor written), no pet running, a pet changed
  2  usage: an unknown option or a bad value
`;

class UsageError extends Error {}

interface Options {
  port: string | null;
  board: string | null;
  baud: number;
  json: boolean;
  runs: number;
  help: boolean;
  version: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { port: null, board: null, baud: BAUD, json: false, runs: RUNS, help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(a + " needs a value");
      return v;
    };
    if (a === "--port" || a === "-p") o.port = value();
    else if (a === "--board") o.board = value();
    else if (a === "--baud" || a === "-b") {
      o.baud = Number(value());
      if (!Number.isInteger(o.baud) || o.baud <= 0) throw new UsageError("--baud needs a positive whole number");
    } else if (a === "--runs") {
      o.runs = Number(value());
      if (!Number.isInteger(o.runs) || o.runs < 1 || o.runs > 1000) throw new UsageError("--runs needs a whole number from 1 to 1000");
    } else if (a === "--json") o.json = true;
    else if (a === "--help" || a === "-h") o.help = true;
    else if (a === "--version") o.version = true;
    else throw new UsageError("unknown option " + a);
  }
  return o;
}



async function run(argv: string[], io: CommandIo): Promise<number> {
  const o = parseArgs(argv);
  if (o.help) {
    io.out(HELP);
    return 0;
  }
  if (o.version) {
    io.out(PROGRAM + " " + packageVersion() + "\n");
    return 0;
  }
  const { file, profile } = deviceProfile(loadProfile(profileFileFor(o.board ?? undefined)), "check");
  const tell = (line: string): void => io.err(line + "\n");
  const found = await resolveBoardPort(o.port);
  for (const line of found.lines) tell(line);
  const con = await openBoardConsole(found.path, { baud: o.baud });
  let text: string;
  let ok: boolean;
  try {
    if (!o.json) tell("checking the board at " + found.path + " (reading its region takes about 10 s at " + BAUD + " baud)...");
    const c = await checkBoard(con, profile, shortPath(file), o.runs);
    ok = c.fits && c.failures.length === 0 && c.skipped.length === 0;
    const { report, ...rest } = c;
    text = o.json ? JSON.stringify({ ...rest, reported: report, measuredBy: "the board's own clock (getTime()), median of " + c.timings.runs + " runs each", ok }, null, 2) + "\n" : checkText(c, profile);
  } finally {
    await con.close();
  }
  io.out(text);
  return ok ? 0 : 1;
}

/** The command: answers its exit status (0 all well, 1 something wrong or unchecked, 2 bad usage). */
export async function boardCheckMain(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  try {
    return await run(argv, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(PROGRAM + ": " + e.message + "\nusage: npm run board-check -- [--port P] [--board FILE] [--baud N] [--json] (--help for more)\n");
      return 2;
    }
    const message = e instanceof PortError || e instanceof ConsoleError || e instanceof Error ? e.message : String(e);
    io.err("board-check failed: " + message + "\n");
    return 1;
  }
}
