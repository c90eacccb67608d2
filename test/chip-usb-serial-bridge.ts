/**
 * The emulated ESP32 as a dev board on a USB-serial adapter, for the page in Chromium: a stand-in for
 * `navigator.serial` (installBridgedSerial, injected into the page) whose one port carries its bytes
 * to and from the chip's console, QEMU's tcp port, through functions the test exposes to the page
 * (UsbSerialBridge, in Node). Nothing in between reads or changes the bytes.
 *
 * The port behaves as a Web Serial port does where it matters: open() while open and close() while a
 * stream is locked are refused, and a stream cancelled is replaced by a new one on the next access.
 * What the chip prints while the port is closed is lost, as it is on a real port; the adapter itself
 * stays connected to the chip's UART whatever the page does (QEMU runs with --wait, so nothing the
 * chip prints from power-on is lost to the adapter).
 *
 * The reset lines work as a dev board's auto-reset circuit wires them (two transistors): EN is held
 * low while RTS is on and DTR off, IO0 while DTR is on and RTS off. EN going low stops the chip
 * (QEMU is killed: its flash file keeps what was written); EN let go starts it again, in the ROM's
 * download mode when IO0 is low at that moment and from flash otherwise (QEMU started with or without
 * run.sh --download). This is what esptool-js's reset sequences do to a board.
 *
 * Two things are the emulator's and no board's, and are done here, outside the page:
 * - `beforeFlashBoot`, run with the chip off before it starts from flash: the test writes the kit's
 *   radios-off NVS partition there (writeRadiosOffNvs), which QEMU needs and a board does not.
 * - A chip boots its firmware in about a second; the emulated one takes 6 s, 15 s on a busy host. When
 *   the flash holds a firmware (an app image at 0x10000), the release of EN returns to the page only
 *   once Espruino has given its prompt (after its banner, or after the pet's .bootcde), so that the
 *   page's wait for a booting board (10 s) measures the page and not the emulator. A start-up that
 *   stops in the emulator, by the rule every power-on of the tier keeps (startupStopped in
 *   qemuChip.ts: no word from Espruino in 15 s, or no prompt in 30 s), or that panics before the
 *   prompt, is powered on again, and what it printed is kept in the record for the test to show.
 */
import { appendFileSync, closeSync, openSync, readSync } from "node:fs";
import { connect, type Socket } from "node:net";
import type { Page } from "playwright-core";
import { startChip, startupDone, startupStopped, type Chip, type Kit } from "../src/host/node/emulatedChip/qemuChip";

const FIRMWARE_ADDRESS = 0x10000;
const ESP_IMAGE_MAGIC = 0xe9;
/** A panic before Espruino started, whatever its cause: the start-up stopped, without waiting out the rule's time. */
const BOOT_PANIC = /Guru Meditation Error/;
/** How long the chip may take to start Espruino, however many boots panic or hang on the way. */
const BOOT_HOLD_MS = 120_000;
/** A file to trace the port into, for finding out what went wrong (PET_BRIDGE_TRACE=FILE). */
const TRACE = process.env.PET_BRIDGE_TRACE ?? "";
/** How long a read from the page waits for bytes before it answers "none yet" (it asks again). */
const READ_WAIT_MS = 500;

export interface BridgeRecord {
  /** One per start of the chip by the reset lines: "download" or "flash". */
  boots: ("download" | "flash")[];
  /** The baud rate of each open() (a socket carries bytes at any rate; the chip's UART sets the pace). */
  bauds: number[];
  opens: number;
  closes: number;
  /** Bytes from the page to the chip, and back. */
  bytesIn: number;
  bytesOut: number;
  /** Boots from flash that panicked or hung before Espruino started and were powered on again: what the chip printed. */
  bootPanics: string[];
  /** Milliseconds from the release of EN to Espruino's start, per boot from flash with a firmware. */
  bootMs: number[];
}

export class UsbSerialBridge {
  chip: Chip | null = null;
  readonly record: BridgeRecord = { boots: [], bauds: [], opens: 0, closes: 0, bytesIn: 0, bytesOut: 0, bootPanics: [], bootMs: [] };
  private sock: Socket | null = null;
  private portOpen = false;
  private queue: Buffer[] = [];
  private reader = 0;
  private waiter: ((b64: string | null) => void) | null = null;
  private seen = "";
  private dtr = false;
  private rts = false;
  private signals: Promise<void> = Promise.resolve();

  /** The console's tcp port: a free one at the first start, the same one after. */
  port: number | undefined;

  constructor(
    private readonly kit: Kit,
    readonly image: string,
    private readonly hooks: { beforeFlashBoot?: (image: string) => Promise<void> } = {},
  ) {}

  /** The board plugged in: the chip starts from its flash, as at power-on. */
  async plugIn(): Promise<void> {
    await this.start(false);
  }

  /**
   * The power switched on (after the test cut it): the chip starts from flash, and this returns once
   * Espruino has started, as a release of EN does. The adapter is connected to its console.
   */
  async powerOn(): Promise<void> {
    await this.start(false);
  }

  /** The adapter connected to the chip's console again, after the test talked to it itself (release). */
  async reconnect(): Promise<void> {
    await this.connectConsole();
  }

  /** Lets go of the chip's console (the test talks to it itself), leaving the chip running. */
  release(): void {
    this.sock?.destroy();
    this.sock = null;
  }

  /** The cable pulled: the console let go of and the chip stopped. */
  async unplug(): Promise<void> {
    this.release();
    await this.chip?.stop();
  }

  /** Exposes the port's functions to the page and installs the stand-in; call before page.goto. */
  async attach(page: Page): Promise<void> {
    await page.exposeFunction("__usbOpen", (baud: number) => {
      this.trace("open " + baud);
      this.portOpen = true;
      this.queue = [];
      this.record.opens++;
      this.record.bauds.push(baud);
    });
    await page.exposeFunction("__usbClose", () => {
      this.trace("close");
      this.portOpen = false;
      this.queue = [];
      this.record.closes++;
      this.answer(null);
    });
    await page.exposeFunction("__usbWrite", (b64: string) => {
      const b = Buffer.from(b64, "base64");
      this.record.bytesIn += b.length;
      this.trace("> " + b.length + " " + b.subarray(0, 48).toString("hex") + (this.sock ? "" : " (no chip)"));
      if (this.sock) this.sock.write(b);
    });
    await page.exposeFunction("__usbRead", (reader: number) => this.read(reader));
    await page.exposeFunction("__usbSignals", (s: { dtr?: boolean; rts?: boolean }) => {
      // One change of the lines at a time, in the order the page made them.
      const next = this.signals.then(() => this.setSignals(s));
      this.signals = next.catch(() => undefined);
      return next;
    });
    await page.addInitScript(installBridgedSerial);
  }

  /** One line of the trace (PET_BRIDGE_TRACE=FILE): what crossed the port and the lines, with the time. */
  private trace(line: string): void {
    if (TRACE) appendFileSync(TRACE, Date.now() + " " + line + "\n");
  }

  private answer(b64: string | null): void {
    const w = this.waiter;
    this.waiter = null;
    if (w) w(b64);
  }

  private read(reader: number): Promise<string | null> {
    if (!this.portOpen) return Promise.resolve(null);
    // A newer reader (a stream made after a cancel) supersedes the one waiting, which gets nothing.
    if (reader !== this.reader) {
      this.answer(null);
      this.reader = reader;
    }
    if (this.queue.length > 0) return Promise.resolve(this.take());
    return new Promise((done) => {
      const timer = setTimeout(() => {
        if (this.waiter === w) this.waiter = null;
        done("");
      }, READ_WAIT_MS);
      const w = (b64: string | null): void => {
        clearTimeout(timer);
        done(b64);
      };
      this.waiter = w;
    });
  }

  private take(): string {
    const b = Buffer.concat(this.queue);
    this.queue = [];
    this.record.bytesOut += b.length;
    return b.toString("base64");
  }

  private fromChip(d: Buffer): void {
    this.trace("< " + d.length + " " + d.subarray(0, 48).toString("hex") + (this.portOpen ? "" : " (port closed)"));
    this.seen = (this.seen + d.toString("latin1")).slice(-4000);
    if (!this.portOpen) return;
    this.queue.push(d);
    if (this.waiter) this.answer(this.take());
  }

  private async connectConsole(): Promise<void> {
    const chip = this.chip as Chip;
    for (let attempt = 0; ; attempt++) {
      try {
        this.sock = await new Promise<Socket>((done, fail) => {
          const s = connect(chip.port, "127.0.0.1", () => done(s));
          s.once("error", fail);
        });
        break;
      } catch (e) {
        if (attempt >= 50) throw new Error("the bridge could not reach the emulated chip's console on port " + chip.port + ": " + String(e));
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const sock = this.sock;
    sock.on("data", (d: Buffer) => this.fromChip(d));
    sock.on("error", () => undefined);
    sock.on("close", () => {
      if (this.sock === sock) this.sock = null;
    });
  }

  private hasFirmware(): boolean {
    const fd = openSync(this.image, "r");
    try {
      const b = Buffer.alloc(1);
      readSync(fd, b, 0, 1, FIRMWARE_ADDRESS);
      return b[0] === ESP_IMAGE_MAGIC;
    } finally {
      closeSync(fd);
    }
  }

  private async start(download: boolean): Promise<void> {
    this.record.boots.push(download ? "download" : "flash");
    if (!download && this.hooks.beforeFlashBoot) await this.hooks.beforeFlashBoot(this.image);
    const hold = !download && this.hasFirmware();
    const t0 = Date.now();
    const end = t0 + BOOT_HOLD_MS;
    for (;;) {
      this.seen = "";
      this.chip = await startChip(this.kit, this.image, { port: this.port, download, wait: true });
      this.port = this.chip.port;
      await this.connectConsole();
      if (!hold) return;
      // qemuChip.ts's start-up rule (startupStopped), the one waitForPrompt and the cut script keep.
      const poweredAt = Date.now();
      const stopped = (): boolean => BOOT_PANIC.test(this.seen) || startupStopped(this.seen, Date.now() - poweredAt) || Date.now() >= end;
      while (!startupDone(this.seen) && !stopped()) await new Promise((r) => setTimeout(r, 50));
      if (startupDone(this.seen) && !BOOT_PANIC.test(this.seen)) {
        this.record.bootMs.push(Date.now() - t0);
        return;
      }
      if (Date.now() >= end) {
        throw new Error("the emulated chip did not start Espruino within " + BOOT_HOLD_MS / 1000 + " s, " + this.record.bootPanics.length + " boots panicking or hanging before it (QEMU's log: " + this.chip.log + "; it printed: " + this.seen.slice(-1500) + ")");
      }
      const at = this.seen.indexOf("Guru Meditation Error");
      this.record.bootPanics.push(at >= 0 ? this.seen.slice(at).split("\n").slice(0, 12).join("\n") : "a start-up that stopped (no Espruino in 15 s, or no prompt in 30 s), the last it printed: " + this.seen.trim().split("\n").slice(-2).join(" / "));
      if (at >= 0) await new Promise((r) => setTimeout(r, 1000)); // the rest of the panic's report, for the record
      this.release();
      await this.chip.powerCut(undefined, true);
    }
  }

  private async setSignals(s: { dtr?: boolean; rts?: boolean }): Promise<void> {
    this.trace("signals " + JSON.stringify(s));
    const enLow = (): boolean => this.rts && !this.dtr;
    const io0Low = (): boolean => this.dtr && !this.rts;
    const wasInReset = enLow();
    if (s.dtr !== undefined) this.dtr = s.dtr;
    if (s.rts !== undefined) this.rts = s.rts;
    if (!wasInReset && enLow()) {
      // EN held low: the chip stops.
      this.release();
      await this.chip?.powerCut(undefined, true);
    } else if (wasInReset && !enLow()) {
      await this.start(io0Low());
    }
  }
}

/**
 * The page's side: `navigator.serial` with one port over the functions UsbSerialBridge exposes.
 * Serialised into the page, so it uses nothing from this module's scope.
 */
export function installBridgedSerial(): void {
  interface Bridge {
    __usbOpen(baud: number): Promise<void>;
    __usbClose(): Promise<void>;
    __usbWrite(b64: string): Promise<void>;
    __usbRead(reader: number): Promise<string | null>;
    __usbSignals(s: { dtr?: boolean; rts?: boolean }): Promise<void>;
  }
  const w = window as unknown as Bridge;
  const toB64 = (u8: Uint8Array): string => {
    let s = "";
    for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000));
    return btoa(s);
  };
  const fromB64 = (b64: string): Uint8Array => {
    const s = atob(b64);
    const u8 = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) u8[i] = s.charCodeAt(i);
    return u8;
  };
  let open = false;
  let readers = 0;
  let readable: ReadableStream<Uint8Array> | null = null;
  let writable: WritableStream<Uint8Array> | null = null;
  const closedError = (what: string): DOMException => new DOMException("Failed to execute '" + what + "' on 'SerialPort': The port is closed.", "InvalidStateError");

  function newReadable(): ReadableStream<Uint8Array> {
    const id = ++readers;
    let cancelled = false;
    const stream: ReadableStream<Uint8Array> = new ReadableStream<Uint8Array>({
      async pull(c) {
        for (;;) {
          const got = await w.__usbRead(id);
          if (cancelled) return;
          if (got === null) {
            if (readable === stream) readable = null;
            try {
              c.close();
            } catch {
              /* closed already */
            }
            return;
          }
          if (got.length > 0) return c.enqueue(fromB64(got));
        }
      },
      cancel() {
        cancelled = true;
        if (readable === stream) readable = null;
      },
    });
    return stream;
  }

  const port = {
    get readable(): ReadableStream<Uint8Array> | null {
      if (open && readable === null) readable = newReadable();
      return readable;
    },
    get writable(): WritableStream<Uint8Array> | null {
      if (open && writable === null) {
        writable = new WritableStream<Uint8Array>({
          write: (chunk) => w.__usbWrite(toB64(chunk)),
        });
      }
      return writable;
    },
    async open(o: { baudRate: number }): Promise<void> {
      if (open) throw new DOMException("Failed to execute 'open' on 'SerialPort': The port is already open.", "InvalidStateError");
      await w.__usbOpen(o.baudRate);
      open = true;
    },
    async close(): Promise<void> {
      if (!open) throw closedError("close");
      if ((readable && readable.locked) || (writable && writable.locked)) throw new TypeError("Failed to execute 'close' on 'SerialPort': Cannot cancel a locked stream");
      open = false;
      readable = null;
      writable = null;
      await w.__usbClose();
    },
    async setSignals(s: { dataTerminalReady?: boolean; requestToSend?: boolean }): Promise<void> {
      if (!open) throw closedError("setSignals");
      await w.__usbSignals({ dtr: s.dataTerminalReady, rts: s.requestToSend });
    },
    getInfo: () => ({}),
  };
  Object.defineProperty(navigator, "serial", { value: { requestPort: async () => port, getPorts: async () => [port] }, configurable: true });
}
