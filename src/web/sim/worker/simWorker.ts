/**
 * The simulated board, in a Worker of its own inside a sandbox (../boardSandbox.ts): the emulated
 * Espruino APIs of src/host/emulator (the same modules the desktop's `npm start` uses) installed on
 * the worker's global scope, the flash a NorFlashSim in memory (boardFlash.ts), and the firmware
 * bundle for boards/web.json run there with a global eval. The worker is the browser's counterpart
 * of the desktop's vm context, and more: the firmware and whatever is typed in the console run off
 * the page's thread, so a loop that never yields stops only the board (the page's watchdog then ends
 * it), and in the sandbox's opaque origin nothing there can reach the page's document or storage.
 *
 * The board is given one MessagePort, in the first message it gets, and talks over nothing else
 * (simProtocol.ts). It boots from the flash the page hands it and hands back a copy of the flash
 * after every burst of writes, for the page to keep. It reports its panel, LED and pet.status()
 * every FRAME_MS, which is also its heartbeat.
 */
import { simBoard, simFirmware } from "virtual:firmware";
import { installEspruinoGlobals } from "../../../host/emulator/espruinoGlobals";
import { OLED_HEIGHT, OLED_WIDTH } from "../../../host/emulator/ssd1306";
import { describeError } from "../../../host/emulator/timers";
import { FRAME_BYTES, FRAME_MS, sharedClockMs, type FromBoard, type PetMethod, type ToBoard } from "../simProtocol";
import { createBoardFlash, type BoardFlash } from "./boardFlash";

interface WorkerScope {
  origin: string;
  onmessage: ((e: MessageEvent) => void) | null;
}
// Taken before the firmware runs: what it or a console line puts on the global scope cannot change them.
const scope = self as unknown as WorkerScope & Record<string, unknown>;
const globalEval = eval;
const toJson = JSON.stringify;

type Board = ReturnType<typeof installEspruinoGlobals>;

/** A console answer as Espruino's console shows it: strings quoted, objects as JSON. */
function shown(v: unknown): string | null {
  if (v === undefined) return null;
  if (typeof v === "function") return "function";
  try {
    const j = toJson(v);
    return j === undefined ? String(v) : j;
  } catch {
    return String(v);
  }
}

function serve(port: MessagePort): void {
  const post = port.postMessage.bind(port) as (m: FromBoard, transfer?: Transferable[]) => void;
  const line = (text: string): void => post({ t: "line", text });
  let board: Board | null = null;
  let flash: BoardFlash | null = null;

  function boot(speed: number, image: Uint8Array | null): void {
    // Run where the page's storage is in reach, the board would be no sandbox at all: refuse to start.
    if (scope.origin !== "null") throw new Error("this browser ran the simulated board with the page's origin (" + scope.origin + "), not in its sandbox");
    const region = simBoard.petRegion;
    const f = createBoardFlash(region, image, (bytes) => post({ t: "flash", bytes }, [bytes.buffer]));
    flash = f;
    let led = false;
    const b: Board = installEspruinoGlobals(
      {
        board: simBoard,
        flash: f.flash,
        flashAddress: 0,
        speed,
        output: line,
        onPinWrite: (pin, level) => {
          if (pin === b.ledPin) led = level === 1;
        },
      },
      scope,
      { Uint8Array, ArrayBuffer },
    );
    board = b;
    try {
      globalEval(simFirmware);
    } catch (e) {
      line("firmware failed to start: " + describeError(e));
    }

    const sendFrame = (): void => {
      const pixels = new Uint8Array(FRAME_BYTES);
      for (let y = 0; y < OLED_HEIGHT; y++) {
        for (let x = 0; x < OLED_WIDTH; x++) {
          if (b.panel.visiblePixel(x, y) === 1) {
            const i = y * OLED_WIDTH + x;
            pixels[i >> 3] = (pixels[i >> 3] as number) | (1 << (i & 7));
          }
        }
      }
      let status: unknown = null;
      try {
        const pet = b.pet();
        status = pet === undefined ? null : pet.status();
      } catch {
        status = null;
      }
      post({ t: "frame", pixels, led, status } as FromBoard, [pixels.buffer]);
    };
    sendFrame(); // the first at once: the page shows the pet as soon as the firmware has drawn it
    setInterval(sendFrame, FRAME_MS);
  }

  function answer(m: Exclude<ToBoard, { t: "boot" | "button" }>, b: Board, f: BoardFlash): unknown {
    if (m.t === "eval") return shown(globalEval(m.code));
    if (m.t === "image") return f.flash.image();
    if (m.t === "settle") return f.flush();
    const pet = b.pet();
    if (pet === undefined) throw new Error("the firmware published no pet object");
    return (pet[m.method as PetMethod] as (...a: string[]) => unknown)(...m.args);
  }

  port.onmessage = (e: MessageEvent<ToBoard>) => {
    const m = e.data;
    if (m.t === "boot") {
      if (board !== null) return;
      try {
        boot(m.speed, m.image);
      } catch (err) {
        post({ t: "failed", message: describeError(err) });
      }
      return;
    }
    if (board === null || flash === null) return;
    if (m.t === "button") return board.setButton(m.down, sharedClockMs() - m.at);
    try {
      post({ t: "reply", id: m.id, ok: true, value: answer(m, board, flash) });
    } catch (err) {
      post({ t: "reply", id: m.id, ok: false, error: "Uncaught " + describeError(err) });
    }
  };
}

// The first message, from the sandbox's iframe, carries the board's one port; nothing else is taken.
scope.onmessage = (e: MessageEvent) => {
  const port = e.ports[0];
  if (port === undefined) return;
  scope.onmessage = null;
  serve(port);
};
