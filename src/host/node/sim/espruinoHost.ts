/**
 * A small Espruino for Node: a vm context whose globals are exactly the Espruino APIs the firmware
 * uses (listed at the top of src/host/espruino), each emulated by a module of this folder, so the
 * very bundle that is uploaded to the ESP32 runs unchanged on the desktop:
 *
 *   require("Flash")             flashModule.ts, over the region image (NOR semantics)
 *   getTime()                    clock.ts (scaled by --speed), Date.now() is the context's own (real)
 *   setTimeout/setInterval/...   timers.ts (setInterval sped up for a --speed above 45, see clock.ts)
 *   setWatch/clearWatch          pins.ts, the button pin driven by the keyboard
 *   pinMode                      pins.ts (pull resistors decide where an input rests)
 *   digitalWrite                 pins.ts, the LED shown on screen
 *   E.CRC32                      espruinoE.ts (zlib.crc32 over the bytes Espruino would iterate)
 *   I2C1                         i2c.ts, decoded by the SSD1306 model in ssd1306.ts
 *   Graphics.createArrayBuffer   graphics.ts
 *   console.log / print          the host's output callback
 *
 * plus the pin names (D0..D39, and BTN1 / LED1 from the board profile) and `global`.
 */
import vm from "node:vm";
import type { Flash } from "../../../storage/flash";
import type { PetConsole } from "../../../../firmware/app";
import { createSimClock, intervalSpeedup, type SimClock } from "./clock";
import { createEspruinoE } from "./espruinoE";
import { createFlashModule } from "./flashModule";
import { createGraphicsNamespace, type Realm } from "./graphics";
import { createSimI2C, type SimI2C } from "./i2c";
import { createSimPins, Pin, pinName, type Level, type SimPins } from "./pins";
import { Ssd1306 } from "./ssd1306";
import { createSimTimers, describeError, type SimTimers } from "./timers";

/** The board-profile fields the host needs (boards/desktop.json). */
export interface HostBoard {
  petRegion: { address: number; size: number; pageSize: number };
  button?: { pin: string; activeLow?: boolean };
  led?: { pin: string };
  display?: { address: number };
}

export interface HostOptions {
  board: HostBoard;
  /** NOR flash holding the region; `flashAddress` is where the region starts in it (default 0). */
  flash: Flash;
  flashAddress?: number;
  /** getTime() speed factor (--speed); above 45 setInterval runs faster too (clock.ts). */
  speed?: number;
  /** Real monotonic milliseconds (default performance.now); tests drive it with fake timers. */
  monotonicMs?: () => number;
  /** One console line from the firmware (console.log / print / an uncaught error). */
  output: (line: string) => void;
  /** Called after every Flash.write / erasePage (the host checks for a new save). */
  onFlashWrite?: () => void;
  /** Called on every digitalWrite. */
  onPinWrite?: (pin: string, level: Level) => void;
}

export interface EspruinoHost {
  context: vm.Context;
  panel: Ssd1306;
  pins: SimPins;
  timers: SimTimers;
  i2c: SimI2C;
  clock: SimClock;
  buttonPin: string | null;
  ledPin: string | null;
  /** Runs a script (the firmware bundle) in the context. Throws what the script throws. */
  run(code: string, filename: string): unknown;
  /** Presses (true) or releases (false) the button, honouring active-low wiring. */
  setButton(pressed: boolean): void;
  /** The firmware's `pet` global (firmware/petConsole.ts PetConsole), if it published one. */
  pet(): PetConsole | undefined;
  /** Stops every timer and watch: the firmware goes quiet (used on quit). */
  stop(): void;
}

/** console.log's way of joining arguments: strings as they are, other values as JSON where possible. */
function formatArgs(args: unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === "string") return a;
      if (a instanceof Pin) return a.name;
      if (typeof a === "object" && a !== null) {
        try {
          return JSON.stringify(a);
        } catch {
          return String(a);
        }
      }
      return String(a);
    })
    .join(" ");
}

const PIN_COUNT = 40;

export function createEspruinoHost(o: HostOptions): EspruinoHost {
  const context = vm.createContext({});
  const realm = vm.runInContext("({ Uint8Array: Uint8Array, ArrayBuffer: ArrayBuffer })", context) as Realm;
  const speed = o.speed === undefined ? 1 : o.speed;
  const clock = createSimClock(speed, Date.now, o.monotonicMs);
  const report = (line: string): void => o.output(line);
  const timers = createSimTimers(report, intervalSpeedup(speed));

  const buttonPin = o.board.button ? pinName(o.board.button.pin) : null;
  const activeLow = !o.board.button || o.board.button.activeLow !== false;
  const ledPin = o.board.led ? pinName(o.board.led.pin) : null;
  const idle: { [pin: string]: Level } = {};
  if (buttonPin !== null) idle[buttonPin] = activeLow ? 1 : 0;
  const pins = createSimPins(idle, clock.buttonTime, report, o.onPinWrite);

  const panel = new Ssd1306();
  const i2c = createSimI2C(o.board.display ? o.board.display.address : 0x3c, panel);
  const flashModule = createFlashModule(
    {
      flash: o.flash,
      regionAddress: o.board.petRegion.address,
      flashAddress: o.flashAddress === undefined ? 0 : o.flashAddress,
      size: o.board.petRegion.size,
    },
    realm,
    o.onFlashWrite,
  );

  const g = context as Record<string, unknown>;
  const log = (...args: unknown[]): void => o.output(formatArgs(args));
  g.console = { log, error: log, warn: log, info: log };
  g.print = log;
  g.getTime = clock.getTime;
  g.setTimeout = timers.setTimeout;
  g.setInterval = timers.setInterval;
  g.clearTimeout = timers.clearTimeout;
  g.clearInterval = timers.clearInterval;
  g.setWatch = pins.setWatch;
  g.clearWatch = pins.clearWatch;
  g.digitalWrite = pins.digitalWrite;
  g.pinMode = (pin: unknown, mode: unknown): void => pins.pinMode(pin, mode);
  g.E = createEspruinoE();
  g.I2C1 = i2c;
  g.Graphics = createGraphicsNamespace(realm);
  g.require = (name: unknown): unknown => {
    if (name === "Flash") return flashModule;
    throw new Error('Module "' + String(name) + '" not found (the desktop provides only "Flash")');
  };
  for (let i = 0; i < PIN_COUNT; i++) g["D" + i] = new Pin("D" + i);
  if (buttonPin !== null) g.BTN1 = g.BTN = new Pin(buttonPin);
  if (ledPin !== null) g.LED1 = g.LED = new Pin(ledPin);
  g.global = vm.runInContext("this", context);

  return {
    context,
    panel,
    pins,
    timers,
    i2c,
    clock,
    buttonPin,
    ledPin,
    run(code: string, filename: string): unknown {
      return vm.runInContext(code, context, { filename });
    },
    setButton(pressed: boolean): void {
      if (buttonPin === null) return;
      // Pressed: the switch pulls the pin to its active level. Released: the pin is let go and rests
      // where its pull resistor (pinMode) or the board's wiring puts it.
      pins.drive(buttonPin, pressed ? (activeLow ? 0 : 1) : null);
    },
    pet(): PetConsole | undefined {
      const p = g.pet;
      return typeof p === "object" && p !== null ? (p as PetConsole) : undefined;
    },
    stop(): void {
      timers.stopAll();
      pins.stopAll();
    },
  };
}

export { describeError };
