/**
 * A small Espruino for Node: a vm context whose globals are exactly the Espruino APIs the firmware
 * uses, installed by src/host/emulator/espruinoGlobals.ts (shared with the web page's host), so the
 * very bundle that is uploaded to the ESP32 runs unchanged on the desktop.
 */
import vm from "node:vm";
import { installEspruinoGlobals, type EspruinoGlobals, type HostOptions } from "../../emulator/espruinoGlobals";
import type { Realm } from "../../emulator/graphics";
import { describeError } from "../../emulator/timers";

export type { HostBoard } from "../../emulator/espruinoGlobals";

export interface EspruinoHost extends EspruinoGlobals {
  context: vm.Context;
  /** Runs a script (the firmware bundle) in the context. Throws what the script throws. */
  run(code: string, filename: string): unknown;
}

export function createEspruinoHost(o: HostOptions): EspruinoHost {
  const context = vm.createContext({});
  const realm = vm.runInContext("({ Uint8Array: Uint8Array, ArrayBuffer: ArrayBuffer })", context) as Realm;
  // `global` must be the context's own global object (what `this` is at the top of a script).
  const g = vm.runInContext("this", context) as Record<string, unknown>;
  const globals = installEspruinoGlobals(o, g, realm);
  return {
    ...globals,
    context,
    run(code: string, filename: string): unknown {
      return vm.runInContext(code, context, { filename });
    },
  };
}

export { describeError };
