/**
 * A named port that is certainly no serial port, for `pet-save pull` and `push`, said in one line
 * with what to do before anything opens it: a character device that is not a terminal (/dev/null,
 * /dev/zero, /dev/random). Linux knows each device's class (/sys/dev/char/MAJOR:MINOR/subsystem), and
 * a serial port's is "tty". A device whose class is unknown there (a pseudo-terminal, another system)
 * gets the benefit of the doubt: opening it finds out (../serial/boardConsole.ts says what went wrong
 * then, in one line too).
 */
import { readlinkSync, statSync } from "node:fs";
import { basename } from "node:path";

/** Why `path` is certainly not a serial port ("/dev/null is not a serial port (a mem device)"), or null. */
export function notSerialPortReason(path: string, platform: string = process.platform, sysDir = "/sys/dev/char"): string | null {
  if (platform !== "linux" || path.startsWith("tcp://")) return null;
  let rdev: bigint;
  try {
    const st = statSync(path, { bigint: true });
    if (!st.isCharacterDevice()) return null; // the port checks already said what it is
    rdev = st.rdev;
  } catch {
    return null;
  }
  // glibc's major()/minor() of a dev_t.
  const major = ((rdev >> 8n) & 0xfffn) | ((rdev >> 32n) & ~0xfffn);
  const minor = (rdev & 0xffn) | ((rdev >> 12n) & ~0xffn);
  let subsystem: string;
  try {
    subsystem = basename(readlinkSync(sysDir + "/" + major + ":" + minor + "/subsystem"));
  } catch {
    return null;
  }
  if (subsystem === "tty") return null;
  return path + " is not a serial port (a " + subsystem + " device): name the board's port, e.g. /dev/ttyUSB0 (`npm run upload -- --list` lists them)";
}
