/**
 * The browser's Espruino host: the emulated APIs of src/host/emulator (the same modules the desktop
 * host uses) installed on the global object of a hidden same-origin iframe, and the firmware bundle
 * run there with that window's eval. The iframe is the browser's counterpart of the desktop's vm
 * context: the bundle gets a global scope of its own, with its own typed-array constructors, and
 * cannot reach the page's variables by accident.
 */
import { installEspruinoGlobals, type EspruinoGlobals, type HostOptions } from "../../host/emulator/espruinoGlobals";
import type { Realm } from "../../host/emulator/graphics";

export interface BrowserHost extends EspruinoGlobals {
  /** Runs a script (the bundle, or a console line) in the firmware's global scope; returns its value. */
  evaluate(code: string): unknown;
  /** Stops every timer and removes the realm: the board is switched off. */
  destroy(): void;
}

type FirmwareWindow = Window & Record<string, unknown> & { eval(code: string): unknown };

export function createBrowserHost(o: HostOptions, parent: HTMLElement): BrowserHost {
  const frame = document.createElement("iframe");
  frame.hidden = true;
  frame.setAttribute("aria-hidden", "true");
  frame.title = "firmware";
  parent.appendChild(frame);
  const win = frame.contentWindow as FirmwareWindow | null;
  if (win === null) throw new Error("the browser gave the firmware iframe no window");
  const realm: Realm = { Uint8Array: win.Uint8Array as unknown as Uint8ArrayConstructor, ArrayBuffer: win.ArrayBuffer as unknown as ArrayBufferConstructor };
  const globals = installEspruinoGlobals(o, win, realm);
  return {
    ...globals,
    evaluate: (code: string) => win.eval(code),
    destroy() {
      globals.stop();
      frame.remove();
    },
  };
}
