/**
 * `npm start`: the firmware bundle running in the Espruino host (espruinoHost.ts) over a region
 * image file, with the terminal as the OLED, the keyboard as the button, and a line log when stdout
 * is not a terminal.
 *
 * On a terminal: the screen is redrawn in place (screen.ts; one that does not fit says how big a
 * terminal it needs) and keys act at once (raw mode).
 * Otherwise: one line per change: the firmware's console lines, "saved: updates N ..." whenever a
 * new save is in the image (read back, so it is durable), "pet: ..." when name, activity or
 * expression change, "led: on/off" when the LED does. Keys may then come as characters on stdin (a
 * pipe), which scripts and tests use; when such an input ends, a press in progress is finished and
 * the pet is saved and the desktop quits, as with q.
 */
import { createEspruinoHost, describeError, type EspruinoHost, type HostBoard } from "./espruinoHost";
import type { PetConsole } from "../../../../firmware/app";
import { readCurrentSave, type CurrentSave } from "../../emulator/currentSave";
import { openRegionImage, type RegionImage } from "../regionImage";
import { fittingScreenLines, redrawSequence, type PixelStyle, type ScreenInfo } from "./screen";
import { createKeyHandler, type KeyActions } from "./keys";
import { guardRegionImage } from "./imageGuard";
import { acquireImageLock, type HeldLock } from "../imageLock";

// What scripts/start.js needs before it builds anything (a refused --image answers at once), from
// this same compiled bundle rather than through a TypeScript loader.
export { checkRegionImage, guardRegionImage } from "./imageGuard";
export { checkBoardProfile } from "../../../boards/boardProfile";

export interface DesktopOptions {
  /** The firmware bundle's source and a name for stack traces. */
  code: string;
  bundleName: string;
  board: HostBoard;
  imagePath: string;
  speed: number;
  style: PixelStyle;
  input: NodeJS.ReadStream | NodeJS.ReadableStream;
  output: NodeJS.WriteStream | NodeJS.WritableStream;
  /** Draw the screen (true on a terminal) or print lines. */
  screen: boolean;
  /** --reset: start from an erased region whatever the file holds (else a file that is not a pet region is refused). */
  reset?: boolean;
  /** How the image's lock names this run to a second writer (default: this process's command line). */
  command?: string;
}

export interface DesktopRun {
  host: EspruinoHost;
  /** Resolves with the exit code when the desktop quits (q, Ctrl-C, SIGTERM/SIGINT/SIGHUP, end of piped input, a crash at boot). */
  done: Promise<number>;
  /** Saves and quits (status 0), as q does: for a caller whose output went away. */
  quit(): void;
}

const CONSOLE_LINES_SHOWN = 3;
const RESET_WORDS: { [verdict: string]: string } = {
  "pet-region": "the pet it held",
  foreign: "the foreign data it held",
  "wrong-size": "the file of the wrong size",
  absent: "nothing",
};
const REDRAW_MS = 100;
const STATUS_POLL_MS = 250;

/**
 * Takes the image's lock (docs/adr/0008-one-writer-per-image.md), then runs the firmware over it.
 * Rejects, with a message naming the file and the way out, when another process writes the image,
 * when the file is not a pet region, or when it cannot be opened; nothing is written then.
 */
export async function runDesktop(o: DesktopOptions): Promise<DesktopRun> {
  const taken = await acquireImageLock(o.imagePath, { role: "write", command: o.command });
  if (taken.status === "held") {
    throw new Error(
      "refusing to run on " + taken.message + ". Only one program may write a region image at a time: quit that one first (q), or use --image for another file",
    );
  }
  if (taken.status !== "ok") throw new Error(taken.message);
  try {
    return runLocked(o, taken.lock);
  } catch (e) {
    taken.lock.release();
    throw e;
  }
}

function runLocked(o: DesktopOptions, lock: HeldLock): DesktopRun {
  const write = (s: string): void => {
    o.output.write(s);
  };
  const consoleTail: string[] = [];
  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });

  function line(text: string): void {
    if (o.screen) {
      consoleTail.push(text);
      while (consoleTail.length > CONSOLE_LINES_SHOWN) consoleTail.shift();
    } else write(text + "\n");
  }

  // An existing file must be a pet region (or --reset): the firmware would format anything else.
  const guarded = guardRegionImage(o.imagePath, o.board.petRegion, o.reset === true);
  // The storage layer's region image: every write and erase is in the file before the call returns.
  const opened = openRegionImage({
    path: o.imagePath,
    address: o.board.petRegion.address,
    size: o.board.petRegion.size,
    pageSize: o.board.petRegion.pageSize,
  });
  if (opened.image === null) throw new Error(opened.message + " (use --image for another file)");
  const region: RegionImage = opened.image;
  // A reader (pet-save inspect) gets the image as it stands between two flash operations. Once the
  // file stopped following the flash, the file is what it should read (and be told about).
  lock.setSnapshot(() => {
    const fileError = region.fileError();
    if (fileError !== null) throw new Error(fileError);
    return region.sim.image();
  });
  let lastSave: CurrentSave | null = readCurrentSave(region.flash, o.board.petRegion);
  let reportedFileError = false;
  let lastSaveClock = "";
  let saveCheckPending = false;

  function checkSave(): void {
    saveCheckPending = false;
    const fileError = region.fileError();
    if (fileError !== null && !reportedFileError) {
      reportedFileError = true;
      line("desktop: " + fileError + "; the flash fails from now on, as a broken chip would");
    }
    const now = readCurrentSave(region.flash, o.board.petRegion);
    if (now === null) return;
    if (lastSave !== null && now.sector === lastSave.sector && now.slot === lastSave.slot && now.seq === lastSave.seq) return;
    lastSave = now;
    lastSaveClock = new Date().toTimeString().slice(0, 8);
    line("saved: updates " + now.updateCount + " (" + now.name + ", sector " + now.sector + " slot " + now.slot + ")");
  }

  let led = false;
  const host = createEspruinoHost({
    board: o.board,
    flash: region.flash,
    flashAddress: o.board.petRegion.address,
    speed: o.speed,
    output: line,
    onFlashWrite: () => {
      // A save is several writes in one go; look once they are all done.
      if (!saveCheckPending) {
        saveCheckPending = true;
        setImmediate(checkSave);
      }
    },
    onPinWrite: (pin, level) => {
      if (pin !== host.ledPin || led === (level === 1)) return;
      led = level === 1;
      if (!o.screen) line("led: " + (led ? "on" : "off"));
    },
  });

  let prompt = "";
  let lastShownKey = "";
  let redrawTimer: NodeJS.Timeout | null = null;
  let statusTimer: NodeJS.Timeout | null = null;
  let lastFrame = "";
  let quitting = false;

  function status(): Record<string, unknown> | null {
    const pet = host.pet();
    if (pet === undefined) return null;
    try {
      // Read key by key below: the object comes from the bundle, which may be older than this code.
      return pet.status() as Record<string, unknown> | null;
    } catch {
      return null;
    }
  }

  function info(): ScreenInfo {
    const s = status() || {};
    const str = (k: string, d: string): string => (typeof s[k] === "string" ? (s[k] as string) : d);
    return {
      name: str("name", "(no pet yet)"),
      activity: str("activityName", "?"),
      expression: str("expressionName", "?"),
      elapsedMs: str("elapsedMs", "0"),
      updateCount: str("updateCount", "0"),
      lastSave: lastSave === null ? "never" : (lastSaveClock || "before start") + ", updates " + lastSave.updateCount,
      led,
      speed: o.speed,
      imagePath: o.imagePath,
      console: consoleTail.slice(),
      prompt,
    };
  }

  function redraw(): void {
    const tty = o.output as NodeJS.WriteStream;
    const columns = tty.columns || 0;
    const rows = tty.rows || 0;
    const frame = redrawSequence(fittingScreenLines(host.panel, info(), o.style, columns, rows), columns, rows);
    if (frame !== lastFrame) {
      lastFrame = frame;
      write(frame);
    }
  }

  function reportChange(): void {
    const s = status();
    if (s === null) return;
    const key = String(s.name) + "/" + String(s.activityName) + "/" + String(s.expressionName);
    if (key === lastShownKey) return;
    const first = lastShownKey === "";
    lastShownKey = key;
    if (!first) line("pet: " + String(s.name) + ", " + String(s.activityName) + ", " + String(s.expressionName) + ", updates " + String(s.updateCount));
  }

  function callPet(what: string, f: (p: PetConsole) => string): void {
    const pet = host.pet();
    if (pet === undefined) {
      line(what + ": the firmware published no pet object");
      return;
    }
    try {
      line(what + ": " + f(pet));
    } catch (e) {
      line(what + " failed: " + describeError(e));
    }
  }

  function quit(code: number, save: boolean): void {
    if (quitting) return;
    quitting = true;
    if (!o.screen) reportChange(); // a change since the last poll is shown before the save that keeps it
    if (save) callPet("pet.save()", (p) => p.save());
    checkSave();
    host.stop();
    keys.stop();
    if (redrawTimer) clearInterval(redrawTimer);
    if (statusTimer) clearInterval(statusTimer);
    if (o.screen) {
      redraw();
      write("\x1b[?25h\r\n"); // cursor back; the last screen stays visible above the shell prompt
    }
    const input = o.input as NodeJS.ReadStream;
    if (input.isTTY && typeof input.setRawMode === "function") input.setRawMode(false);
    input.pause();
    region.close();
    lock.release();
    finish(code);
  }

  const actions: KeyActions = {
    setButton: (pressed) => host.setButton(pressed),
    save: () => callPet("pet.save()", (p) => p.save()),
    hatch: () => callPet("pet.hatch()", (p) => p.hatch()),
    quit: () => quit(0, true),
    setPrompt: (text) => {
      prompt = text;
      if (o.screen) redraw();
      else if (text !== "") line(text);
    },
    petName: () => {
      const s = status();
      return s && typeof s.name === "string" ? s.name : "the pet";
    },
  };
  const keys = createKeyHandler(actions);

  if (o.screen) {
    write("\x1b[?25l\x1b[2J"); // hide the cursor, clear once; redraws are in place
    // Whatever ends the process (a crash included), the cursor comes back.
    process.once("exit", () => {
      if (!quitting) write("\x1b[?25h\r\n");
    });
  }
  line(
    "desktop: region image " + o.imagePath + (opened.status === "created" ? " (new, erased)" : o.reset === true ? " (reset: erased, " + RESET_WORDS[guarded] + " discarded)" : "") + ", " + o.board.petRegion.size +
      " bytes; speed x" + o.speed,
  );
  try {
    host.run(o.code, o.bundleName);
  } catch (e) {
    line("firmware failed to start: " + describeError(e));
    if (o.screen) redraw();
    quit(1, false);
    return { host, done, quit: () => quit(0, true) };
  }
  reportChange();

  const input = o.input as NodeJS.ReadStream;
  if (input.isTTY && typeof input.setRawMode === "function") input.setRawMode(true);
  input.setEncoding("utf8");
  input.on("data", (chunk: string) => {
    for (const ch of chunk) keys.key(ch);
  });
  // No more keys can come from a pipe or file that ended: finish a press in progress, let its release
  // through the button's debounce to the firmware, then save and quit, so a script's
  // `printf ' ' | npm start` is one press, saved. (A terminal's input does not end this way.)
  input.on("end", () => {
    if (!input.isTTY) keys.whenIdle(() => host.pins.whenSettled(() => quit(0, true)));
  });
  input.resume();

  if (o.screen) {
    redrawTimer = setInterval(redraw, REDRAW_MS);
    (o.output as NodeJS.WriteStream).on("resize", () => {
      write("\x1b[2J"); // a resized terminal may have reflowed the old frame: start clean
      lastFrame = "";
      redraw();
    });
    redraw();
  } else statusTimer = setInterval(reportChange, STATUS_POLL_MS);

  const onSignal = (): void => quit(0, true);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  process.once("SIGHUP", onSignal); // the terminal went away: save as q would
  return { host, done, quit: () => quit(0, true) };
}
