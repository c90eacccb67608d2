/**
 * The one transport of the console protocol (src/boards/consoleProtocol.ts) in Node: a board's
 * Espruino console over a serial device (through `serialport`, at the protocol's BAUD unless told
 * otherwise) or tcp://HOST:PORT (a networked board, the emulated ESP32, and Espruino's Linux build,
 * whose telnet console src/host/node/interpreter/espruinoLinux.ts reaches through this too). Every
 * program of ours that talks to a board from Node goes through it: the upload, board-check, the soak,
 * `pet-save pull` and `push`, and the tests and the bench on the interpreter. Only the upload's
 * `--monitor`, an interactive terminal, is the espruino tool's (../upload/espruinoTool.ts).
 *
 * Open a console, send the protocol's lines, wait for the line that answers (`exchange`, which offers
 * each line the board prints to the caller's pick once, in order), close. The soak also drives a
 * serial port's modem lines (`setLines`: RTS resets an ESP32 development board) and opens the console
 * again after each power cut; `isOpen` says when the connection dropped.
 *
 * No Ctrl-C is sent: a board only stops what runs, but Espruino's Linux build quits on a second Ctrl-C
 * within five seconds on an empty line. A half-typed line is flushed with a newline instead (`ask`),
 * as the espruino tool does.
 *
 * Opening a port that is no serial port, is busy, or is not ours to open is a ConsoleError of kind
 * "open" whose message names the cause and what to do; a board that never answers is kind "silent";
 * a connection that drops is kind "lost".
 */
import { connect } from "node:net";
import { createRequire } from "node:module";
import { BAUD, command } from "../../../boards/consoleProtocol";

const require = createRequire(import.meta.url);

/** How a conversation failed: the port ("open"), no answer in time ("silent"), the connection dropped ("lost"). */
export type ConsoleTrouble = "open" | "silent" | "lost";

/** Why the conversation failed, of kind `kind`. */
export class ConsoleError extends Error {
  readonly kind: ConsoleTrouble;
  constructor(message: string, kind: ConsoleTrouble) {
    super(message);
    this.name = "ConsoleError";
    this.kind = kind;
  }
}

/** A serial port's modem lines: true is asserted (the line driven low). */
export interface ModemLines {
  rts: boolean;
  dtr: boolean;
}

/** An open conversation with a board's console. */
export interface BoardConsole {
  /** The port as named: a serial device or tcp://HOST:PORT. */
  port: string;
  /** Everything the board printed so far, one line an entry (CR removed, bytes as latin1). */
  lines: string[];
  /** False once the connection dropped or was closed. */
  readonly isOpen: boolean;
  /** `listener` gets every complete line from now on. */
  onLine(listener: (line: string) => void): void;
  send(text: string): Promise<void>;
  /**
   * Sends `text` as it is (lines of src/boards/consoleProtocol.ts, framed already) and waits up to
   * `ms` for a later line that `pick` maps to something other than null or undefined, offering each
   * line once; sends it again every `resendMs` when given (a board that was still starting). The
   * protocol's Exchange.
   */
  exchange<T>(text: string, pick: (line: string) => T | null | undefined, ms: number, what: string, resendMs?: number): Promise<T>;
  /** A newline (flushing any half-typed line), then `js` as a command line; waits as `exchange` does. */
  ask<T>(js: string, pick: (line: string) => T | null | undefined, ms: number, what: string, resendMs?: number): Promise<T>;
  /** Sets a serial port's RTS and DTR together; rejects where there are none (tcp, a pseudo-terminal). */
  setLines(lines: ModemLines): Promise<void>;
  close(): Promise<void>;
}

/** A duplex byte link to the board. */
interface Link {
  write(text: string): Promise<void>;
  setLines(lines: ModemLines): Promise<void>;
  close(): Promise<void>;
  onData(fn: (d: Buffer) => void): void;
  onClose(fn: () => void): void;
}

/** The part of serialport's SerialPort used here. */
interface SerialLike {
  isOpen: boolean;
  write(data: Buffer, done: () => void): void;
  drain(done: () => void): void;
  set(lines: ModemLines, done: (e: Error | null) => void): void;
  close(done: () => void): void;
  on(event: "data", fn: (d: Buffer) => void): void;
  on(event: "close" | "error", fn: () => void): void;
}

/** What an open error from serialport or net means, in words a person can act on. */
export function openTrouble(port: string, message: unknown): string {
  const m = String(message);
  if (/Inappropriate ioctl|ENOTTY/i.test(m)) return port + " is not a serial port (it takes no serial settings): name the board's port (`npm run upload -- --list` lists them)";
  if (/Cannot lock port|Resource temporarily unavailable|EBUSY|Resource busy/i.test(m)) return port + " is in use by another program (a serial monitor, the Arduino IDE, another upload or pull): close it and try again";
  if (/Permission denied|EACCES/i.test(m)) return "no permission to open " + port + ": join the port's group (often dialout: `sudo usermod -aG dialout $USER`), then log out and back in";
  if (/No such file|ENOENT|No such device/i.test(m)) return port + " is not there (board unplugged?): plug it in, or name its port (`npm run upload -- --list`)";
  if (/ECONNREFUSED/i.test(m)) return "nothing listens at " + port + ": is the board (or `espruino --telnet`) running there?";
  if (/EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ENOTFOUND/i.test(m)) return "cannot reach " + port + " (" + m.replace(/^Error: /, "") + "): check the address and the network";
  return "cannot open " + port + ": " + m.replace(/^Error: /, "");
}

/** tcp://HOST:PORT as [host, port], or null for anything else. */
export function tcpAddress(port: string): [string, number] | null {
  const m = /^tcp:\/\/([^:/]+):(\d+)\/?$/.exec(port);
  return m ? [m[1] as string, Number(m[2])] : null;
}

async function openTcp(port: string): Promise<Link> {
  const address = tcpAddress(port);
  if (address === null) throw new ConsoleError("cannot read " + port + " as tcp://HOST:PORT", "open");
  const socket = connect(address[1], address[0]);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("error", (e) => reject(new ConsoleError(openTrouble(port, e.message), "open")));
  });
  socket.setNoDelay(true);
  return {
    write: (text) => new Promise<void>((resolve) => void socket.write(Buffer.from(text, "latin1"), () => resolve())),
    setLines: () => Promise.reject(new Error("a TCP console has no RTS or DTR line")),
    close: () =>
      new Promise<void>((resolve) => {
        socket.end(() => resolve());
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 500);
      }),
    onData: (fn) => socket.on("data", fn),
    onClose: (fn) => {
      socket.on("close", fn);
      socket.on("error", fn);
    },
  };
}

/**
 * A serial port at `baud`. Both modem lines are released at once after opening: on ESP32 development
 * boards RTS drives EN (reset) and DTR drives IO0 (BOOT), and released together they let the board
 * run normally (opening a port asserts both on Linux, which the boards' circuit also ignores; a change
 * of one alone would reset the board or select its ROM loader). A pseudo-terminal has no lines: fine.
 */
async function openSerial(port: string, baud: number): Promise<Link> {
  let SerialPort: new (o: { path: string; baudRate: number }, opened: (e: Error | null) => void) => SerialLike;
  try {
    ({ SerialPort } = require("serialport") as { SerialPort: typeof SerialPort });
  } catch {
    throw new ConsoleError("cannot open " + port + ": the serialport package is missing (npm ci installs it)", "open");
  }
  const serial = await new Promise<SerialLike>((resolve, reject) => {
    const p: SerialLike = new SerialPort({ path: port, baudRate: baud }, (e) => (e ? reject(new ConsoleError(openTrouble(port, e.message), "open")) : resolve(p)));
  });
  const setLines = (lines: ModemLines): Promise<void> => new Promise<void>((resolve, reject) => serial.set(lines, (e) => (e ? reject(e) : resolve())));
  await setLines({ rts: false, dtr: false }).catch(() => undefined);
  return {
    write: (text) =>
      new Promise<void>((resolve) => {
        if (!serial.isOpen) return resolve();
        serial.write(Buffer.from(text, "latin1"), () => serial.drain(() => resolve()));
      }),
    setLines,
    close: () => new Promise<void>((resolve) => (serial.isOpen ? serial.close(() => resolve()) : resolve())),
    onData: (fn) => serial.on("data", fn),
    onClose: (fn) => {
      serial.on("close", fn);
      serial.on("error", fn);
    },
  };
}

/** Opens the console of the board at `port` (a serial device or tcp://HOST:PORT). */
export async function openBoardConsole(port: string, { baud = BAUD } = {}): Promise<BoardConsole> {
  const link = port.startsWith("tcp://") ? await openTcp(port) : await openSerial(port, baud);
  const lines: string[] = [];
  const lineListeners: ((line: string) => void)[] = [];
  let partial = "";
  let closed = false;
  const waiters = new Set<() => void>();
  link.onData((d) => {
    partial += d.toString("latin1");
    let i;
    while ((i = partial.indexOf("\n")) >= 0) {
      const line = partial.slice(0, i).replace(/\r$/, "");
      lines.push(line);
      partial = partial.slice(i + 1);
      for (const l of lineListeners) l(line);
    }
    for (const w of waiters) w();
  });
  link.onClose(() => {
    closed = true;
    for (const w of waiters) w();
  });

  function exchange<T>(text: string, pick: (line: string) => T | null | undefined, ms: number, what: string, resendMs?: number): Promise<T> {
    let next = lines.length;
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let again: ReturnType<typeof setInterval> | undefined;
      const done = <V>(fn: (v: V) => void, v: V): void => {
        waiters.delete(check);
        clearTimeout(timer);
        clearInterval(again);
        fn(v);
      };
      const check = (): void => {
        for (; next < lines.length; next++) {
          const v = pick(lines[next] as string);
          if (v !== null && v !== undefined) return done(resolve, v);
        }
        if (closed) done(reject, new ConsoleError("the connection to " + port + " closed while waiting for " + what, "lost"));
      };
      waiters.add(check);
      timer = setTimeout(() => done(reject, new ConsoleError("no answer from " + port + " to " + what + " within " + ms / 1000 + " s", "silent")), ms);
      if (resendMs) again = setInterval(() => void link.write(text), resendMs);
      link.write(text).then(check);
    });
  }

  return {
    port,
    lines,
    get isOpen() {
      return !closed;
    },
    onLine: (listener) => void lineListeners.push(listener),
    send: (text: string) => link.write(text),
    exchange,
    ask: (js, pick, ms, what, resendMs) => exchange("\n" + command(js), pick, ms, what, resendMs),
    setLines: (l) => link.setLines(l),
    close: async () => {
      await link.close();
      closed = true;
      for (const w of waiters) w();
    },
  };
}
