/**
 * A conversation with a board's Espruino console from Node, without the espruino tool: open the port
 * (a serial device through `serialport` at 115200 baud, or tcp://HOST:PORT), type lines, wait for the
 * line that answers, close. `npm run upload` asks the board what it is with it before anything is
 * sent (src/boards/boardFit.ts), and `npm run board-check` runs its whole check through it.
 *
 * Lines are typed after Ctrl-P (\x10), which tells Espruino not to echo them, and answers are picked
 * out by a tag (`#pet-id `, PETPULL, ...), so the pet's own console lines and prompts do not matter.
 * No Ctrl-C is sent: a board only stops what runs, but Espruino's Linux build, which the tests talk
 * to through a pseudo-terminal or telnet, quits on a second Ctrl-C within five seconds on an empty
 * line, and the espruino tool sends its own when it connects next. A half-typed line is flushed with
 * a newline instead, as the espruino tool does.
 *
 * Opening a port that is no serial port, is busy, or is not ours to open is a ConsoleError of kind
 * "open" whose message names the cause and what to do; a board that never answers is kind "silent";
 * a connection that drops is kind "lost".
 */
import { connect } from "node:net";
import { createRequire } from "node:module";

export const DEFAULT_BAUD = 115200;
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

/** An open conversation with a board's console. */
export interface BoardConsole {
  port: string;
  /** Everything the board printed so far, one line an entry (CR removed, bytes as latin1). */
  lines: string[];
  send(text: string): Promise<void>;
  /**
   * Types `js` and waits up to `ms` for a later line that `pick` maps to something other than null
   * or undefined; types it again every `resendMs` when given (a board that was still starting).
   */
  ask<T>(js: string, pick: (line: string) => T | null | undefined, ms: number, what: string, resendMs?: number): Promise<T>;
  /**
   * Sends `text` as it is (a line of src/boards/consoleProtocol.ts, framed already) and waits as
   * `ask` does: the transport every shared protocol step (bootFileUpload.ts's Exchange) runs over.
   */
  exchange<T>(text: string, pick: (line: string) => T | null | undefined, ms: number, what: string, resendMs?: number): Promise<T>;
  /** Types `js` and resolves with every line printed from then up to the one `endPick` accepts. */
  run(js: string, endPick: (line: string) => unknown, ms: number, what: string): Promise<string[]>;
  close(): Promise<void>;
}

/** A duplex text link to the board. */
interface Link {
  write(text: string): Promise<void>;
  close(): Promise<void>;
  onData(fn: (d: Buffer) => void): void;
  onClose(fn: () => void): void;
}

/** The part of serialport's SerialPort used here. */
interface SerialLike {
  isOpen: boolean;
  write(data: Buffer, done: () => void): void;
  drain(done: () => void): void;
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

/** A duplex link over serialport or a socket. */
async function openLink(port: string, baud: number): Promise<Link> {
  if (port.startsWith("tcp://")) {
    const m = /^tcp:\/\/([^:/]+):(\d+)\/?$/.exec(port);
    if (!m) throw new ConsoleError("cannot read " + port + " as tcp://HOST:PORT", "open");
    const socket = connect(Number(m[2]), m[1]);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", (e) => reject(new ConsoleError(openTrouble(port, e.message), "open")));
    });
    socket.setNoDelay(true);
    return {
      write: (text) => new Promise<void>((resolve) => void socket.write(Buffer.from(text, "latin1"), () => resolve())),
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
  let SerialPort: new (o: { path: string; baudRate: number }, opened: (e: Error | null) => void) => SerialLike;
  try {
    ({ SerialPort } = require("serialport") as { SerialPort: typeof SerialPort });
  } catch {
    throw new ConsoleError("cannot open " + port + ": the serialport package is missing (npm ci installs it)", "open");
  }
  const serial = await new Promise<SerialLike>((resolve, reject) => {
    const p: SerialLike = new SerialPort({ path: port, baudRate: baud }, (e) => (e ? reject(new ConsoleError(openTrouble(port, e.message), "open")) : resolve(p)));
  });
  return {
    write: (text) => new Promise<void>((resolve) => serial.write(Buffer.from(text, "latin1"), () => serial.drain(() => resolve()))),
    close: () => new Promise<void>((resolve) => (serial.isOpen ? serial.close(() => resolve()) : resolve())),
    onData: (fn) => serial.on("data", fn),
    onClose: (fn) => {
      serial.on("close", fn);
      serial.on("error", fn);
    },
  };
}

/** Opens the console of the board at `port` (a serial device or tcp://HOST:PORT). */
export async function openBoardConsole(port: string, { baud = DEFAULT_BAUD } = {}): Promise<BoardConsole> {
  const link = await openLink(port, baud);
  const lines: string[] = [];
  let partial = "";
  let closed = false;
  const waiters = new Set<() => void>();
  link.onData((d) => {
    partial += d.toString("latin1");
    let i;
    while ((i = partial.indexOf("\n")) >= 0) {
      lines.push(partial.slice(0, i).replace(/\r$/, ""));
      partial = partial.slice(i + 1);
    }
    for (const w of waiters) w();
  });
  link.onClose(() => {
    closed = true;
    for (const w of waiters) w();
  });

  /** The console line for `js`: echo off, then the code. */
  const line = (js: string): string => "\x10" + js + "\n";

  function ask<T>(js: string, pick: (line: string) => T | null | undefined, ms: number, what: string, resendMs?: number): Promise<T> {
    return exchange("\n" + line(js), pick, ms, what, resendMs);
  }

  function exchange<T>(text: string, pick: (line: string) => T | null | undefined, ms: number, what: string, resendMs?: number): Promise<T> {
    const from = lines.length;
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
        for (let k = from; k < lines.length; k++) {
          const v = pick(lines[k] as string);
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

  /** Types `js` and resolves with every line printed from then up to the one `endPick` accepts. */
  async function run(js: string, endPick: (line: string) => unknown, ms: number, what: string): Promise<string[]> {
    const from = lines.length;
    await ask<unknown>(js, endPick, ms, what);
    return lines.slice(from);
  }

  return {
    port,
    lines,
    send: (text: string) => link.write(text),
    ask,
    exchange,
    run,
    close: () => link.close(),
  };
}
