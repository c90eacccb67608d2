/**
 * Espruino's own ESP32 firmware on Espressif's emulated ESP32, as a board on the desk with a power
 * switch: the kit beside the repository (../shared/esp32-qemu, its README) runs the Xtensa binary
 * people flash (Espruino 2v06.63 on ESP-IDF 3.1.3, with its bootloader and partition table) in QEMU's
 * `esp32` machine, whose SPI flash is a 4 MiB file and whose UART0, the console, is a tcp port.
 * Killing QEMU is a power cut of the chip while it runs. The chip tests, the bench's chip section and
 * the soak's cut script use it; nothing of QEMU or the firmware is in this repository.
 *
 * - findKit(): the kit (env ESP32_QEMU_KIT, else ../shared/esp32-qemu beside the package) and its
 *   QEMU (env ESP32_QEMU, else what the kit's build.sh has cached, which it builds once: 2-3 min).
 *   Without them, KitMissing says in one line how to get them.
 * - makeFlashImage(file, kind): a fresh 4 MiB image: Espruino installed (bootloader, partition
 *   table, radios-off NVS, firmware), or erased as a blank chip, or only the radios-off NVS
 *   partition, by the kit's mkimage.py.
 * - startChip(image, options): QEMU on the image (run.sh), console on a tcp port (the same port
 *   again after a cut when asked), optionally counting Xtensa instructions or in ROM download mode.
 *   powerCut() kills it (SIGKILL) and waits until it is gone; stop() quits it.
 * - waitForPrompt(chip): the console answers `>` (the chip booted Espruino); a chip that does not
 *   within the limit fails with the path of QEMU's log and what the console printed.
 *
 * The emulator's timing is not a chip's: under host load a core's thread can be starved long enough
 * for the firmware's interrupt watchdog to fire (so the chip runs with its watchdogs off,
 * WATCHDOGS_OFF), or the two cores deadlock in ESP-IDF's start-up. waitForPrompt powers on again a start-up that
 * stopped before Espruino ran, and counts it, so that a test can say what happened instead of taking
 * it for the product's fault.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { dirname, join, resolve } from "node:path";
import { packageRoot } from "../packageRoot";

/** How to get the kit, in one line (said whenever it is missing). */
export const KIT_HOWTO =
  "the emulated ESP32 needs the kit in ../shared/esp32-qemu beside the repository (or ESP32_QEMU_KIT=DIR) and its QEMU, built once with ESP32_QEMU=$(../shared/esp32-qemu/build.sh | tail -1) (2-3 min; the kit's README says what it installs)";

export class KitMissing extends Error {
  constructor(why: string) {
    super(why + ": " + KIT_HOWTO);
    this.name = "KitMissing";
  }
}

export interface Kit {
  dir: string;
  /** qemu-system-xtensa, with the kit's instruction-counting plugin beside it. */
  qemu: string;
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (e, out, err) =>
      done({ code: e ? (typeof e.code === "number" ? e.code : 1) : 0, out: String(out), err: String(err) }),
    );
  });
}

/** The kit's folder: ESP32_QEMU_KIT, else ../shared/esp32-qemu beside the package; null when absent. */
export function kitDir(): string | null {
  const dir = process.env.ESP32_QEMU_KIT ? resolve(process.env.ESP32_QEMU_KIT) : join(packageRoot(), "..", "shared", "esp32-qemu");
  return existsSync(join(dir, "run.sh")) && existsSync(join(dir, "mkimage.py")) ? dir : null;
}

/**
 * The kit and its QEMU. ESP32_QEMU names the binary; without it the kit's build.sh answers the cached
 * one, building it first when `build` is true (otherwise a missing build is KitMissing).
 */
export async function findKit({ build = false } = {}): Promise<Kit> {
  const dir = kitDir();
  if (dir === null) throw new KitMissing("no esp32-qemu kit found");
  let qemu = process.env.ESP32_QEMU ?? "";
  if (qemu === "") {
    if (!build) throw new KitMissing("ESP32_QEMU is not set");
    const r = await run(join(dir, "build.sh"), [], 15 * 60 * 1000);
    const lines = r.out.trim().split("\n");
    qemu = lines[lines.length - 1] ?? "";
    if (r.code !== 0 || !existsSync(qemu)) throw new KitMissing("the kit's build.sh failed (" + (r.err.trim().split("\n").pop() ?? "") + ")");
  }
  if (!existsSync(qemu)) throw new KitMissing("ESP32_QEMU=" + qemu + " does not exist");
  return { dir, qemu };
}

/** What a fresh image holds: Espruino installed as the kit ships it, a blank (erased) chip, or the radios-off NVS partition alone. */
export type ImageKind = "espruino" | "erased" | "nvs";

export async function makeFlashImage(kit: Kit, file: string, kind: ImageKind = "espruino"): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  const args = [join(kit.dir, "mkimage.py")].concat(kind === "erased" ? ["--erased"] : kind === "nvs" ? ["--nvs"] : [], [file]);
  const r = await run("python3", args, 60_000);
  if (r.code !== 0) throw new Error("mkimage.py failed: " + (r.err || r.out).trim());
}

export interface ChipOptions {
  /** The console's tcp port (default: a free one); after a cut the chip comes back on the same port. */
  port?: number;
  /** Count Xtensa instructions (the kit's plugin): the socket to read them from. */
  countInsns?: string;
  /** GPIO0 strapped low: the ROM waits in UART download mode (esptool). */
  download?: boolean;
  /**
   * The chip starts only once something connects to its console (run.sh --wait), so that nothing it
   * prints from power-on is lost, as with a USB-serial adapter that is always there.
   */
  wait?: boolean;
}

export interface Chip {
  image: string;
  /** QEMU's process id now. */
  readonly pid: number;
  /** The console's tcp port (it stays the same across cuts). */
  readonly port: number;
  /** tcp://127.0.0.1:PORT, as the product's commands take a port. */
  readonly consoleUrl: string;
  /** The monitor's unix socket. */
  readonly monitor: string;
  /** QEMU's own log (what to look at when it does not boot). */
  readonly log: string;
  /** The instruction counter's socket (countInsns), or "". */
  readonly insns: string;
  /** Start-ups that panicked or stopped in ESP-IDF before Espruino ran, and were powered on again (waitForPrompt). */
  earlyPanics: number;
  /** SIGKILL: a power cut of the chip while it runs; resolves once QEMU is gone. `whileOff` runs with the power off; then the chip starts again unless `stayOff`. */
  powerCut(whileOff?: () => void | Promise<void>, stayOff?: boolean): Promise<void>;
  /** Starts QEMU again on the same image and port (after powerCut(_, true)). */
  powerOn(): Promise<void>;
  /** Quits QEMU (a clean stop, as at the end of a test). */
  stop(): Promise<void>;
}

/**
 * ESP-IDF 3.1 on the emulated chip needs both of its cores' threads running at once: when the host
 * runs one and not the other (a loaded 2-core machine), the cores' cross-core handshakes panic in the
 * interrupt watchdog or deadlock, in the start-up (see STARTUP_HANG_MS) and now and then in a flash
 * write later. So QEMU runs at real-time priority (SCHED_RR 1, chrt) where the host allows it (root,
 * as in CI). Measured on this 2-core machine with both cores kept busy by two shell loops: 6 of 6
 * start-ups reached the prompt at real-time priority, 3 of 6 without it (the rest deadlocked), none
 * pinned to one core. The cost: an idle Espruino polls, so QEMU keeps one host core busy at that
 * priority; the host's other core and the kernel's real-time throttling (5 %) serve everything else.
 */
/**
 * The emulated chip's watchdog timers off (QEMU's timer-group property). Even at real-time priority
 * the host now and then leaves one emulated core's thread unrun for longer than ESP-IDF's interrupt
 * watchdog allows while the other waits for it inside a flash operation, and the chip panics
 * ("Interrupt wdt timeout on CPU0") and reboots mid-command: with two busy loops beside it, the
 * first 64 KiB pull panicked after 6 s; with the watchdogs off, four pulls in a row finished. A
 * board's cores are never descheduled, and nothing of the pet can hold the interrupts off that long
 * (its JavaScript runs between them), so this hides only the emulator's stalls. A start-up that
 * stalls is caught by STARTUP_HANG_MS (with the watchdogs off, a panic there is no longer the sign).
 */
export const WATCHDOGS_OFF = ["-global", "driver=timer.esp32.timg,property=wdt_disable,value=true"];

let realtime: Promise<boolean> | null = null;
function realtimeAllowed(): Promise<boolean> {
  realtime ??= run("chrt", ["-r", "1", "true"], 5000).then((r) => r.code === 0);
  return realtime;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (alive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
}

/** Starts QEMU on `image` with run.sh: the chip runs from that moment (boot to the prompt takes about 6 s). */
export async function startChip(kit: Kit, image: string, options: ChipOptions = {}): Promise<Chip> {
  const abs = resolve(image);
  const port = options.port ?? (await freePort());
  const log = abs + ".qemu.log";
  const state = { pid: 0, monitor: "", insns: "" };

  async function launch(): Promise<void> {
    const args = ["--port", String(port), "--qemu", kit.qemu, "--log", log];
    // The ROM's download mode runs one core and waits for esptool: nothing to protect.
    const realtime = !options.download && (await realtimeAllowed());
    if (options.countInsns) args.push("--count-insns", options.countInsns);
    if (options.download) args.push("--download");
    if (options.wait) args.push("--wait");
    args.push(abs, "--", ...WATCHDOGS_OFF);
    // QEMU locks its image: a second one may be refused for a moment after the first is killed.
    for (let attempt = 0; ; attempt++) {
      const r = realtime ? await run("chrt", ["-r", "1", join(kit.dir, "run.sh")].concat(args), 60_000) : await run(join(kit.dir, "run.sh"), args, 60_000);
      const vars = Object.fromEntries([...r.out.matchAll(/^([A-Z_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
      if (r.code === 0 && vars.QEMU_PID) {
        state.pid = Number(vars.QEMU_PID);
        state.monitor = vars.MONITOR ?? "";
        state.insns = vars.INSNS ?? "";
        // Without real-time priority, QEMU's threads at least ahead of other work.
        if (!realtime) await run("sh", ["-c", "for t in /proc/" + state.pid + "/task/*; do renice -n -5 -p ${t##*/} >/dev/null 2>&1; done; true"], 5000);
        return;
      }
      if (attempt >= 4) throw new Error("QEMU did not start on " + abs + ": " + (r.err || r.out).trim().split("\n").slice(-3).join(" / ") + " (log: " + log + ")");
      await new Promise((done) => setTimeout(done, 1000));
    }
  }

  await launch();
  return {
    image: abs,
    get pid() {
      return state.pid;
    },
    port,
    consoleUrl: "tcp://127.0.0.1:" + port,
    get monitor() {
      return state.monitor;
    },
    log,
    get insns() {
      return state.insns;
    },
    earlyPanics: 0,
    async powerCut(whileOff, stayOff = false) {
      if (alive(state.pid)) process.kill(state.pid, "SIGKILL");
      await gone(state.pid, 10_000);
      if (whileOff) await whileOff();
      if (!stayOff) await launch();
    },
    powerOn: launch,
    async stop() {
      if (alive(state.pid)) process.kill(state.pid, "SIGTERM");
      await gone(state.pid, 5000);
      if (alive(state.pid)) process.kill(state.pid, "SIGKILL");
      await gone(state.pid, 5000);
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address() as { port: number };
      s.close(() => done(a.port));
    });
  });
}

/** Power-ons more a start-up that stopped may take (STARTUP_HANG_MS, PROMPT_HANG_MS). */
const STARTUP_RETRIES = 3;
/** What Espruino prints once it runs (its banner, the radios-off warnings, a prompt). */
const ESPRUINO_RAN = /espruino\.com|WARNING: Bluetooth|ERROR: Socket|\n>/;
/**
 * A start-up that has printed nothing from Espruino this long after the power came on has stopped:
 * under host load the emulated cores can deadlock in ESP-IDF 3.1's cross-core DPORT stall handshake
 * right after the ROM's "entry 0x40080274" (found on the emulated chip: core 0 waits for core 1 to
 * enter the stall, core 1 sits in the stall's level-4 interrupt from an earlier request, both
 * forever, watchdogs or not; the kit's README notes the same handshake's deadlock with the radios
 * on). On a quiet host Espruino speaks about 5 s after the entry line; 15 s is three times that.
 */
const STARTUP_HANG_MS = 15_000;
/**
 * A start-up in which Espruino has spoken but gives no prompt this long after the power came on has
 * stopped too: the same deadlock later in the start-up (seen once on a quiet host, the radios-off
 * warning and then nothing for 60 s, with the watchdogs off). A board's boot to the pet's prompt
 * takes about 7 s here; a boot that hangs every time (the product's) still fails after the retries.
 */
const PROMPT_HANG_MS = 30_000;

/**
 * The start-up rule, one for every caller that powers the emulated chip on (waitForPrompt here, the
 * install test's USB-serial bridge, and test/fixtures/chip-power-cycle.sh, which is shell and says
 * the same): given what the console printed since power-on, `ms` after it, has the start-up stopped
 * in the emulator (STARTUP_HANG_MS, PROMPT_HANG_MS)? A prompt ends the start-up (startupDone).
 */
export function startupStopped(printed: string, ms: number): boolean {
  return !startupDone(printed) && ms >= (ESPRUINO_RAN.test(printed) ? PROMPT_HANG_MS : STARTUP_HANG_MS);
}

/** The start-up is over: Espruino printed its prompt (after the boot's .bootcde, or its banner). */
export function startupDone(printed: string): boolean {
  return /(^|[\r\n])>/.test(printed);
}

/**
 * Connects to the chip's console and waits until it answers a prompt (`>`), nudging it with Enter
 * every 2 s as the kit's espcon.py does (what the chip prints while nobody is connected is lost).
 * Resolves with everything the console printed meanwhile; a chip that gives no prompt within `ms`
 * fails naming QEMU's log and the console's last words. A start-up that panics or stops before
 * Espruino runs is the emulator's (STARTUP_HANG_MS), not the product's: the chip is
 * powered on again, three times at most, and `chip.earlyPanics` counts it.
 */
export async function waitForPrompt(chip: Chip, ms = 60_000): Promise<string> {
  const end = Date.now() + ms;
  let text = "";
  let retries = 0;
  let poweredAt = Date.now();
  const stopped = (): boolean => startupStopped(text, Date.now() - poweredAt);
  while (Date.now() < end) {
    if (stopped()) {
      if (retries >= STARTUP_RETRIES) break;
      retries++;
      chip.earlyPanics++;
      text = "";
      await chip.powerCut();
      poweredAt = Date.now();
      continue;
    }
    let sock: Socket;
    try {
      sock = await new Promise<Socket>((done, fail) => {
        const s = connect(chip.port, "127.0.0.1", () => done(s));
        s.once("error", fail);
      });
    } catch {
      await new Promise((r) => setTimeout(r, 300));
      continue;
    }
    try {
      const got = await new Promise<boolean>((done) => {
        const timer = setInterval(() => {
          if (stopped()) finish(false);
          else sock.write("\r");
        }, 2000);
        const stop = setTimeout(() => finish(false), Math.max(0, end - Date.now()));
        function finish(ok: boolean): void {
          clearInterval(timer);
          clearTimeout(stop);
          done(ok);
        }
        sock.on("data", (d: Buffer) => {
          text += d.toString("latin1");
          if (/\n>\s*$/.test(text) || /^>\s*$/.test(text)) finish(true);
          else if (stopped()) finish(false);
        });
        sock.on("close", () => finish(false));
        sock.write("\r");
      });
      if (got) return text;
    } finally {
      sock.destroy();
    }
  }
  const tail = text.replace(/\s+/g, " ").slice(-300);
  const restarts = retries > 0 ? "; " + retries + " start-up(s) stopped (no Espruino within " + STARTUP_HANG_MS / 1000 + " s, or no prompt within " + PROMPT_HANG_MS / 1000 + " s) and were powered on again" : "";
  throw new Error("the emulated ESP32 gave no Espruino prompt within " + ms / 1000 + " s (QEMU's log: " + chip.log + "; the console printed: " + (tail || "nothing") + restarts + ")");
}

/**
 * The kit's running instruction counts (run.sh --count-insns): TOTAL, CPU0, CPU1, MARKED, WINDOWS
 * (its README, "Counting instructions"). MARKED grows only between the two marker calls.
 */
export function readInsns(socketPath: string): Promise<number[]> {
  return new Promise((done, fail) => {
    const s = connect(socketPath);
    let buf = "";
    s.on("data", (d) => (buf += d.toString()));
    s.on("end", () => done(buf.trim().split(/\s+/).map(Number)));
    s.on("error", fail);
  });
}
