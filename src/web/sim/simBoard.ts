/**
 * One power-up of the simulated board: the browser host (browserHost.ts) over the persistent flash,
 * running the firmware bundle built for boards/web.json. Switching it off stops its timers; the flash
 * (and with it the pet) stays in IndexedDB.
 */
import type { HostBoard } from "../../host/emulator/espruinoGlobals";
import type { PetConsole } from "../../../firmware/app";
import { describeError } from "../../host/emulator/timers";
import { createBrowserHost, type BrowserHost } from "./browserHost";
import type { PersistentFlash } from "./persistentFlash";

export interface SimBoard {
  host: BrowserHost;
  /** The firmware's `pet` object, if it published one. */
  pet(): PetConsole | undefined;
  led(): boolean;
  off(): void;
}

export function powerOn(o: {
  code: string;
  board: HostBoard;
  flash: PersistentFlash;
  speed: number;
  parent: HTMLElement;
  output: (line: string) => void;
}): SimBoard {
  let led = false;
  const host = createBrowserHost(
    {
      board: o.board,
      flash: o.flash.flash,
      flashAddress: 0,
      speed: o.speed,
      output: o.output,
      onPinWrite: (pin, level) => {
        if (pin === host.ledPin) led = level === 1;
      },
    },
    o.parent,
  );
  try {
    host.evaluate(o.code);
  } catch (e) {
    o.output("firmware failed to start: " + describeError(e));
  }
  return {
    host,
    pet: () => host.pet(),
    led: () => led,
    off: () => host.destroy(),
  };
}
