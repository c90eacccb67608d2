/**
 * `npm run upload` (or `-- --port /dev/ttyUSB0`, `--port tcp://HOST:PORT`): asks the board what it is
 * and refuses one the board profile in env BOARD (default boards/esp32.json) does not fit, then
 * builds the firmware for that profile, checks the bundle, and writes it into Storage as .bootcde so
 * it runs at every boot, through the console protocol every program shares
 * (src/boards/consoleProtocol.ts, bootFileUpload.ts): the running pet saved and paused, the bundle in
 * pieces the board acknowledges one at a time, its CRC-32 compared, `load`, and the pet asked for its
 * status. An Espruino before 2v14 gets the bundle's function form (src/boards/bundleForm.ts).
 *
 * Why not the espruino tool's own upload: it sends Storage.write lines at the line's speed with a
 * fixed 250 ms pause after each (or none over tcp), relying on XON/XOFF, which Espruino does not send
 * on an ESP32's UART console. On Espruino's own ESP32 firmware in the emulated chip, where a piece
 * takes about a second, it overran the console's input ("New interpreter error: FIFO_FULL") and wrote
 * nothing. Acknowledged pieces cannot overrun any console, and the CRC proves what arrived. The
 * espruino tool still serves `--monitor`.
 *
 * Without --port it uses the one ESP32 board plugged in (../serial/serialPorts.ts says how it
 * tells); a named port that exists is used even when no list shows it. Before a byte of the bundle
 * is sent, the board must answer within 3 s (../serial/boardConsole.ts opens the port) what it is:
 * process.env BOARD, VERSION and STORAGE, its free flash and the page of the pet region's last byte,
 * judged by src/boards/boardFit.ts, the rule the web page, board-check and the firmware also follow.
 *
 * The firmware build is build tooling (scripts/lib/build.js), above everything in src/: the entry
 * (scripts/upload.js) hands it in as `FirmwareTools`, so this module runs compiled like pet-save.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { packageRoot, packageVersion, shortPath } from "../packageRoot";
import { PROCESS_IO, type CommandIo } from "../commandIo";
import { deviceProfile, loadProfile, profileFileFor } from "../boardProfiles";
import type { LoadedProfile } from "../../../inspect/regionReport";
import { ConsoleError, openBoardConsole } from "../serial/boardConsole";
import { boardLine, identifyBoard, misfitText } from "../serial/identifyBoard";
import { formatPortList, listSerialPorts, PortError, resolveBoardPort } from "../serial/serialPorts";
import { cliSpawn, monitorArgs, writeUploaderBoard } from "./espruinoTool";
import * as P from "../../../boards/consoleProtocol";
import { ACK_MS, UploadStopped, writeBootFile } from "../../../boards/bootFileUpload";
import { BLOCK_SCOPE_SINCE, BODY_FILE, bundleForVersion, sentBytes, type StorageFile } from "../../../boards/bundleForm";

const BOOT_FILE = P.BOOT_FILE;

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
${BOOT_FILE}, which Espruino runs at every boot: the running pet saves and pauses, the bundle goes in
pieces the board acknowledges one by one (so a console without flow control, such as an ESP32's
UART, is never overrun), its CRC is checked, then it is loaded and the pet must answer. An Espruino
before 2v14 gets the bundle in its function form (its body in Storage ${BODY_FILE}, a short
${BOOT_FILE} that runs it), and each file's CRC is checked; once a board runs 2v14 or later, the
upload erases the ${BODY_FILE} such a form left. Only Storage is written: the pet's own flash region
keeps the pet across uploads.

options:
  -p, --port P       the board's port: a serial device (/dev/ttyUSB0, COM3) or tcp://HOST:PORT;
                     without it, the one ESP32 board plugged in
  -b, --baud N       serial speed (default ${P.BAUD})
      --list         print the serial ports and what is known of each, and exit
      --dry-run      write what would be typed at the console to a file instead of talking to a board
      --out FILE     the dry run's file (default dist/upload.js)
      --for-version V  the dry run's Espruino version (default: a current one; 2v06 writes the
                     function form)
      --bundle FILE  where the built bundle goes (default dist/firmware.js)
      --entry FILE   bundle another entry module (the bench's probes; default src/host/espruino/main.ts)
      --monitor      stay in a terminal on the port after the upload (Ctrl-C twice to leave)
  -v, --verbose      show everything the board printed during the upload
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
  /** The dry run's Espruino version (which form of the bundle it writes); "" for a current one. */
  forVersion: string;
  help: boolean;
  version: boolean;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { port: null, list: false, dryRun: false, out: null, bundle: undefined, entry: undefined, baud: P.BAUD, monitor: false, verbose: false, help: false, version: false, forVersion: "" };
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
    else if (a === "--for-version") {
      opts.forVersion = value();
      if (!/^\d+v\d+/.test(opts.forVersion)) throw new UsageError("--for-version needs an Espruino version such as 2v06");
    }
    else if (a === "--verbose" || a === "-v") opts.verbose = true;
    else if (a === "--help" || a === "-h") opts.help = true;
    else if (a === "--version") opts.version = true;
    else throw new UsageError("unknown option " + a);
  }
  if (opts.dryRun && opts.monitor) throw new UsageError("--monitor needs a board, not --dry-run");
  if (opts.forVersion !== "" && !opts.dryRun) throw new UsageError("--for-version is for --dry-run: a board says its own version");
  return opts;
}



/** What checkBoard found: the line saying what the board is and that it fits, and the version it runs. */
export interface CheckedBoard {
  line: string;
  /** process.env.VERSION: which form of the bundle the board runs (src/boards/bundleForm.ts). */
  version: string;
}

/**
 * Asks the board at `port` what it is and refuses one the profile `loaded` does not fit, before
 * anything of the pet is built or sent.
 */
export async function checkBoard(port: string, loaded: LoadedProfile, baud = P.BAUD): Promise<CheckedBoard> {
  const { file, profile } = deviceProfile(loaded, "upload it to");
  const con = await openBoardConsole(port, { baud });
  let identified;
  try {
    identified = await identifyBoard(con, profile, shortPath(file));
  } finally {
    await con.close();
  }
  const { report, fit } = identified;
  if (!fit.fits) throw new Error(misfitText(port, report, fit, shortPath(file)) + " Nothing was sent.");
  const r = fit.region;
  return {
    line: boardLine(report) + " at " + port + ": fits " + shortPath(file) + " (pet region 0x" + r.address.toString(16) + ", " + r.size + " bytes, in free flash, outside Storage)",
    version: report.version,
  };
}

/** How long a board may take over a piece: ACK_MS, or env PET_UPLOAD_ACK_MS (the tests' hanging console). */
function ackMs(): number {
  const ms = Number(process.env.PET_UPLOAD_ACK_MS);
  return ms > 0 ? ms : ACK_MS;
}

/** How long the board has to answer pet.status() after the load (the emulated ESP32 boots the bundle in seconds). */
const BOOT_MS = 30000;

/** The whole text the upload types, in order (the dry run writes it): the shared protocol's lines for the bundle's `files`, and the erasing of its `stale` ones. */
export function uploadText(files: StorageFile[], stale: readonly string[] = []): string {
  return [P.quietCommand(), ...P.uploadCommands(files).map((s) => s.line), ...files.map((f) => P.crcCommand(f.name)), ...stale.map((n) => P.eraseCommand(n)), P.loadCommand()].join("");
}

/**
 * Sends the block-form bundle `code` to the board at `port`, which reported Espruino `version`, into
 * Storage .bootcde (src/boards/bootFileUpload.ts: the running pet saved and paused, the bundle in
 * acknowledged pieces, its CRC checked), loads it and waits for the pet to answer, telling `say` how
 * it goes. Throws an Error in one line when it did not go through (its message says why, without
 * "upload failed").
 */
export async function sendBundle(port: string, code: string, version: string, say: (line: string) => void, { baud = P.BAUD, verbose = false } = {}): Promise<void> {
  const sent = bundleForVersion(code, version);
  const bytes = sentBytes(sent.files);
  const con = await openBoardConsole(port, { baud });
  try {
    say(
      "uploading to " + port + (port.startsWith("tcp://") ? "" : " at " + baud + " baud") + " into Storage " + BOOT_FILE + " (runs at every boot)" +
        (sent.form === "function" ? ", in the function form Espruino " + version + " needs (it has no block scope: the body in " + BODY_FILE + ")" : "") + "...",
    );
    let told = 0;
    let kept: string[];
    try {
      kept = await writeBootFile(sent.files, con.exchange, ackMs(), (done) => {
        // One line per fifth, as a person wants to see it move.
        const fifth = Math.floor((5 * done) / bytes);
        if (fifth > told) {
          told = fifth;
          say("  sent " + Math.round((100 * done) / bytes) + "% (" + done + " of " + bytes + " bytes)");
        }
      }, sent.stale);
    } catch (e) {
      const stopped = e instanceof UploadStopped ? e : new UploadStopped(e, 0);
      throw new Error(
        "the upload stopped at byte " + stopped.done + " of " + bytes + " (" + stopped.message + "); the pet was saved and paused first and its region is untouched. Upload again before resetting the board: the firmware in its Storage is incomplete",
      );
    }
    // The firmware is complete without it: the file only takes room in Storage.
    for (const name of kept) say("note: " + P.staleFileNote(name));
    await con.send(P.loadCommand());
    let status: { found: boolean; status: Record<string, unknown> | null };
    try {
      status = await con.exchange(P.statusCommand(), (l) => {
        const s = P.parseStatus(l);
        return s.found && s.status !== null ? s : null;
      }, BOOT_MS, "pet.status() after the load", 2000);
    } catch (e) {
      throw new Error("uploaded and loaded, but no pet answered within " + BOOT_MS / 1000 + " s (" + (e instanceof Error ? e.message : String(e)) + "); run with --monitor to see what the board prints");
    }
    const st = status.status as { name?: unknown; updateCount?: unknown; storage?: unknown };
    say("uploaded; the board restarted from " + BOOT_FILE + " and the pet answers: " + String(st.name) + ", updates " + String(st.updateCount) + ", storage " + String(st.storage));
    if (verbose) {
      say("the board printed meanwhile:");
      // Prompts and the protocol's own answers say nothing to a person; everything else is shown.
      for (const l of con.lines) if (!/^\s*>?\s*$/.test(l) && !/#pet-(ack|crc|erased|quiet|st) /.test(l + " ")) say("  " + l);
    }
  } finally {
    await con.close();
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
  const boardFile = profileFileFor();
  let port = "";
  let version = "";
  // Find the board and ask it what it is before building, so a missing or wrong board costs no build time.
  if (!opts.dryRun) {
    const found = await resolveBoardPort(opts.port);
    for (const line of found.lines) say(line);
    port = found.path;
    const checked = await checkBoard(port, loadProfile(boardFile), opts.baud);
    say(checked.line);
    version = checked.version;
  }
  const build = await tools.build({ board: boardFile, outFile: opts.bundle, entry: opts.entry });
  say("built " + shortPath(build.outFile) + ": " + build.bytes + " bytes for " + build.profileName + " (" + shortPath(build.board) + ")");
  const code = readFileSync(build.outFile, "utf8");
  if (opts.dryRun) {
    const out = resolve(opts.out || join(packageRoot(), "dist", "upload.js"));
    const form = bundleForVersion(code, opts.forVersion || BLOCK_SCOPE_SINCE);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, uploadText(form.files, form.stale));
    const erased = form.stale.length > 0 ? ", " + form.stale.join(" and ") + " erased if a function form left it" : "";
    say("dry run: wrote " + shortPath(out) + " (what would be typed at the console: the pet saved and paused, the bundle" + (form.form === "function" ? " in its function form" : "") + " into Storage " + form.files.map((f) => f.name).join(" and ") + " in acknowledged pieces, their CRCs" + erased + ", then load(\"" + BOOT_FILE + "\"))");
    return;
  }
  await sendBundle(port, code, version, say, { baud: opts.baud, verbose: opts.verbose });
  if (opts.monitor) {
    const board = writeUploaderBoard();
    try {
      say("monitor on " + port + " (Ctrl-C twice to leave)");
      await new Promise((done) => {
        const how = cliSpawn(monitorArgs({ boardJson: board.file, port, baud: opts.baud }), { port });
        const child = spawn(how.command, how.args, { stdio: "inherit", env: how.env });
        child.on("close", done);
      });
    } finally {
      board.cleanup();
    }
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
