/**
 * Espruino's Linux build as a board on the desk, with a power switch and a flash that can be made to
 * lie: the one way the soak (`npm run soak -- --espruino PATH`) and the interpreter tests cut the
 * power and inject flash faults.
 *
 * - startInterpreterBoard(binary, dir): the interpreter in `dir` (its flash is dir/espruino.flash),
 *   its console on a port of its own (espruinoLinux.ts).
 * - upload(bundleFile, profileFile?): uploads a built firmware bundle over the console the way
 *   `npm run upload` does (../upload/upload.ts: the board is asked what it is and judged against the
 *   profile first, when one is named); the firmware then boots from Storage. The build is build
 *   tooling (scripts/lib/build.js), which the callers run: the tests, and the soak's entry.
 * - powerCut(whileOff?): SIGKILL, then the interpreter started again on the same flash file. For the flash
 *   file that is a faithful power cut (every write or erase is in the file once its call returns,
 *   and nothing is half applied by the interpreter itself); torn operations are the simulator's
 *   business (src/storage/norFlashSim.ts). The console moves to a new port: `port` follows it.
 * - setFaults(region, rules): the flash faults of espruinoShim.c, switched while the
 *   interpreter runs, limited to `region` (flash addresses, e.g. the profile's petRegion). Rules are
 *   the simulator's FailureRule shape: { op: "write" | "erase", mode: "silent" | "half", after?, count? }.
 *   faultsApplied() lists what the shim did ("write half 3211324 84").
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadProfile } from "../boardProfiles";
import { checkBoard, sendBundle } from "../upload/upload";
import { espruinoShim, openConsole, startEspruino, type EspruinoConsole, type EspruinoProcess } from "./espruinoLinux";

/** Both Linux builds map their flash file here: flash address X is byte X - FLASH_START of espruino.flash. */
export const FLASH_START = 0x10000000;

/** A flash fault, in the simulator's FailureRule shape (src/storage/norFlashSim.ts). */
export interface FlashFault {
  op: "write" | "erase";
  mode: "silent" | "half";
  after?: number;
  count?: number;
}

/** Espruino's Linux build as a board (startInterpreterBoard). */
export interface InterpreterBoard {
  dir: string;
  binary: string;
  flashFile: string;
  /** The console's port now (it changes at every power cut). */
  readonly port: number;
  /** The interpreter process now (output(), waitFor(re, ms)). */
  readonly process: EspruinoProcess;
  /** Power cuts so far. */
  readonly cuts: number;
  openConsole(options?: { timeoutMs?: number }): Promise<EspruinoConsole>;
  /**
   * Uploads the built bundle `bundleFile` as `npm run upload` does, after asking the board what it is
   * and judging it against the profile in `profileFile` when one is named. { code: 0 | 1, out: what
   * was said }; never throws for a failed upload.
   */
  upload(bundleFile: string, profileFile?: string, options?: { timeoutMs?: number }): Promise<{ code: number; out: string }>;
  /** SIGKILL, `whileOff` (the flash file may be read or rewritten), and the interpreter again on the same flash file. */
  powerCut(whileOff?: () => void | Promise<void>): Promise<EspruinoProcess>;
  setFaults(region: { address: number; size: number }, rules: FlashFault[]): void;
  clearFaults(): void;
  /** One line per fault the shim applied since the start: "OP MODE OFFSET LENGTH". */
  faultsApplied(): string[];
  stop(): Promise<void>;
}

/** The shim's control-file text for `rules` inside `region` ({ address, size } in flash addresses). */
export function faultControlText(region: { address: number; size: number }, rules: FlashFault[]): string {
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

export async function startInterpreterBoard(binary: string, dir: string, { readyTimeoutMs = 10000 } = {}): Promise<InterpreterBoard> {
  const faultFile = join(dir, "flash-faults");
  writeFileSync(faultFile, "");
  const env = { PET_FLASH_FAULTS: faultFile };
  const canFault = (await espruinoShim()) !== null;
  let proc = await startEspruino(binary, dir, { env, readyTimeoutMs });
  let cuts = 0;

  function writeControl(text: string): void {
    const tmp = faultFile + ".tmp";
    writeFileSync(tmp, text);
    renameSync(tmp, faultFile); // the shim never reads half a file
  }

  return {
    dir,
    binary,
    flashFile: join(dir, "espruino.flash"),
    get port() {
      return proc.port;
    },
    get process() {
      return proc;
    },
    get cuts() {
      return cuts;
    },
    openConsole(options = {}) {
      return openConsole({ ...options, port: proc.port });
    },
    async upload(bundleFile, profileFile, { timeoutMs = 120000 } = {}) {
      let out = "";
      const say = (line: string): void => void (out += line + "\n");
      const port = "tcp://127.0.0.1:" + proc.port;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error("the upload took more than " + timeoutMs + " ms")), timeoutMs)));
      try {
        const go = async (): Promise<void> => {
          // The interpreter is always a current Espruino: the block form, unless a profile's check says otherwise.
          let version = "2v29";
          if (profileFile !== undefined) {
            const checked = await checkBoard(port, loadProfile(profileFile));
            say(checked.line);
            version = checked.version;
          }
          await sendBundle(port, readFileSync(bundleFile, "utf8"), version, say, { verbose: true });
        };
        await Promise.race([go(), timedOut]);
        return { code: 0, out };
      } catch (e) {
        return { code: 1, out: out + "upload failed: " + (e instanceof Error ? e.message : String(e)) + "\n" };
      } finally {
        clearTimeout(timer);
      }
    },
    async powerCut(whileOff) {
      await proc.kill();
      cuts++;
      if (whileOff) await whileOff();
      proc = await startEspruino(binary, dir, { env, readyTimeoutMs });
      return proc;
    },
    setFaults(region, rules) {
      if (!canFault) throw new Error("flash faults need src/host/node/interpreter/espruinoShim.c, which needs a C compiler (cc) to build");
      writeControl(faultControlText(region, rules));
    },
    clearFaults() {
      writeControl("");
    },
    faultsApplied() {
      const log = faultFile + ".log";
      return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
    },
    async stop() {
      await proc.kill();
    },
  };
}
