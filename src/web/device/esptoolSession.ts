/**
 * Installing Espruino with esptool-js: the page's narrow boundary to the library, over the Web Serial
 * port the person chose.
 *
 * connectEsp resets the chip into its download mode and syncs (CONNECT_ATTEMPTS tries, alternating
 * esptool's two reset timings), names the chip, reads its MAC, starts the flasher stub, switches to
 * FAST_BAUD and detects the flash size, all before anything is written. Whatever fails, the port is
 * closed before the error is handed back (esptool-js leaves it open, and an open port refuses every
 * later attempt, a reload being the only way out). A failed connection is tried once more at
 * ROM_BAUD throughout: some USB-serial chips and cables do not carry 921600 baud. esptool's own log
 * goes to `log`, line by line, for the page to show.
 *
 * The session then reads flash (the backup of the pet's region), writes the images with their MD5
 * checked by the stub, and resets the chip into the new firmware.
 */
import { ESPLoader, Transport } from "esptool-js";
import type { FlashImage } from "./espruinoImages";
import { md5Hex } from "./md5";

export const FAST_BAUD = 921600;
export const ROM_BAUD = 115200;
/** Twice each of esptool's two reset timings (esptool's own default is 7 tries). */
const CONNECT_ATTEMPTS = 4;
const CLOSE_MS = 2000;
/** The GPIO0 strapping bit of the ESP32's boot mode (boot:0x13 and 0x12 boot from flash, 0x3 and 0xf wait for download). */
const GPIO0_HIGH = 0x10;

export interface ChipInfo {
  /** esptool's chip family: "ESP32", "ESP32-S3", ... */
  name: string;
  /** "ESP32-D0WD-V3 (revision 3)" */
  description: string;
  mac: string;
  /** "4MB", or null when the flash did not say. */
  flashSize: string | null;
  /** The speed the session writes at. */
  baud: number;
}

export interface EspSession {
  chip: ChipInfo;
  readFlash(address: number, size: number, progress: (done: number, total: number) => void): Promise<Uint8Array>;
  /** Writes the images (each at its address, in the order given), each checked by MD5; progress in bytes over all. */
  write(images: FlashImage[], eraseAll: boolean, progress: (written: number, total: number) => void): Promise<void>;
  /** Pulses EN (RTS) with IO0 high (DTR): the chip starts the firmware in flash. */
  resetIntoFirmware(): Promise<void>;
  /** Lets go of the port; safe to call more than once. */
  close(): Promise<void>;
}

/** The chip answered but is not an ESP32: nothing was written, the port is closed. */
export class OtherChip extends Error {
  constructor(readonly chip: string) {
    super("this chip is " + chip);
    this.name = "OtherChip";
  }
}

/** No connection at either speed; `detail` is esptool's last word. */
export class NoDownloadMode extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = "NoDownloadMode";
  }
}

type PortLike = ConstructorParameters<typeof Transport>[0];

async function closePort(transport: Transport, port: PortLike): Promise<void> {
  await Promise.race([transport.disconnect().catch(() => undefined), new Promise((r) => setTimeout(r, CLOSE_MS))]);
  try {
    await (port as unknown as { close(): Promise<void> }).close();
  } catch {
    /* closed already (the usual case), or never opened */
  }
}

function terminal(log: (line: string) => void): { clean(): void; writeLine(s: string): void; write(s: string): void } {
  let partial = "";
  return {
    clean: () => undefined, // a second try keeps the first one's lines
    writeLine(s) {
      log((partial + s).replace(/\s+$/, ""));
      partial = "";
    },
    write(s) {
      partial += s;
      if (partial.includes("\n")) {
        const lines = partial.split(/\r?\n/);
        partial = lines.pop() as string;
        for (const l of lines) if (l.trim() !== "") log(l);
      }
    },
  };
}

async function tryConnect(port: PortLike, baud: number, log: (line: string) => void): Promise<EspSession> {
  const transport = new Transport(port, false);
  const loader = new ESPLoader({ transport, baudrate: baud, romBaudrate: ROM_BAUD, terminal: terminal(log) });
  // esptool works out from the boot line whether the chip is in its download mode, but says so only
  // in its debug output: take that line for the page. esptool looks for the ROM's "waiting for
  // download", which not every download mode prints (the emulated ESP32's, boot:0xf, does not); the
  // boot mode's GPIO0 bit (0x10, high) is what says the chip started its firmware from flash. Said
  // only when the connection fails: esptool resets the chip again and again until it syncs, and a
  // boot line from a try that missed (or printed before the first reset) is no news once one reaches
  // the download mode.
  const debug = loader.debug.bind(loader);
  loader.debug = (text: string, withNewline?: boolean): void => {
    const m = /^bootMode:(0x[0-9a-f]+) downloadMode:false/i.exec(text);
    if (m && (parseInt(m[1] as string, 16) & GPIO0_HIGH) !== 0) bootedInto = m[1] as string;
    debug(text, withNewline);
  };
  let bootedInto = "";
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await closePort(transport, port);
  };
  try {
    await loader.detectChip("default_reset", CONNECT_ATTEMPTS);
    bootedInto = ""; // in its download mode now: a boot line seen before explains no later failure
    const name = loader.chip.CHIP_NAME;
    // The page carries only the original ESP32's flasher stub (scripts/lib/buildWeb.js), and the
    // pet's profile is for that chip: anything else is named and let go before going further.
    if (name !== "ESP32") throw new OtherChip(name);
    const description = await loader.chip.getChipDescription(loader);
    const mac = await loader.chip.readMac(loader);
    log("Chip is " + description + ", MAC " + mac);
    await loader.runStub();
    if (baud !== ROM_BAUD) await loader.changeBaud();
    const flashSize = (await loader.detectFlashSize()) || null;
    return {
      // esptool falls back to ROM_BAUD by itself when the chip stops answering after the switch.
      chip: { name, description, mac, flashSize, baud: (loader as unknown as { baudrate: number }).baudrate },
      readFlash: (address, size, progress) => loader.readFlash(address, size, (_p, done, total) => progress(done, total)),
      async write(images, eraseAll, progress) {
        const total = images.reduce((n, i) => n + i.bytes.length, 0);
        const before = images.map((_, k) => images.slice(0, k).reduce((n, i) => n + i.bytes.length, 0));
        await loader.writeFlash({
          fileArray: images.map((i) => ({ data: i.bytes, address: i.address })),
          flashSize: "keep",
          flashMode: "keep",
          flashFreq: "keep",
          eraseAll,
          compress: true,
          calculateMD5Hash: md5Hex,
          // esptool-js reports per file, in compressed bytes written of that file's compressed size.
          reportProgress: (index, written, size) => {
            const file = (images[index] as FlashImage).bytes.length;
            progress((before[index] as number) + Math.round((written / Math.max(1, size)) * file), total);
          },
        });
      },
      async resetIntoFirmware() {
        // esptool-js 0.7's HardReset only lets go of RTS; it resets the chip only if RTS was held.
        // Hold it (EN low) with DTR released (IO0 high), then let esptool release it.
        await transport.setDTR(false);
        await transport.setRTS(true);
        await loader.after("hard_reset", false);
      },
      close,
    };
  } catch (e) {
    await close();
    if (bootedInto !== "" && !(e instanceof OtherChip)) {
      log("The chip started in boot mode " + bootedInto + " (its firmware in flash), not in its download mode.");
      throw new Error((e instanceof Error ? e.message : String(e)) + ": the chip started in boot mode " + bootedInto + " (its firmware), not in its download mode");
    }
    throw e;
  }
}

/** Connects at FAST_BAUD, then once more at ROM_BAUD; the port is closed after every failure. */
export async function connectEsp(port: unknown, log: (line: string) => void): Promise<EspSession> {
  let last = "";
  for (const baud of [FAST_BAUD, ROM_BAUD]) {
    try {
      return await tryConnect(port as PortLike, baud, log);
    } catch (e) {
      if (e instanceof OtherChip) throw e;
      last = e instanceof Error ? e.message : String(e);
      log("No connection (" + last + "); the port is closed again." + (baud !== ROM_BAUD ? " Trying once more at " + ROM_BAUD + " baud throughout." : ""));
    }
  }
  throw new NoDownloadMode(last);
}
