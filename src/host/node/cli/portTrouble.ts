/**
 * Port trouble for `pet-save pull` and `push`, said in one line with what to do, instead of the
 * uploader's crash dump (whose cause Node prints in the middle, under its own source line):
 *
 * - a named port that is a character device but not a terminal (/dev/null, /dev/zero, /dev/random):
 *   Linux knows each device's class (/sys/dev/char/MAJOR:MINOR/subsystem), and a serial port's is
 *   "tty". A device whose class is unknown there (a pseudo-terminal, another system) gets the
 *   benefit of the doubt: the uploader will find out;
 * - an uploader that crashed: the error line of its dump, with advice for the causes we know;
 * - a connection that failed (tcp://): the network error's meaning rather than its JSON.
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

/** Known causes in the uploader's last words, and what to do about each. */
const ADVICE: [RegExp, string][] = [
  [/Inappropriate ioctl|ENOTTY/i, "it is not a serial port: name the board's port (`npm run upload -- --list` lists them)"],
  [/Cannot lock port|Resource temporarily unavailable|EBUSY/i, "another program has the port open (a serial monitor, another pull or upload): close it and try again"],
  [/Permission denied|EACCES/i, "no permission to open it: join the port's group (often dialout), then log out and back in"],
  [/No such file or directory|ENOENT/i, "the port has gone (board unplugged?): plug it in and try again"],
];

/**
 * When the uploader's output is a crash (Node's "Error: ..." and stack, or its "Node.js vX" footer),
 * one line naming the cause and what to do; otherwise null.
 */
export function uploaderCrash(output: string, port: string): string | null {
  if (!/^\s+at .+:\d+/m.test(output) && !/^Node\.js v\d/m.test(output)) return null;
  let cause = "";
  for (const line of output.split(/\r?\n/)) {
    const m = /^(?:Uncaught )?(?:[A-Za-z]*Error|Error)(?: \[[A-Z_]+\])?: (.+)$/.exec(line.trim());
    if (m) {
      cause = (m[1] as string).replace(/^(?:[A-Za-z]*Error: )+/, "").trim();
      break;
    }
  }
  const advice = ADVICE.find(([re]) => re.test(cause || output));
  return (
    "the espruino uploader failed on " + port + (cause ? ": " + cause : "") +
    (advice ? "; " + advice[1] : "; check the port (`npm run upload -- --list`) and try again")
  );
}

/** Network failures the uploader reports by their code, in words. */
const CONNECT_CODES: { [code: string]: string } = {
  ECONNREFUSED: "connection refused: nothing listens there",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  ENOTFOUND: "no such host",
  ECONNRESET: "connection reset",
};

/** Why the uploader could not connect, in a few words: a network code's meaning, else its last line. */
export function connectFailure(output: string): string {
  const code = /\b(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ENOTFOUND|ECONNRESET)\b/.exec(output);
  if (code) return CONNECT_CODES[code[1] as string] as string;
  const last = output.trim().split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("[pet]")).pop();
  return last || "the uploader said nothing";
}
