/**
 * The Espruino globals the firmware uses, emulated without any Node or browser API, so both hosts
 * build the very same world for the bundle: the desktop (src/host/node/sim/espruinoHost.ts, a vm
 * context) and the web page (src/web/sim/worker, a Worker's global scope). Each API comes from a
 * module of this folder:
 *
 *   require("Flash")             flashModule.ts, over a NOR flash (a file, or IndexedDB in the page)
 *   getTime()                    clock.ts (scaled by the speed), Date.now() is the realm's own (real)
 *   setTimeout/setInterval/...   timers.ts (setInterval sped up for a speed above 45, see clock.ts)
 *   setWatch/clearWatch          pins.ts, the button pin driven by the keyboard or the page
 *   pinMode                      pins.ts (pull resistors decide where an input rests)
 *   digitalWrite                 pins.ts, the LED
 *   E.CRC32, E.sum, E.toString, E.mapInPlace   espruinoE.ts
 *   I2C1                         i2c.ts, decoded by the SSD1306 model in ssd1306.ts
 *   Graphics.createArrayBuffer   graphics.ts
 *   console.log / print          the host's output callback
 *
 * plus the pin names (D0..D39, and BTN1 / LED1 from the board profile) and `global`.
 */
import type { BoardProfile } from "../../boards/boardProfile";
import type { StatusFlash } from "../../storage/flash";
import type { PetConsole } from "../../../firmware/app";
import { createSimClock, intervalSpeedup, type SimClock } from "./clock";
import { createEspruinoE } from "./espruinoE";
import { createFlashModule } from "./flashModule";
import { createGraphicsNamespace, type Realm } from "./graphics";
import { createSimI2C, type SimI2C } from "./i2c";
import { createSimPins, Pin, pinName, type Level, type SimPins } from "./pins";
import { Ssd1306 } from "./ssd1306";
import { createSimTimers, type SimTimers } from "./timers";

/** The board-profile fields the host needs (boards/desktop.json, boards/web.json), as the profile declares them. */
export type HostBoard = Pick<BoardProfile, "petRegion" | "button" | "led" | "display">;

export interface HostOptions {
  board: HostBoard;
  /** NOR flash holding the region; `flashAddress` is where the region starts in it (default 0). */
  flash: StatusFlash;
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

export interface EspruinoGlobals {
  panel: Ssd1306;
  pins: SimPins;
  timers: SimTimers;
  i2c: SimI2C;
  clock: SimClock;
  buttonPin: string | null;
  ledPin: string | null;
  /**
   * Presses (true) or releases (false) the button, honouring active-low wiring; `agoMs` says how
   * long ago it happened (0, now, by default): the page's board hears of a press late when its
   * worker was busy, and the debounce judges the press by when it happened (pins.ts).
   */
  setButton(pressed: boolean, agoMs?: number): void;
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

/**
 * Puts the emulated APIs on `g`, the global object the bundle will run in (`realm` holds that
 * global's own typed-array constructors, so the firmware's instanceof checks hold), and returns the
 * handles the host drives them with.
 */
export function installEspruinoGlobals(o: HostOptions, g: Record<string, unknown>, realm: Realm): EspruinoGlobals {
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
  g.global = g;

  return {
    panel,
    pins,
    timers,
    i2c,
    clock,
    buttonPin,
    ledPin,
    setButton(pressed: boolean, agoMs = 0): void {
      if (buttonPin === null) return;
      // Pressed: the switch pulls the pin to its active level. Released: the pin is let go and rests
      // where its pull resistor (pinMode) or the board's wiring puts it.
      pins.drive(buttonPin, pressed ? (activeLow ? 0 : 1) : null, clock.buttonTime() - Math.max(0, agoMs) / 1000);
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
