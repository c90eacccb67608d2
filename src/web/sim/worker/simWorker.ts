/**
 * The simulated board, in a Worker of its own: the emulated Espruino APIs of src/host/emulator (the
 * same modules the desktop's `npm start` uses) installed on the worker's global scope, the flash kept
 * in IndexedDB (persistentFlash.ts), and the firmware bundle for boards/web.json run there with a
 * global eval. The worker is the browser's counterpart of the desktop's vm context, and more: the
 * firmware and whatever is typed in the console run off the page's thread, so a loop that never
 * yields stops only the board (the page's watchdog then ends the worker, src/web/sim/boardClient.ts),
 * and nothing there can reach the page's document.
 *
 * Messages: simProtocol.ts. The board reports its panel, LED and pet.status() every FRAME_MS, which is
 * also its heartbeat.
 */
import { simBoard, simFirmware } from "virtual:firmware";
import { installEspruinoGlobals } from "../../../host/emulator/espruinoGlobals";
import { readCurrentSave, type CurrentSave } from "../../../host/emulator/currentSave";
import { OLED_HEIGHT, OLED_WIDTH } from "../../../host/emulator/ssd1306";
import { describeError } from "../../../host/emulator/timers";
import { openPetDb } from "../../petDb";
import { HEARTBEAT_MS, renewLease, type BoardClaim } from "../boardLease";
import { LeaseLost, openPersistentFlash } from "../persistentFlash";
import { FRAME_MS, type FromBoard, type PetMethod, type ToBoard } from "../simProtocol";

interface WorkerScope {
  postMessage(message: FromBoard, transfer?: Transferable[]): void;
  addEventListener(type: "message", listener: (e: MessageEvent<ToBoard>) => void): void;
}
// Taken before the firmware runs: what it or a console line puts on the global scope cannot change them.
const scope = self as unknown as WorkerScope & Record<string, unknown>;
const post = scope.postMessage.bind(scope);
const globalEval = eval;
const toJson = JSON.stringify;

type Board = ReturnType<typeof installEspruinoGlobals>;
interface Running {
  board: Board;
  image(): Uint8Array;
  settled(): Promise<void>;
}
let booting: Promise<Running> | null = null;
let running: Running | null = null;

function line(text: string): void {
  post({ t: "line", text });
}

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

async function boot(speed: number, claim: BoardClaim): Promise<Running> {
  const db = await openPetDb();
  const region = simBoard.petRegion;
  let lastSave: CurrentSave | null = null;
  let leaseLost = false;
  const lost = (): void => {
    if (leaseLost) return;
    leaseLost = true;
    post({ t: "lease-lost" });
  };
  const flash = await openPersistentFlash(
    db,
    claim,
    region,
    () => {
      // Read back from the flash once the snapshot committed: a "saved" report is a save IndexedDB holds.
      const now = readCurrentSave(flash.flash, region);
      if (now === null) return;
      if (lastSave !== null && now.sector === lastSave.sector && now.slot === lastSave.slot && now.seq === lastSave.seq) return;
      lastSave = now;
      post({ t: "saved", save: now });
    },
    (e) => (e instanceof LeaseLost ? lost() : line("page: could not keep the flash in IndexedDB: " + String(e))),
  );
  lastSave = readCurrentSave(flash.flash, region);
  post({ t: "ready", origin: flash.origin, save: lastSave });

  let led = false;
  const board: Board = installEspruinoGlobals(
    {
      board: simBoard,
      flash: flash.flash,
      flashAddress: 0,
      speed,
      output: line,
      onPinWrite: (pin, level) => {
        if (pin === board.ledPin) led = level === 1;
      },
    },
    scope,
    { Uint8Array, ArrayBuffer },
  );
  try {
    globalEval(simFirmware);
  } catch (e) {
    line("firmware failed to start: " + describeError(e));
  }

  const pixels = new Uint8Array((OLED_WIDTH * OLED_HEIGHT) / 8);
  setInterval(() => {
    pixels.fill(0);
    for (let y = 0; y < OLED_HEIGHT; y++) {
      for (let x = 0; x < OLED_WIDTH; x++) {
        if (board.panel.visiblePixel(x, y) === 1) {
          const i = y * OLED_WIDTH + x;
          pixels[i >> 3] = (pixels[i >> 3] as number) | (1 << (i & 7));
        }
      }
    }
    let status: Record<string, unknown> | null = null;
    try {
      const pet = board.pet();
      status = pet === undefined ? null : (pet.status() as unknown as Record<string, unknown> | null);
    } catch {
      status = null;
    }
    post({ t: "frame", pixels: pixels.slice(), led, status });
  }, FRAME_MS);
  if (claim.mode === "lease") {
    setInterval(() => {
      renewLease(db, claim.owner).then((ok) => (ok ? undefined : lost()), () => undefined);
    }, HEARTBEAT_MS);
  }
  return { board, image: () => flash.flash.image(), settled: () => flash.settled() };
}

async function handle(m: ToBoard): Promise<void> {
  if (m.t === "boot") {
    if (booting !== null) return;
    booting = boot(m.speed, m.claim);
    booting.then((r) => void (running = r), () => undefined);
    booting.catch((e: unknown) => post({ t: "failed", message: e instanceof Error ? e.message : String(e) }));
    return;
  }
  if (booting === null) return;
  // Copied at once, before the await below lets a later message (a button release) act.
  const copy = m.t === "image" && running !== null ? running.image() : null;
  const { board, image, settled } = running !== null ? running : await booting;
  if (m.t === "button") return board.setButton(m.down);
  try {
    let value: unknown;
    if (m.t === "eval") value = shown(globalEval(m.code));
    else if (m.t === "image") value = copy !== null ? copy : image();
    else if (m.t === "settle") value = await settled();
    else {
      const pet = board.pet();
      if (pet === undefined) throw new Error("the firmware published no pet object");
      value = (pet[m.method as PetMethod] as (...a: string[]) => unknown)(...m.args);
    }
    post({ t: "reply", id: m.id, ok: true, value });
  } catch (e) {
    post({ t: "reply", id: m.id, ok: false, error: "Uncaught " + describeError(e) });
  }
}

scope.addEventListener("message", (e) => void handle(e.data));
