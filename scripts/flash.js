#!/usr/bin/env node
/**
 * `npm run flash` (or `-- --port /dev/ttyUSB0`, `--port tcp://HOST:PORT`): asks the board what it is
 * and refuses one the board profile in env BOARD (default boards/esp32.json) does not fit, then
 * builds the firmware for that profile, checks the bundle, and uploads it with the espruino tool into
 * Storage as .bootcde so it runs at every boot. 115200 baud, no Bluetooth, no network access. Exits
 * when done; `--monitor` stays in a terminal on the port afterwards. `--help` lists the options.
 *
 * Without --port it uses the one ESP32 board plugged in (scripts/lib/serialPorts.js says how it
 * tells); a named port that exists is used even when the espruino tool does not list it.
 *
 * Before a byte of the bundle is sent, the board must answer within 3 s (scripts/lib/boardConsole.js
 * opens the port itself) what it is: process.env BOARD and VERSION, its free flash and the page of
 * the pet region's last byte, judged by src/boards/boardFit.ts, the rule the web page, board-check
 * and the firmware also follow. The espruino tool's own output stays out unless --verbose; its
 * failures, a crash included, are one line naming the cause and what to do.
 */
import { readFileSync } from "node:fs";
import { resolve, join } from "node:path";
import { spawn } from "node:child_process";
import { buildFirmware, boardFromEnv, loadBoardProfile, shortPath, ROOT, BoardProfileError } from "./lib/build.js";
import { checkBundle, formatFindings } from "./lib/bundleCheck.js";
import { formatPortList, listSerialPorts, PortError, resolveBoardPort } from "./lib/serialPorts.js";
import { ConsoleError, openBoardConsole } from "./lib/boardConsole.js";
import { boardLine, identifyBoard } from "./lib/identifyBoard.js";
import { BOOT_FILE, cliSpawn, DEFAULT_BAUD, monitorArgs, runEspruinoCli, uploadArgs, uploadTrouble, writeUploaderBoard } from "./lib/upload.js";

const PROGRAM = "npm run flash";

const HELP = `usage: npm run flash -- [options]

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
  npm run flash
  npm run flash -- --port /dev/ttyUSB0 --monitor
  BOARD=boards/linux-esp32.json npm run flash -- --port tcp://127.0.0.1:2323

exit status:
  0  uploaded (with --dry-run: written; with --list: listed)
  1  not uploaded: no board found, a board that did not answer, a board the profile does not fit
     (nothing was sent), a bundle that fails its checks, or an upload that failed
  2  usage: an unknown option or a bad value
`;

/** A mistake in the command line: status 2, with the usage. */
class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { port: null, list: false, dryRun: false, out: null, bundle: undefined, entry: undefined, baud: DEFAULT_BAUD, monitor: false, verbose: false, help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
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

function say(line) {
  process.stdout.write(line + "\n");
}

/** Prints the upload's progress as the shim reports it: one line per fifth. */
function progressLine(sent, total) {
  say("  sent " + Math.round((100 * sent) / total) + "% (" + sent + " of " + total + " bytes)");
}

/**
 * Asks the board at `port` what it is and refuses one `profile` does not fit, before anything of
 * the pet is built or sent. Returns the line saying what it is.
 */
async function checkBoard(port, profile, file, baud) {
  if (profile.host === "desktop") throw new Error(shortPath(file) + " is a simulator's profile (host desktop): there is no board to upload it to; use BOARD=boards/esp32.json");
  const con = await openBoardConsole(port, { baud });
  let identified;
  try {
    identified = await identifyBoard(con, profile, shortPath(file));
  } finally {
    await con.close();
  }
  const { report, fit } = identified;
  if (!fit.fits) {
    const p = fit.problems[0];
    throw new Error(
      "the board at " + port + " (" + boardLine(report) + ") does not fit " + shortPath(file) + ": " + p.message + ". " + p.todo.charAt(0).toUpperCase() + p.todo.slice(1) +
        ". Nothing was sent.",
    );
  }
  const r = fit.region;
  return boardLine(report) + " at " + port + ": fits " + shortPath(file) + " (pet region 0x" + r.address.toString(16) + ", " + r.size + " bytes, in free flash, outside Storage)";
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) return void process.stdout.write(HELP);
  if (opts.version) return say(PROGRAM + " " + JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  if (opts.list) {
    say("serial ports (path, USB vendor:product, maker and product):\n" + formatPortList((await listSerialPorts()).ports));
    return;
  }
  const boardFile = boardFromEnv();
  // Find the board and ask it what it is before building, so a missing or wrong board costs no build time.
  if (!opts.dryRun) {
    const found = await resolveBoardPort(opts.port);
    for (const line of found.lines) say(line);
    opts.port = found.path;
    say(await checkBoard(opts.port, await loadBoardProfile(boardFile), boardFile, opts.baud));
  }
  const build = await buildFirmware({ board: boardFile, outFile: opts.bundle, entry: opts.entry });
  say("built " + shortPath(build.outFile) + ": " + build.bytes + " bytes for " + build.profile.name + " (" + shortPath(build.board) + ")");
  const findings = checkBundle(build.code);
  if (findings.length > 0) {
    throw new Error("the bundle uses things Espruino cannot run; not uploading:\n" + formatFindings(build.code, findings));
  }
  const board = writeUploaderBoard();
  try {
    if (opts.dryRun) {
      const out = resolve(opts.out || join(ROOT, "dist", "upload.js"));
      const r = await runEspruinoCli(uploadArgs({ bundleFile: build.outFile, boardJson: board.file, outJs: out }), { echo: opts.verbose });
      if (r.code !== 0 || !/Writing output to/.test(r.output)) {
        throw new Error("the espruino tool failed to write " + out + (opts.verbose ? "" : " (run with --verbose to see what it printed)"));
      }
      say("dry run: wrote " + shortPath(out) + " (what would be sent: the bundle into Storage " + BOOT_FILE + ", then load(\"" + BOOT_FILE + "\"))");
      return;
    }
    say("uploading to " + opts.port + (opts.port.startsWith("tcp://") ? "" : " at " + opts.baud + " baud") + " into Storage " + BOOT_FILE + " (runs at every boot)...");
    const r = await runEspruinoCli(uploadArgs({ bundleFile: build.outFile, boardJson: board.file, port: opts.port, baud: opts.baud }), {
      echo: opts.verbose,
      port: opts.port,
      onProgress: opts.verbose ? undefined : progressLine,
    });
    const trouble = uploadTrouble(r, opts.port);
    if (trouble) throw new Error("upload failed: " + trouble);
    say("uploaded; the board restarted from " + BOOT_FILE + ". Board output during the upload:");
    // Prompts alone (">") say nothing to a person; everything else the board printed is shown.
    for (const line of r.output.split("\n")) if (line.startsWith("--] ") && !/^\s*>?\s*$/.test(line.slice(4))) say("  " + line.slice(4));
    if (opts.monitor) {
      say("monitor on " + opts.port + " (Ctrl-C twice to leave)");
      await new Promise((done) => {
        const how = cliSpawn(monitorArgs({ boardJson: board.file, port: opts.port, baud: opts.baud }), { port: opts.port, markers: false });
        const child = spawn(how.command, how.args, { stdio: "inherit", env: how.env });
        child.on("close", done);
      });
    }
  } finally {
    board.cleanup();
  }
}

main().catch((e) => {
  if (e instanceof UsageError) {
    process.stderr.write(PROGRAM + ": " + e.message + "\nusage: npm run flash -- [--port P] [--baud N] [--list] [--dry-run [--out FILE]] [--monitor] [--verbose] (--help for more)\n");
    process.exit(2);
  }
  const message = e instanceof BoardProfileError || e instanceof PortError || e instanceof ConsoleError || e instanceof Error ? e.message : String(e);
  process.stderr.write("flash failed: " + message + "\n");
  process.exit(1);
});
