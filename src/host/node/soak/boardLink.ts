/**
 * A connection to a board's Espruino console that the soak holds open across a round and can reopen
 * after a cut: a serial port (through `serialport`, which can also drive the RTS and DTR lines) or a
 * TCP console (Espruino's Linux build, a networked board). On top of it, BoardConsole runs
 * expressions and programs and hands out the complete lines the board prints.
 *
 * Lines are sent with a leading DLE (0x10), which tells Espruino not to echo them, and answers come
 * between markers of this session, so prompts, the firmware's own lines and a boot banner in the
 * middle do not matter (the same protocol as src/host/node/interpreter/espruinoLinux.ts openConsole).
 */
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { connect as tcpConnect } from "node:net";

export interface BoardLink {
  /** What it is, for messages ("/dev/ttyUSB0", "tcp://127.0.0.1:2323"). */
  readonly name: string;
  readonly isOpen: boolean;
  write(text: string): void;
  /** Every chunk received, as latin1 text. */
  onData(listener: (text: string) => void): void;
  /** Called once when the link closes, whoever closed it (an unplugged board, a killed interpreter). */
  onClose(listener: () => void): void;
  /**
   * Sets the serial port's modem lines (true = asserted, the line driven low). Rejects where there
   * are none: a TCP console, a pseudo-terminal.
   */
  setLines(lines: { rts: boolean; dtr: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** Node's `serialport` (a dependency of the uploader too); required lazily so TCP needs nothing. */
interface SerialPortLike {
  isOpen: boolean;
  open(cb: (e: Error | null) => void): void;
  write(data: Buffer): void;
  set(lines: { rts: boolean; dtr: boolean }, cb: (e: Error | null) => void): void;
  close(cb: (e: Error | null) => void): void;
  on(event: "data", cb: (d: Buffer) => void): void;
  on(event: "close" | "error", cb: (e?: Error) => void): void;
}

const require = createRequire(import.meta.url);

/**
 * Opens a serial port at `baud`. Both modem lines are released at once after opening: on ESP32
 * development boards RTS drives EN (reset) and DTR drives IO0 (BOOT), and released together they
 * let the board run normally (opening a port asserts both on Linux, which the boards' circuit also
 * ignores; a change of one alone would reset the board or select its ROM loader).
 */
export async function openSerialLink(path: string, baud: number): Promise<BoardLink> {
  const { SerialPort } = require("serialport") as { SerialPort: new (o: object) => SerialPortLike };
  const port = new SerialPort({ path, baudRate: baud, autoOpen: false });
  await new Promise<void>((done, fail) => port.open((e) => (e ? fail(e) : done())));
  const link = wrap(path, {
    write: (b) => port.write(b),
    onData: (cb) => port.on("data", cb),
    onClose: (cb) => {
      port.on("close", () => cb());
    },
    setLines: (lines) => new Promise((done, fail) => port.set(lines, (e) => (e ? fail(e) : done()))),
    close: () => new Promise((done) => (port.isOpen ? port.close(() => done()) : done())),
  });
  port.on("error", () => undefined);
  await link.setLines({ rts: false, dtr: false }).catch(() => undefined); // a pty has no lines: fine here
  return link;
}

/** Opens a TCP console (Espruino's Linux build: 127.0.0.1 and its telnet port). */
export async function openTcpLink(host: string, port: number): Promise<BoardLink> {
  const socket = tcpConnect(port, host);
  await new Promise<void>((done, fail) => {
    socket.once("connect", () => done());
    socket.once("error", fail);
  });
  socket.on("error", () => undefined);
  return wrap("tcp://" + host + ":" + port, {
    write: (b) => socket.write(b),
    onData: (cb) => socket.on("data", cb),
    onClose: (cb) => {
      socket.on("close", () => cb());
    },
    setLines: () => Promise.reject(new Error("a TCP console has no RTS or DTR line")),
    close: () =>
      new Promise((done) => {
        socket.end(() => done());
        setTimeout(() => {
          socket.destroy();
          done();
        }, 500);
      }),
  });
}

interface RawLink {
  write(b: Buffer): void;
  onData(cb: (d: Buffer) => void): void;
  onClose(cb: () => void): void;
  setLines(lines: { rts: boolean; dtr: boolean }): Promise<void>;
  close(): Promise<void>;
}

function wrap(name: string, raw: RawLink): BoardLink {
  let open = true;
  const closeListeners: (() => void)[] = [];
  raw.onClose(() => {
    if (!open) return;
    open = false;
    for (const l of closeListeners) l();
  });
  return {
    name,
    get isOpen() {
      return open;
    },
    write(text) {
      if (open) raw.write(Buffer.from(text, "latin1"));
    },
    onData(listener) {
      raw.onData((d) => listener(d.toString("latin1")));
    },
    onClose(listener) {
      closeListeners.push(listener);
    },
    setLines: (lines) => raw.setLines(lines),
    async close() {
      if (!open) return;
      await raw.close();
      if (open) {
        open = false;
        for (const l of closeListeners) l();
      }
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * A marker as code that prints it: split in two, so that an echo of the line sent (a board that
 * missed the DLE) never contains the marker itself.
 */
function printed(marker: string): string {
  return JSON.stringify(marker.slice(0, 3)) + "+" + JSON.stringify(marker.slice(3));
}

/** The console over a link: expressions, programs, and the complete lines printed. */
export class BoardConsole {
  readonly link: BoardLink;
  private text = "";
  private partial = "";
  private readonly lineListeners: ((line: string) => void)[] = [];
  private readonly id = randomBytes(3).toString("hex");
  private counter = 0;

  constructor(link: BoardLink) {
    this.link = link;
    link.onData((d) => {
      this.text += d;
      this.partial += d;
      const parts = this.partial.split("\n");
      this.partial = parts.pop() as string;
      for (const p of parts) for (const l of this.lineListeners) l(p.replace(/\r$/, ""));
    });
  }

  /** `listener` gets every complete line from now on. */
  onLine(listener: (line: string) => void): void {
    this.lineListeners.push(listener);
  }

  /** Waits until `marker` arrives after position `from` of the text; the text in between. */
  private async until(from: number, marker: string, ms: number, what: string): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const at = this.text.indexOf(marker, from);
      if (at >= 0) return this.text.slice(from, at);
      if (!this.link.isOpen) throw new Error("the connection to " + this.link.name + " closed before " + what + " answered");
      if (Date.now() > deadline) throw new Error("no answer from the board at " + this.link.name + " to " + what + " within " + ms / 1000 + " s");
      await sleep(20);
    }
  }

  /** Runs one expression and answers its value (JSON), or throws with the board's error. */
  async evaluate(expr: string, ms = 10000): Promise<unknown> {
    const n = ++this.counter;
    const ok = "<<OK" + this.id + n + ">>";
    const bad = "<<ER" + this.id + n + ">>";
    const end = "<<EN" + this.id + n + ">>";
    const from = this.text.length;
    this.link.write("\x10try{print(" + printed(ok) + "+JSON.stringify(" + expr + ")+" + printed(end) + ")}catch(e){print(" + printed(bad) + "+e+" + printed(end) + ")}\n");
    const text = await this.until(from, end, ms, expr.length > 60 ? expr.slice(0, 57) + "..." : expr);
    const iOk = text.lastIndexOf(ok);
    const iBad = text.lastIndexOf(bad);
    if (iOk < 0 && iBad < 0) throw new Error("garbled answer from the board to " + expr);
    if (iBad > iOk) throw new Error("the board: " + expr + " threw " + text.slice(iBad + bad.length));
    const value = text.slice(iOk + ok.length);
    return value === "" || value === "undefined" ? undefined : JSON.parse(value);
  }

  /** Runs a program (statements) and answers everything printed until it finished. */
  async run(code: string, ms: number, what: string): Promise<string> {
    const end = "<<RUN" + this.id + ++this.counter + ">>";
    const from = this.text.length;
    this.link.write("\x10" + code + "print(" + printed(end) + ");\n");
    return this.until(from, end, ms, what);
  }
}
