#!/usr/bin/env node
/**
 * `npm run flash` (or `-- --port /dev/ttyUSB0`, `--port tcp://HOST:PORT`): builds the firmware for
 * the board profile in env BOARD (default boards/esp32.json), checks the bundle, and uploads it with
 * the espruino tool into Storage as .bootcde so it runs at every boot. 115200 baud, no Bluetooth, no
 * network access. Exits when done; `--monitor` stays in a terminal on the port afterwards.
 * Without --port it uses the one ESP32 board plugged in (scripts/lib/serialPorts.js says how it
 * tells); a named port that exists is used even when the espruino tool does not list it.
 *
 *   --port P          the board's port: a serial device (COMn on Windows) or tcp://HOST:PORT
 *   --list            print the serial ports and what is known of each, and exit
 *   --dry-run         write what would be sent to a file instead of talking to a board
 *   --out FILE        the dry-run file (default dist/upload.js)
 *   --bundle FILE     where the built bundle goes (default dist/firmware.js)
 *   --entry FILE      bundle another entry module (bench probes; default src/host/espruino/main.ts)
 *   --baud N          serial speed (default 115200)
 *   --monitor         open a terminal on the port after the upload (Ctrl-C twice to leave)
 *   --verbose         show everything the espruino tool prints
 */
import { resolve, join } from "node:path";
import { spawn } from "node:child_process";
import { buildFirmware, boardFromEnv, shortPath, ROOT, BoardProfileError } from "./lib/build.js";
import { checkBundle, formatFindings } from "./lib/bundleCheck.js";
import { formatPortList, listSerialPorts, PortError, resolveBoardPort } from "./lib/serialPorts.js";
import {
  BOOT_FILE,
  cliSpawn,
  DEFAULT_BAUD,
  monitorArgs,
  runEspruinoCli,
  uploadArgs,
  uploadProblem,
  writeUploaderBoard,
} from "./lib/upload.js";

function parseArgs(argv) {
  const opts = { port: null, list: false, dryRun: false, out: null, bundle: undefined, entry: undefined, baud: DEFAULT_BAUD, monitor: false, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new Error(a + " needs a value");
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
      if (!Number.isInteger(opts.baud) || opts.baud <= 0) throw new Error("--baud needs a positive whole number");
    } else if (a === "--monitor") opts.monitor = true;
    else if (a === "--verbose" || a === "-v") opts.verbose = true;
    else throw new Error("unknown option " + a + " (see the comment at the top of scripts/flash.js)");
  }
  if (opts.dryRun && opts.monitor) throw new Error("--monitor needs a board, not --dry-run");
  return opts;
}

function say(line) {
  process.stdout.write(line + "\n");
}

/** Prints the upload's progress as the shim reports it: one line per fifth. */
function progressLine(sent, total) {
  say("  sent " + Math.round((100 * sent) / total) + "% (" + sent + " of " + total + " bytes)");
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.list) {
    say("serial ports (path, USB vendor:product, maker and product):\n" + formatPortList((await listSerialPorts()).ports));
    return;
  }
  // Find the board before building, so a missing board costs no build time.
  if (!opts.dryRun) {
    const found = await resolveBoardPort(opts.port);
    for (const line of found.lines) say(line);
    opts.port = found.path;
  }
  const build = await buildFirmware({ board: boardFromEnv(), outFile: opts.bundle, entry: opts.entry });
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
        throw new Error("the espruino tool failed to write " + out + ":\n" + r.output);
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
    const problem = uploadProblem(r.output);
    if (problem) throw new Error("upload failed: " + problem + (opts.verbose ? "" : "\n" + r.output));
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
  const message = e instanceof BoardProfileError || e instanceof PortError || e instanceof Error ? e.message : String(e);
  process.stderr.write("flash failed: " + message + "\n");
  process.exit(1);
});
