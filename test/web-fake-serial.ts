/**
 * A stand-in for `navigator.serial` with a scripted Espruino console behind it, injected into the page
 * by the device tests (page.addInitScript). It runs each command line the page types as JavaScript
 * over a tiny fake of the board: process.env, Storage (write with offset and size, read), Flash (read
 * of the region, and getFree and getPage answered as Espruino 2v29's ESP32 port answers them), E.CRC32,
 * load() (which boots the "firmware" if .bootcde is complete) and a `pet` object. What happened is
 * in `window.__fakeSerial` for the test to read.
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
  /** The pet region's bytes (Flash.read at 0x310000), as numbers. */
  region?: number[];
}

export interface FakeState {
  log: string[];
  files: Record<string, string>;
  loads: number;
  writes: number;
  imported: string[];
  pet: { name: string; updates: number } | null;
}

export function installFakeSerial(sc: FakeBoard): void {
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const state: FakeState = { log: [], files: {}, loads: 0, writes: 0, imported: [], pet: sc.runningPet ? { name: sc.runningPet, updates: 0 } : null };
  (window as unknown as { __fakeSerial: FakeState }).__fakeSerial = state;
  let ctrl: ReadableStreamDefaultController<Uint8Array> | null = null;
  let cut = false;
  let input = "";
  const out = (s: string): void => {
    if (ctrl && !cut) ctrl.enqueue(enc.encode(s));
  };
  function crc32(s: string | ArrayLike<number>): number {
    let c = 0xffffffff;
    for (let i = 0; i < s.length; i++) {
      c ^= (typeof s === "string" ? s.charCodeAt(i) : (s[i] as number)) & 0xff;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    }
    return (c ^ 0xffffffff) | 0; // signed, as Espruino's E.CRC32 may answer
  }
  const pet = {
    status: () => (state.pet ? { name: state.pet.name, expression: 0, expressionName: "neutral", activityName: "idle", updateCount: String(state.pet.updates) } : null),
    interact: () => {
      state.pet!.updates++;
      return "ok";
    },
    save: () => "ok",
    rename: (n: string) => {
      state.pet!.name = n;
      return "ok";
    },
    hatch: (n?: string) => {
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
  };
  const REGION_ADDRESS = 0x310000; // boards/esp32.json
  const Flash = {
    read(length: number, addr: number): Uint8Array {
      const at = addr - REGION_ADDRESS;
      return new Uint8Array((sc.region || []).slice(at, at + length));
    },
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
      process: { env: { VERSION: sc.version, BOARD: sc.board, FLASH: 0, STORAGE: 917504 } },
      print: (...a: unknown[]) => out(a.join(" ") + "\r\n"),
      load: () => {
        state.loads++;
        const f = state.files[".bootcde"];
        if (f !== undefined && f.indexOf("\xff") < 0) {
          state.pet = state.pet || { name: "Pip", updates: 0 };
          out("no save found: region empty, hatched " + state.pet.name + "\r\n");
        }
      },
      E: { CRC32: crc32, toString: (d: ArrayLike<number>) => String.fromCharCode(...Array.from(d)) },
      pet: state.pet ? pet : undefined,
    };
    try {
      new Function(...Object.keys(api), line)(...Object.values(api));
    } catch (e) {
      if (!cut) out("Uncaught " + String(e) + "\r\n");
    }
  }
  const port = {
    readable: new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) }),
    writable: new WritableStream<Uint8Array>({
      write(chunk) {
        for (const ch of dec.decode(chunk)) {
          if (ch === "\x03") input = "";
          else if (ch === "\x10") continue;
          else if (ch === "\n") {
            const line = input;
            input = "";
            run(line);
          } else input += ch;
        }
      },
    }),
    open: async () => undefined,
    close: async () => undefined,
    getInfo: () => ({}),
  };
  Object.defineProperty(navigator, "serial", { value: { requestPort: async () => port, getPorts: async () => [port] }, configurable: true });
}
