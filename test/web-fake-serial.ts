/**
 * A stand-in for `navigator.serial` with an ESP32 behind it, injected into the page by the device
 * tests (page.addInitScript). The port behaves as a Web Serial port does where it matters here: a
 * second open() while it is open is refused ("The port is already open"), close() fails while a
 * stream is locked, and the streams are new after each open. The reset lines work as on a dev board:
 * RTS holds EN low, and the chip boots when it is let go, into its ROM's download mode if IO0 is low
 * then (the BOOT button held, `holdBoot`) and into the firmware otherwise, printing the ROM's boot
 * line either way.
 *
 * In the firmware the board runs Espruino: each command line the page types runs as JavaScript over a
 * tiny fake of the board (process.env, Storage, Flash.read over the board's flash and getFree and
 * getPage answered as Espruino 2v29's ESP32 port answers them, E.CRC32, load(),
 * and a `pet`), and characters typed on a line that does not start with Ctrl-P are echoed, as
 * Espruino's console does. In download mode the bytes go to the ROM stand-in the test installed as
 * `window.__espRom` (test/web-fake-esp32-rom.ts), which esptool-js talks to. What happened is in
 * `window.__fakeSerial` for the test to read.
 *
 * The function is serialised into the page, so it must not use anything from this module's scope.
 */
export interface FakeBoard {
  board: string;
  version: string;
  /** Never answers anything (a board without Espruino, or at another baud rate). */
  silent?: boolean;
  /** The connection is cut when the page sends Storage.write number N+1. */
  cutAfterChunks?: number;
  /** A pet already running on the board (an earlier upload), by name. */
  runningPet?: string;
  /** What pet.exportHex() answers. */
  exportHex?: string;
  /** What pet.rename() answers (default "ok", and the name changes only then). */
  renameAnswer?: string;
  /** The pet region's bytes (the board's flash at 0x310000), as numbers. */
  region?: number[];
  /** The person closes the browser's port chooser without choosing. */
  noPortChosen?: boolean;
  /** Storage files already on the board (an earlier upload's). */
  files?: Record<string, string>;
}

export interface FakeState {
  log: string[];
  files: Record<string, string>;
  loads: number;
  writes: number;
  imported: string[];
  hatched: string[];
  pet: { name: string; updates: number } | null;
  port: { open: boolean; opens: number; closes: number; refusedOpens: number; bauds: number[] };
  /** "firmware" or "download", one per reset. */
  boots: string[];
  /** The person holds BOOT through the next reset (then lets go). */
  holdBoot: boolean;
  /**
   * Set by the test: the console's writes stay under way (the board has not had them) until
   * `window.__releaseWrites()`, as a slow USB link holds them. `heldWrites` counts those held.
   */
  holdWrites: boolean;
  heldWrites: number;
}

/** What the ROM stand-in offers the port (test/web-fake-esp32-rom.ts). */
export interface RomLike {
  /** The chip was reset into download mode. */
  reset(): void;
  /** Bytes from the host; the SLIP frames to send back. */
  receive(bytes: Uint8Array): Promise<Uint8Array[]>;
  /** The chip's whole flash. */
  flash: Uint8Array;
  /** True once the whole flash was erased (Storage and the pet with it). */
  erasedAll: boolean;
}

export function installFakeSerial(sc: FakeBoard): void {
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const REGION_ADDRESS = 0x310000; // boards/esp32.json
  const state: FakeState = {
    log: [],
    files: { ...sc.files },
    loads: 0,
    writes: 0,
    imported: [],
    hatched: [],
    pet: sc.runningPet ? { name: sc.runningPet, updates: 0 } : null,
    port: { open: false, opens: 0, closes: 0, refusedOpens: 0, bauds: [] },
    boots: [],
    holdBoot: false,
    holdWrites: false,
    heldWrites: 0,
  };
  (window as unknown as { __fakeSerial: FakeState }).__fakeSerial = state;
  let held: (() => void)[] = [];
  (window as unknown as { __releaseWrites: () => void }).__releaseWrites = () => {
    state.holdWrites = false;
    const go = held;
    held = [];
    for (const f of go) f();
  };
  const rom = (): RomLike | undefined => (window as unknown as { __espRom?: RomLike }).__espRom;
  const ownFlash = new Uint8Array(REGION_ADDRESS + 0x10000).fill(0xff);
  if (sc.region) ownFlash.set(sc.region, REGION_ADDRESS);
  const flash = (): Uint8Array => {
    const r = rom();
    return r ? r.flash : ownFlash;
  };
  if (rom() && sc.region) flash().set(sc.region, REGION_ADDRESS);

  let ctrl: ReadableStreamDefaultController<Uint8Array> | null = null;
  let readable: ReadableStream<Uint8Array> | null = null;
  let writable: WritableStream<Uint8Array> | null = null;
  let cut = false;
  let input = "";
  let echo = true;
  let mode: "firmware" | "download" = "firmware";
  let romChain: Promise<void> = Promise.resolve();
  let dtr = false;
  let rts = false;
  const send = (b: Uint8Array): void => {
    if (ctrl && !cut) ctrl.enqueue(b);
  };
  const out = (s: string): void => send(enc.encode(s));

  function crc32(s: string | ArrayLike<number>): number {
    let c = 0xffffffff;
    for (let i = 0; i < s.length; i++) {
      c ^= (typeof s === "string" ? s.charCodeAt(i) : (s[i] as number)) & 0xff;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    }
    return (c ^ 0xffffffff) | 0; // signed, as Espruino's E.CRC32 may answer
  }
  const pet = {
    // The name as an ESP32 holds it: a string of its UTF-8 bytes (the page sends \xNN escapes), with
    // those bytes in nameHex.
    status: () =>
      state.pet
        ? {
            name: state.pet.name,
            nameHex: Array.from(state.pet.name, (c) => (c.charCodeAt(0) & 0xff).toString(16).padStart(2, "0")).join(""),
            expression: 0,
            expressionName: "neutral",
            activityName: "idle",
            updateCount: String(state.pet.updates),
          }
        : null,
    interact: () => {
      state.pet!.updates++;
      return "ok";
    },
    save: () => "ok",
    rename: (n: string) => {
      if (sc.renameAnswer && sc.renameAnswer !== "ok") return sc.renameAnswer;
      state.pet!.name = n;
      return "ok";
    },
    hatch: (n?: string) => {
      state.hatched.push(n === undefined ? "(default)" : n);
      state.pet = { name: n || "Pip", updates: 0 };
      return "ok";
    },
    exportHex: () => sc.exportHex || "",
    importHex: (h: string) => {
      state.imported.push(h);
      return "ok";
    },
  };
  const Storage = {
    write(name: string, data: string, offset: number, size?: number): boolean {
      state.writes++;
      if (sc.cutAfterChunks !== undefined && state.writes > sc.cutAfterChunks) {
        cut = true;
        ctrl!.error(new DOMException("The device has been lost.", "NetworkError"));
        throw new Error("cut");
      }
      let f = size !== undefined ? "\xff".repeat(size) : state.files[name];
      if (f === undefined) return false;
      f = f.slice(0, offset) + data + f.slice(offset + data.length);
      state.files[name] = f;
      return true;
    },
    read: (name: string) => state.files[name],
    erase: (name: string) => {
      delete state.files[name];
    },
  };
  const Flash = {
    read: (length: number, addr: number): Uint8Array => flash().slice(addr, addr + length),
    getFree: () => [
      { addr: 0xe000, length: 0x2000 },
      { addr: 0x310000, length: 0x10000 },
      { addr: 0x360000, length: 0xa0000 },
    ],
    getPage: (addr: number) => (addr < 0x400000 ? { addr: addr - (addr % 4096), length: 4096 } : undefined),
  };
  function run(line: string): void {
    state.log.push(line);
    if (sc.silent || cut) return;
    const api: Record<string, unknown> = {
      require: (n: string) => (n === "Storage" ? Storage : n === "Flash" ? Flash : undefined),
      process: { env: { VERSION: sc.version, BOARD: sc.board, FLASH: 0, STORAGE: 917504 }, memory: () => ({ free: 600, usage: 1900, total: 2500 }) }, // an ESP32 without PSRAM: 1 KiB pieces
      print: (...a: unknown[]) => out(a.join(" ") + "\r\n"),
      load: () => {
        state.loads++;
        const f = state.files[".bootcde"];
        if (f !== undefined && f.indexOf("\xff") < 0) {
          state.pet = state.pet || { name: "Pip", updates: 0 };
          out("no save found: region empty, hatched " + state.pet.name + "\r\n");
        }
      },
      E: { CRC32: crc32, toString: (d: ArrayLike<number>) => String.fromCharCode(...Array.from(d)), sum: (d: ArrayLike<number>) => Array.from(d).reduce((a, b) => a + b, 0) },
      pet: state.pet ? pet : undefined,
      // Before an upload the page stops every timer and watch (src/boards/consoleProtocol.ts quietCommand).
      clearInterval: () => state.log.push("(timers cleared)"),
      clearTimeout: () => undefined,
      clearWatch: () => undefined,
    };
    try {
      new Function(...Object.keys(api), line)(...Object.values(api));
    } catch (e) {
      if (!cut) out("Uncaught " + String(e) + "\r\n");
    }
  }
  function typed(chunk: Uint8Array): void {
    for (const ch of dec.decode(chunk)) {
      if (ch === "\x03") {
        input = "";
        echo = true;
      } else if (ch === "\x10") {
        if (input === "") echo = false;
      } else if (ch === "\n") {
        const line = input;
        input = "";
        echo = true;
        run(line);
      } else {
        input += ch;
        if (echo && !sc.silent && ch >= " " && ch <= "~") out(ch);
      }
    }
  }
  function boot(): void {
    const download = state.holdBoot && rom() !== undefined;
    state.holdBoot = false;
    mode = download ? "download" : "firmware";
    state.boots.push(mode);
    input = "";
    echo = true;
    if (download) {
      rom()!.reset();
      out("ets Jun  8 2016 00:22:57\r\n\r\nrst:0x1 (POWERON_RESET),boot:0x3 (DOWNLOAD_BOOT(UART0/UART1/SDIO_REI_REO_V2))\r\nwaiting for download\r\n");
      return;
    }
    const r = rom();
    if (r && r.erasedAll) {
      // Espruino was written over an erased flash: no Storage, no pet.
      state.files = {};
      state.pet = null;
      r.erasedAll = false;
    }
    out("ets Jun  8 2016 00:22:57\r\n\r\nrst:0x1 (POWERON_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)\r\nload:0x3fff0030,len:4\r\nentry 0x40080684\r\n");
    if (!sc.silent) out(" ____                 _\r\n|  __|___ ___ ___ _ _|_|___ ___\r\n Espruino " + sc.version + "\r\n>");
  }

  const port = {
    get readable(): ReadableStream<Uint8Array> | null {
      return readable;
    },
    get writable(): WritableStream<Uint8Array> | null {
      return writable;
    },
    async open(o: { baudRate: number }): Promise<void> {
      if (state.port.open) {
        state.port.refusedOpens++;
        throw new DOMException("Failed to execute 'open' on 'SerialPort': The port is already open.", "InvalidStateError");
      }
      state.port.open = true;
      state.port.opens++;
      state.port.bauds.push(o.baudRate);
      readable = new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) });
      writable = new WritableStream<Uint8Array>({
        write(chunk) {
          if (mode === "download") {
            const r = rom()!;
            const copy = new Uint8Array(chunk);
            romChain = romChain.then(() => r.receive(copy)).then((frames) => frames.forEach(send));
            return undefined;
          }
          if (state.holdWrites) {
            state.heldWrites++;
            const copy = new Uint8Array(chunk);
            return new Promise<void>((done) =>
              held.push(() => {
                typed(copy);
                done();
              }),
            );
          }
          typed(chunk);
          return undefined;
        },
      });
    },
    async close(): Promise<void> {
      if (!state.port.open) throw new DOMException("Failed to execute 'close' on 'SerialPort': The port is already closed.", "InvalidStateError");
      if ((readable && readable.locked) || (writable && writable.locked)) throw new TypeError("Failed to execute 'close' on 'SerialPort': Cannot cancel a locked stream");
      try {
        ctrl?.close();
      } catch {
        /* errored already */
      }
      ctrl = null;
      readable = null;
      writable = null;
      state.port.open = false;
      state.port.closes++;
    },
    async setSignals(s: { dataTerminalReady?: boolean; requestToSend?: boolean }): Promise<void> {
      if (!state.port.open) throw new DOMException("Failed to execute 'setSignals' on 'SerialPort': The port is closed.", "InvalidStateError");
      const wasReset = rts;
      if (s.dataTerminalReady !== undefined) dtr = s.dataTerminalReady;
      if (s.requestToSend !== undefined) rts = s.requestToSend;
      if (wasReset && !rts) boot(); // EN let go
      void dtr; // IO0 follows the BOOT button here: this board's auto-reset does not pull it low
    },
    getInfo: () => ({}),
  };
  const requestPort = async (): Promise<typeof port> => {
    if (sc.noPortChosen) throw new DOMException("Failed to execute 'requestPort' on 'Serial': No port selected by the user.", "NotFoundError");
    return port;
  };
  Object.defineProperty(navigator, "serial", { value: { requestPort, getPorts: async () => [port] }, configurable: true });
}
