/**
 * `npm run upload` (or `-- --port /dev/ttyUSB0`, `--port tcp://HOST:PORT`): asks the board what it is
 * and refuses one the board profile in env BOARD (default boards/esp32.json) does not fit, then
 * builds the firmware for that profile, checks the bundle, and uploads it with the espruino tool into
 * Storage as .bootcde so it runs at every boot. 115200 baud, no Bluetooth, no network access. Exits
 * when done; `--monitor` stays in a terminal on the port afterwards. `--help` lists the options.
 *
 * Without --port it uses the one ESP32 board plugged in (../serial/serialPorts.ts says how it
 * tells); a named port that exists is used even when the espruino tool does not list it.
 *
 * Before a byte of the bundle is sent, the board must answer within 3 s (../serial/boardConsole.ts
 * opens the port itself) what it is: process.env BOARD and VERSION, its free flash and the page of
 * the pet region's last byte, judged by src/boards/boardFit.ts, the rule the web page, board-check
 * and the firmware also follow. The espruino tool's own output stays out unless --verbose; its
 * failures, a crash included, are one line naming the cause and what to do.
 *
 * The firmware build is build tooling (scripts/lib/build.js), above everything in src/: the entry
 * (scripts/upload.js) hands it in as `FirmwareTools`, so this module runs compiled like pet-save.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import type { BoardProfile, DeviceBoardProfile } from "../../../boards/boardProfile";
import { packageRoot, packageVersion, shortPath } from "../packageRoot";
import { PROCESS_IO, type CommandIo } from "../commandIo";
import { profileFileFromEnv, readProfileFile } from "../profileFile";
import { ConsoleError, openBoardConsole } from "../serial/boardConsole";
import { boardLine, identifyBoard } from "../serial/identifyBoard";
import { formatPortList, listSerialPorts, PortError, resolveBoardPort } from "../serial/serialPorts";
import { BOOT_FILE, cliSpawn, DEFAULT_BAUD, monitorArgs, runEspruinoCli, uploadArgs, uploadTrouble, writeUploaderBoard } from "./espruinoTool";

const PROGRAM = "npm run upload";

/** What the firmware build gives the upload. */
export interface BuiltFirmware {
  /** Where the bundle was written. */
  outFile: string;
  /** Its size in bytes. */
  bytes: number;
  /** The profile's name, and the profile file it was built for. */
  profileName: string;
  board: string;
}

/** The build tooling the entry hands in (scripts/lib/build.js and bundleCheck.js). */
export interface FirmwareTools {
  /**
   * Builds the firmware for `board` (into `outFile`, default dist/firmware.js; `entry`, default the
   * firmware's own) and checks the bundle; throws an Error saying why it cannot go to a board.
   */
  build(o: { board: string; outFile?: string; entry?: string }): Promise<BuiltFirmware>;
}

const HELP = `usage: npm run upload -- [options]

Asks the board what it is (process.env BOARD and VERSION, its free flash) and refuses one the board
profile does not fit, then builds the firmware for that profile and uploads it into Storage
${BOOT_FILE}, which Espruino runs at every boot. Only Storage is written: the pet's own flash region
keeps the pet across uploads.

options:
  -p, --port P       the board's port: a serial device (/dev/ttyUSB0, COM3) or tcp://HOST:PORT;
                     without it, the one ESP32 board plugged in
  -b, --baud N       serial speed (default ${DEFAULT_BAUD})
      --list         print the serial ports and what is known of each, and exit
      --dry-run      write what would be sent to a file instead of talking to a board
      --out FILE     the dry run's file (default dist/upload.js)
      --bundle FILE  where the built bundle goes (default dist/firmware.js)
      --entry FILE   bundle another entry module (the bench's probes; default src/host/espruino/main.ts)
      --monitor      stay in a terminal on the port after the upload (Ctrl-C twice to leave)
  -v, --verbose      show everything the espruino tool prints
  -h, --help         this help
      --version      print the version

environment:
  BOARD=FILE         the board profile (default boards/esp32.json)

examples:
  npm run upload
  npm run upload -- --port /dev/ttyUSB0 --monitor
  BOARD=boards/linux-esp32.json npm run upload -- --port tcp://127.0.0.1:2323

exit status:
  0  uploaded (with --dry-run: written; with --list: listed)
  1  not uploaded: no board found, a board that did not answer, a board the profile does not fit
     (nothing was sent), a bundle that fails its checks, or an upload that failed
  2  usage: an unknown option or a bad value
`;

/** A mistake in the command line: status 2, with the usage. */
class UsageError extends Error {}

interface Options {
  port: string | null;
  list: boolean;
  dryRun: boolean;
  out: string | null;
  bundle: string | undefined;
  entry: string | undefined;
  baud: number;
  monitor: boolean;
  verbose: boolean;
  help: boolean;
  version: boolean;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { port: null, list: false, dryRun: false, out: null, bundle: undefined, entry: undefined, baud: DEFAULT_BAUD, monitor: false, verbose: false, help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(a + " needs a value");
      return v;
    };
    if (a === "--port" || a === "-p") opts.port = value();
    else if (a === "--list") opts.list = true;
    else if (a === "--dry-run") opts.dryRun = true;
    else if (a === "--out") opts.out = value();
    else if (a === "--bundle") opts.bundle = resolve(value());
    else if (a === "--entry") opts.entry = resolve(value());
    else if (a === "--baud" || a === "-b") {
      opts.baud = Number(value());
      if (!Number.isInteger(opts.baud) || opts.baud <= 0) throw new UsageError("--baud needs a positive whole number");
    } else if (a === "--monitor") opts.monitor = true;
    else if (a === "--verbose" || a === "-v") opts.verbose = true;
    else if (a === "--help" || a === "-h") opts.help = true;
    else if (a === "--version") opts.version = true;
    else throw new UsageError("unknown option " + a);
  }
  if (opts.dryRun && opts.monitor) throw new UsageError("--monitor needs a board, not --dry-run");
  return opts;
}



/**
 * Asks the board at `port` what it is and refuses one `profile` does not fit, before anything of
 * the pet is built or sent. Returns the line saying what it is.
 */
export async function checkBoard(port: string, profile: BoardProfile, file: string, baud = DEFAULT_BAUD): Promise<string> {
  if (profile.host === "desktop") throw new Error(shortPath(file) + " is a simulator's profile (host desktop): there is no board to upload it to; use BOARD=boards/esp32.json");
  const con = await openBoardConsole(port, { baud });
  let identified;
  try {
    identified = await identifyBoard(con, profile as DeviceBoardProfile, shortPath(file));
  } finally {
    await con.close();
  }
  const { report, fit } = identified;
  if (!fit.fits) {
    const p = fit.problems[0]!;
    throw new Error(
      "the board at " + port + " (" + boardLine(report) + ") does not fit " + shortPath(file) + ": " + p.message + ". " + p.todo.charAt(0).toUpperCase() + p.todo.slice(1) +
        ". Nothing was sent.",
    );
  }
  const r = fit.region;
  return boardLine(report) + " at " + port + ": fits " + shortPath(file) + " (pet region 0x" + r.address.toString(16) + ", " + r.size + " bytes, in free flash, outside Storage)";
}

/**
 * Sends the built bundle `bundleFile` to the board at `port` into Storage .bootcde with the espruino
 * tool, telling `say` how it goes and what the board printed; throws an Error in one line when it
 * did not go through (its message says why, without "upload failed"). `boardJson` is the tool's board description (written for the call without it).
 */
export async function sendBundle(
  port: string,
  bundleFile: string,
  say: (line: string) => void,
  { baud = DEFAULT_BAUD, verbose = false, boardJson }: { baud?: number; verbose?: boolean; boardJson?: string } = {},
): Promise<void> {
  const own = boardJson === undefined ? writeUploaderBoard() : null;
  try {
    say("uploading to " + port + (port.startsWith("tcp://") ? "" : " at " + baud + " baud") + " into Storage " + BOOT_FILE + " (runs at every boot)...");
    const r = await runEspruinoCli(uploadArgs({ bundleFile, boardJson: own !== null ? own.file : (boardJson as string), port, baud }), {
      echo: verbose,
      port,
      // Prints the upload's progress as the shim reports it: one line per fifth.
      onProgress: verbose ? undefined : (sent, total) => say("  sent " + Math.round((100 * sent) / total) + "% (" + sent + " of " + total + " bytes)"),
    });
    const trouble = uploadTrouble(r, port);
    if (trouble) throw new Error(trouble);
    say("uploaded; the board restarted from " + BOOT_FILE + ". Board output during the upload:");
    // Prompts alone (">") say nothing to a person; everything else the board printed is shown.
    for (const line of r.output.split("\n")) if (line.startsWith("--] ") && !/^\s*>?\s*$/.test(line.slice(4))) say("  " + line.slice(4));
  } finally {
    if (own !== null) own.cleanup();
  }
}

async function run(argv: string[], tools: FirmwareTools, io: CommandIo): Promise<void> {
  const say = (line: string): void => io.out(line + "\n");
  const opts = parseArgs(argv);
  if (opts.help) return io.out(HELP);
  if (opts.version) return say(PROGRAM + " " + packageVersion());
  if (opts.list) {
    say("serial ports (path, USB vendor:product, maker and product):\n" + formatPortList((await listSerialPorts()).ports));
    return;
  }
  const boardFile = profileFileFromEnv();
  let port = "";
  // Find the board and ask it what it is before building, so a missing or wrong board costs no build time.
  if (!opts.dryRun) {
    const found = await resolveBoardPort(opts.port);
    for (const line of found.lines) say(line);
    port = found.path;
    say(await checkBoard(port, readProfileFile(boardFile), boardFile, opts.baud));
  }
  const build = await tools.build({ board: boardFile, outFile: opts.bundle, entry: opts.entry });
  say("built " + shortPath(build.outFile) + ": " + build.bytes + " bytes for " + build.profileName + " (" + shortPath(build.board) + ")");
  const board = writeUploaderBoard();
  try {
    if (opts.dryRun) {
      const out = resolve(opts.out || join(packageRoot(), "dist", "upload.js"));
      const r = await runEspruinoCli(uploadArgs({ bundleFile: build.outFile, boardJson: board.file, outJs: out }), { echo: opts.verbose });
      if (r.code !== 0 || !/Writing output to/.test(r.output)) {
        throw new Error("the espruino tool failed to write " + out + (opts.verbose ? "" : " (run with --verbose to see what it printed)"));
      }
      say("dry run: wrote " + shortPath(out) + " (what would be sent: the bundle into Storage " + BOOT_FILE + ", then load(\"" + BOOT_FILE + "\"))");
      return;
    }
    await sendBundle(port, build.outFile, say, { baud: opts.baud, verbose: opts.verbose, boardJson: board.file });
    if (opts.monitor) {
      say("monitor on " + port + " (Ctrl-C twice to leave)");
      await new Promise((done) => {
        const how = cliSpawn(monitorArgs({ boardJson: board.file, port, baud: opts.baud }), { port, markers: false });
        const child = spawn(how.command, how.args, { stdio: "inherit", env: how.env });
        child.on("close", done);
      });
    }
  } finally {
    board.cleanup();
  }
}

/** The command: answers its exit status (0 uploaded, 1 not, 2 bad usage); every failure is one line. */
export async function uploadMain(argv: string[], tools: FirmwareTools, io: CommandIo = PROCESS_IO): Promise<number> {
  try {
    await run(argv, tools, io);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(PROGRAM + ": " + e.message + "\nusage: npm run upload -- [--port P] [--baud N] [--list] [--dry-run [--out FILE]] [--monitor] [--verbose] (--help for more)\n");
      return 2;
    }
    const message = e instanceof PortError || e instanceof ConsoleError || e instanceof Error ? e.message : String(e);
    io.err("upload failed: " + message + "\n");
    return 1;
  }
}
