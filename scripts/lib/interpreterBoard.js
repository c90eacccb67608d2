/**
 * Espruino's Linux build as a board on the desk, with a power switch and a flash that can be made to
 * lie: the one way the soak (`npm run soak -- --espruino PATH`) and the interpreter tests cut the
 * power and inject flash faults.
 *
 * - startInterpreterBoard(binary, dir): the interpreter in `dir` (its flash is dir/espruino.flash),
 *   its console on a port of its own (scripts/lib/espruinoLinux.js).
 * - upload(profile): builds the firmware for a board profile and uploads it with scripts/flash.js
 *   over the console, as a person does with a board; the firmware then boots from Storage.
 * - powerCut(whileOff?): SIGKILL, then the interpreter started again on the same flash file. For the flash
 *   file that is a faithful power cut (every write or erase is in the file once its call returns,
 *   and nothing is half applied by the interpreter itself); torn operations are the simulator's
 *   business (src/storage/norFlashSim.ts). The console moves to a new port: `port` follows it.
 * - setFaults(region, rules): the flash faults of scripts/lib/espruinoShim.c, switched while the
 *   interpreter runs, limited to `region` (flash addresses, e.g. the profile's petRegion). Rules are
 *   the simulator's FailureRule shape: { op: "write" | "erase", mode: "silent" | "half", after?, count? }.
 *   faultsApplied() lists what the shim did ("write half 3211324 84").
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./build.js";
import { espruinoShim, openConsole, startEspruino } from "./espruinoLinux.js";

/** Both Linux builds map their flash file here: flash address X is byte X - FLASH_START of espruino.flash. */
export const FLASH_START = 0x10000000;

/** The shim's control-file text for `rules` inside `region` ({ address, size } in flash addresses). */
export function faultControlText(region, rules) {
  const lines = ["region " + (region.address - FLASH_START) + " " + region.size];
  for (const r of rules) {
    if ((r.op !== "write" && r.op !== "erase") || (r.mode !== "silent" && r.mode !== "half")) {
      throw new Error("a flash fault is { op: write|erase, mode: silent|half, after?, count? }, got " + JSON.stringify(r));
    }
    let line = r.op + " " + r.mode;
    if (r.after !== undefined) line += " after " + r.after;
    if (r.count !== undefined) line += " count " + r.count;
    lines.push(line);
  }
  return lines.join("\n") + "\n";
}

export async function startInterpreterBoard(binary, dir, { readyTimeoutMs = 10000 } = {}) {
  const faultFile = join(dir, "flash-faults");
  writeFileSync(faultFile, "");
  const env = { PET_FLASH_FAULTS: faultFile };
  const canFault = (await espruinoShim()) !== null;
  let proc = await startEspruino(binary, dir, { env, readyTimeoutMs });
  let cuts = 0;

  function writeControl(text) {
    const tmp = faultFile + ".tmp";
    writeFileSync(tmp, text);
    renameSync(tmp, faultFile); // the shim never reads half a file
  }

  return {
    dir,
    binary,
    flashFile: join(dir, "espruino.flash"),
    /** The console's port now (it changes at every power cut). */
    get port() {
      return proc.port;
    },
    /** The interpreter process now (output(), waitFor(re, ms)). */
    get process() {
      return proc;
    },
    /** Power cuts so far. */
    get cuts() {
      return cuts;
    },
    openConsole(options = {}) {
      return openConsole({ ...options, port: proc.port });
    },
    /** Builds and uploads the firmware for the board profile `profile` (a path); { code, out }. */
    upload(profile, { bundle = join(dir, "firmware.js"), timeoutMs = 120000 } = {}) {
      return new Promise((done) => {
        const child = spawn(process.execPath, [join(ROOT, "scripts", "flash.js"), "--port", "tcp://127.0.0.1:" + proc.port, "--bundle", bundle], {
          cwd: ROOT,
          env: { ...process.env, BOARD: profile },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (out += d));
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        child.on("close", (code) => {
          clearTimeout(timer);
          done({ code: code ?? 1, out });
        });
      });
    },
    /**
     * SIGKILL (the power cut), then the interpreter again on the same flash file. `whileOff` runs
     * in between (a test reading or rewriting the flash file of a board that is off).
     */
    async powerCut(whileOff) {
      await proc.kill();
      cuts++;
      if (whileOff) await whileOff();
      proc = await startEspruino(binary, dir, { env, readyTimeoutMs });
      return proc;
    },
    setFaults(region, rules) {
      if (!canFault) throw new Error("flash faults need scripts/lib/espruinoShim.c, which needs a C compiler (cc) to build");
      writeControl(faultControlText(region, rules));
    },
    clearFaults() {
      writeControl("");
    },
    /** One line per fault the shim applied since the start: "OP MODE OFFSET LENGTH". */
    faultsApplied() {
      const log = faultFile + ".log";
      return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
    },
    async stop() {
      await proc.kill();
    },
  };
}
