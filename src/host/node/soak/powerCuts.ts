/**
 * The ways the soak cuts a board's power, one round at a time.
 *
 * - "rts" (the default on a serial port): a reset through the USB-serial adapter's RTS line, which
 *   ESP32 development boards wire to EN, as esptool resets them; DTR (wired to IO0, BOOT) stays
 *   released so the board boots normally. A reset is NOT a power loss: the flash chip keeps its
 *   power and finishes the operation it was doing, so a reset never tears a write or an erase. It
 *   shows that the board comes back with its pet at any instant of its work, nothing more.
 * - "command" (--cut-with CMD): a command that takes the power away and gives it back (a USB hub
 *   with per-port power switching driven by uhubctl, a relay). This is the real test.
 * - "manual" (--manual): the person unplugs the board and plugs it back. Also the real test.
 * - "kill" (--espruino PATH): Espruino's Linux build killed with SIGKILL and started again on the
 *   same flash file (src/host/node/interpreter/interpreterBoard.ts): for the flash file a faithful power cut.
 */
import { spawn } from "node:child_process";
import type { BoardConsole } from "../serial/boardConsole";

export type CutKind = "rts" | "command" | "manual" | "kill";

export interface PowerCut {
  kind: CutKind;
  /** One line for the start of the run. */
  describe: string;
  /** True when the cut takes the power from the flash chip (or is the interpreter's faithful equivalent). */
  cutsFlashPower: boolean;
  /** How long the board may take to answer again after cut() returned. */
  backWithinMs: number;
  /** Does the cut; `con` is the board's console now, `say` tells the person. Throws when it cannot cut. */
  cut(con: BoardConsole | null, say: (line: string) => void, round: number): Promise<void>;
}

/** A cut that could not be made at all (no RTS line, a command that failed): the soak stops. */
export class CutError extends Error {}

/** What the output and docs say whenever the cut is a reset. */
export const RESET_IS_NOT_POWER_LOSS =
  "a reset is not a power loss: through a reset the flash chip keeps its power and finishes the operation it was doing, so a reset cannot tear a write or an erase. " +
  "Only --cut-with CMD (a switched USB hub, a relay) or --manual (unplugging) takes the power from the flash: that is the real test.";

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** How long EN is held low: well over the ESP32's minimum reset pulse, as esptool holds it (100 ms). */
const RESET_HOLD_MS = 200;

export function rtsCut(): PowerCut {
  return {
    kind: "rts",
    describe: "a reset through the serial adapter's RTS line (EN on ESP32 development boards)",
    cutsFlashPower: false,
    backWithinMs: 30_000,
    async cut(con) {
      if (con === null || !con.isOpen) throw new CutError("the serial port closed before the reset");
      try {
        await con.setLines({ rts: true, dtr: false });
        await sleep(RESET_HOLD_MS);
        await con.setLines({ rts: false, dtr: false });
      } catch (e) {
        throw new CutError(
          "cannot drive the RTS line of " + con.port + " (" + (e instanceof Error ? e.message : String(e)) + "): it has no modem lines " +
            "(a TCP console or a pseudo-terminal does not). Cut the power with --cut-with CMD or --manual instead",
        );
      }
    },
  };
}

/** Runs `command` through the shell; it must cut the power and give it back (a power cycle). */
export function commandCut(command: string, timeoutMs = 120_000): PowerCut {
  return {
    kind: "command",
    describe: "the command " + JSON.stringify(command) + " (it must cut the power and give it back)",
    cutsFlashPower: true,
    backWithinMs: 60_000,
    cut(_con, say, round) {
      say("round " + round + ": cutting the power: " + command);
      return new Promise((done, fail) => {
        const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (out += d));
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        child.on("error", (e) => {
          clearTimeout(timer);
          fail(new CutError("cannot run the power-cut command " + JSON.stringify(command) + ": " + e.message));
        });
        child.on("close", (code, signal) => {
          clearTimeout(timer);
          if (code === 0) done();
          else {
            const tail = out.trim().split("\n").slice(-3).join("\n");
            fail(new CutError("the power-cut command " + JSON.stringify(command) + " failed (" + (signal ?? "exit status " + code) + ")" + (tail ? ":\n" + tail : "")));
          }
        });
      });
    },
  };
}

/** Asks the person to unplug the board and plug it back; the soak then waits for it (ten minutes at most). */
export function manualCut(): PowerCut {
  return {
    kind: "manual",
    describe: "you, unplugging the board and plugging it back when asked",
    cutsFlashPower: true,
    backWithinMs: 600_000,
    async cut(_con, say, round) {
      say("round " + round + ": UNPLUG THE BOARD NOW (it is saving), then plug it back in");
    },
  };
}

/** The interpreter's power cut: `powerCut` kills it and starts it again on the same flash file. */
export function killCut(powerCut: () => Promise<unknown>): PowerCut {
  return {
    kind: "kill",
    describe: "SIGKILL of Espruino's Linux build, started again on the same flash file",
    cutsFlashPower: true,
    backWithinMs: 30_000,
    async cut() {
      await powerCut();
    },
  };
}
