/**
 * The Device tab: a board over Web Serial, in three steps that read in order (deviceSteps.ts): 1
 * Espruino on the board (espruinoInstaller.ts), 2 the pet firmware, 3 the live pet; the step the board
 * needs is opened once the page knows. Connect talks to Espruino's console at 115200 baud, shows what
 * the board is (process.env VERSION and BOARD) and refuses a board or version the profiles do not
 * cover; Upload keeps a backup of the pet's region, then puts the ESP32 firmware built into the page
 * into Storage `.bootcde` (protocol.ts) with a progress bar, checks it by CRC and loads it; the live
 * pet is then drawn from pet.status() every second, with its actions (petActions.ts), backups, and
 * the copies between the board and the simulator.
 */
import type { BoardProfile } from "../../boards/boardProfile";
import type { LoadedProfile } from "../../inspect/regionReport";
import type { Announcer } from "../announcer";
import { backUpFirst } from "../backups/backupFirst";
import { regionSummary } from "../backups/regionSummary";
import { byId, download } from "../dom";
import { wireBoardCopies } from "./boardCopies";
import { createSteps } from "./deviceSteps";
import { NO_PORT, serialMissing } from "./deviceWords";
import { startEspruinoInstaller, type EspruinoInstaller } from "./espruinoInstaller";
import { wirePetActions, type PetActionHooks, type PetCall } from "./petActions";
import { paintPetFace } from "./petFace";
import { uploadPet } from "./petUpload";
import { bundleForVersion } from "../../boards/bundleForm";
import * as P from "./protocol";
import { pullRegion } from "./pullRegion";
import { LinkError, openLink, type PortLike, type SerialLink } from "./serialLink";

const IDENTIFY_MS = 3000;
const ACK_MS = 5000;
const BOOT_MS = 10000;
const STATUS_EVERY_MS = 1000;

interface SerialLike {
  requestPort(options?: unknown): Promise<PortLike>;
}

export interface DeviceHooks {
  say: Announcer;
  simulator: {
    /** Loads a region image into the simulator (asks, keeps a backup); says how it went. */
    putImage(bytes: Uint8Array, name: string): Promise<string>;
    exportHex(): Promise<string>;
  };
  /** The live pet appeared or went (the Backups tab's "Onto the board" follows it). */
  changed(): void;
}

export interface DeviceTab {
  espruino: EspruinoInstaller;
  /** Puts the current save of a region image onto the board, or null while no pet runs there. */
  toBoard(): ((bytes: Uint8Array, name: string) => Promise<string>) | null;
}

export function startDeviceTab(code: string, region: LoadedProfile, hooks: DeviceHooks): DeviceTab {
  const board: BoardProfile = region.profile;
  const support = byId("dev-support", HTMLParagraphElement);
  const connectBtn = byId("dev-connect", HTMLButtonElement);
  const disconnectBtn = byId("dev-disconnect", HTMLButtonElement);
  const info = byId("dev-info", HTMLParagraphElement);
  const uploadBtn = byId("dev-upload", HTMLButtonElement);
  const progress = byId("dev-progress", HTMLProgressElement);
  const canvas = byId("dev-oled", HTMLCanvasElement);
  const statusOut = byId("dev-status", HTMLParagraphElement);
  const clockOut = byId("dev-clock", HTMLParagraphElement);
  const log = byId("dev-log", HTMLPreElement);
  const petButtons = ["dev-interact", "dev-save", "dev-rename", "dev-hatch", "dev-download", "dev-download-bin", "dev-to-sim", "dev-from-sim"].map((id) => byId(id, HTMLButtonElement));
  const imageBtn = byId("dev-download-image", HTMLButtonElement);
  const restore = byId("dev-restore", HTMLInputElement);
  const steps = createSteps();

  let link: SerialLink | null = null;
  let busy = false; // one exchange at a time: the console is a single conversation
  let poller: ReturnType<typeof setInterval> | null = null;
  let petRunning = false;
  const say = (text: string, bad = false): void => {
    info.textContent = text;
    info.classList.toggle("rejected", bad);
    info.dataset.state = bad ? "error" : "ok";
    hooks.say.now(text);
  };
  const note = (line: string): void => {
    if (log.parentElement) log.parentElement.hidden = false;
    log.textContent = (log.textContent + line + "\n").split("\n").slice(-40).join("\n");
  };
  const setPet = (on: boolean): void => {
    for (const b of petButtons) b.disabled = !on;
    imageBtn.disabled = link === null; // the region can be read whether or not a pet runs
    restore.disabled = !on;
    if (on !== petRunning) {
      petRunning = on;
      if (on) {
        steps.mark("firmware", "done: the pet runs on the board");
        steps.mark("pet", "running");
        steps.open("pet");
      } else if (link !== null) {
        steps.mark("firmware", "ready to upload");
        steps.mark("pet", "no pet on the board yet");
        steps.open("firmware");
      }
      hooks.changed();
    }
  };

  const serial = (navigator as unknown as { serial?: SerialLike }).serial;
  const missing = serialMissing(serial);

  async function exchange<T>(text: string, pick: (line: string) => T | null, ms: number, what: string): Promise<T> {
    if (!link) throw new LinkError("not connected", "lost");
    const answer = link.waitFor(pick, ms, what);
    await link.send(text);
    return answer;
  }

  /** Runs `f` as the console's only conversation (a status poll may be under way). */
  async function exclusive<T>(f: () => Promise<T>): Promise<T> {
    while (busy) await new Promise((r) => setTimeout(r, 50));
    busy = true;
    try {
      return await f();
    } finally {
      busy = false;
    }
  }

  async function drop(message: string): Promise<void> {
    if (poller) clearInterval(poller);
    poller = null;
    const l = link;
    link = null;
    setPet(false);
    uploadBtn.disabled = true;
    disconnectBtn.disabled = true;
    connectBtn.disabled = missing !== null;
    imageBtn.disabled = true;
    if (l) await l.close();
    say(message, true);
  }

  async function refreshStatus(): Promise<boolean> {
    if (busy || !link) return false;
    busy = true;
    try {
      const r = await exchange(P.statusCommand(), (l) => (P.parseStatus(l).found ? P.parseStatus(l) : null), ACK_MS, "pet.status()");
      if (r.status === null) {
        statusOut.textContent = "No pet is running on this board yet: upload the firmware (step 2).";
        clockOut.textContent = "";
        delete statusOut.dataset.name;
        setPet(false);
        return false;
      }
      paintPetFace(canvas, r.status);
      const said = String(r.status.name) + " · " + String(r.status.activityName) + ", " + String(r.status.expressionName);
      if (statusOut.textContent !== said) {
        statusOut.textContent = said;
        hooks.say.update(said);
      }
      clockOut.textContent = "updates " + String(r.status.updateCount);
      statusOut.dataset.name = String(r.status.name);
      setPet(true);
      return true;
    } catch (e) {
      if (e instanceof LinkError && e.kind === "lost") await drop("Connection lost: " + e.message);
      return false;
    } finally {
      busy = false;
    }
  }

  function watchPet(): void {
    if (poller) clearInterval(poller);
    poller = setInterval(() => void refreshStatus(), STATUS_EVERY_MS);
    void refreshStatus();
  }

  /** Asks the board what it is; `patient`: it may still be booting (just written), so ask again until BOOT_MS. */
  async function identify(patient: boolean): Promise<P.BoardIdentity> {
    const deadline = Date.now() + BOOT_MS;
    for (;;) {
      try {
        return await exchange(P.identifyCommand(board.petRegion), P.parseIdentity, patient ? 1000 : IDENTIFY_MS, "process.env");
      } catch (e) {
        if (!patient || Date.now() >= deadline || (e instanceof LinkError && e.kind === "lost")) throw e;
      }
    }
  }

  /** Opens the port at the console's baud rate, identifies the board and starts watching its pet. */
  async function connectTo(port: PortLike, patient = false): Promise<boolean> {
    connectBtn.disabled = true;
    try {
      link = await openLink(port, P.BAUD, note);
    } catch (e) {
      connectBtn.disabled = false;
      say("Could not open the port: " + (e instanceof Error ? e.message : String(e)) + ". Is another program or tab using it (a serial terminal, the Arduino IDE)? Close it and connect again.", true);
      return false;
    }
    disconnectBtn.disabled = false;
    say("Asking the board what it is…");
    let id: P.BoardIdentity;
    try {
      id = await exclusive(() => identify(patient));
    } catch (e) {
      steps.mark("espruino", "needed? the board did not answer");
      steps.open("espruino");
      await drop(
        "The board did not answer (" + (e instanceof Error ? e.message : String(e)) + "). Is it running Espruino, at " + P.BAUD +
          " baud? A bare ESP32 needs Espruino first (step 1); otherwise press its EN/RST button and connect again.",
      );
      return false;
    }
    const why = P.refusal(id, board);
    if (why !== null) {
      steps.mark("espruino", "needed: Espruino " + id.version + " on " + id.board + " will not do");
      steps.open("espruino");
      await drop("Espruino " + id.version + " on " + id.board + ". " + why);
      return false;
    }
    boardVersion = id.version;
    say("Espruino " + id.version + " on " + id.board + ": supported.");
    steps.mark("espruino", "done: Espruino " + id.version);
    steps.mark("firmware", "ready to upload");
    steps.open("firmware");
    info.dataset.board = id.board;
    uploadBtn.disabled = false;
    watchPet();
    return true;
  }

  async function choosePort(): Promise<PortLike | null> {
    if (!serial) return null;
    try {
      return await serial.requestPort();
    } catch {
      say(NO_PORT, true);
      return null;
    }
  }

  connectBtn.addEventListener("click", async () => {
    const port = await choosePort();
    if (port !== null) await connectTo(port);
  });
  disconnectBtn.addEventListener("click", () => void drop("Disconnected."));

  /** The board's whole pet region, read as `pet-save pull` reads it. */
  function readRegion(): Promise<Uint8Array> {
    return exclusive(async () => {
      progress.value = 0;
      const image = await pullRegion(exchange, board.petRegion, (done) => (progress.value = Math.round((100 * done) / board.petRegion.size)));
      return image.bytes;
    });
  }
  const backUp = async (reason: string): Promise<string> => backUpFirst({ source: "board", board: region, reason, image: await readRegion() });

  /** The Espruino version the connected board reported (the bundle's form depends on it). */
  let boardVersion = "";
  let uploading = false;
  async function upload(): Promise<void> {
    if (!link || uploading) return;
    uploading = true;
    uploadBtn.disabled = true;
    try {
      await uploadPet({
        // The form this board's Espruino runs: an Espruino before 2v14 gets the function form.
        code: bundleForVersion(code, boardVersion).code,
        exchange,
        exclusive,
        send: async (text) => {
          if (link) await link.send(text);
        },
        connected: () => link !== null,
        backUp,
        say,
        progress: (percent) => (progress.value = percent),
        petGone: () => setPet(false),
        refreshStatus,
        lost: drop,
        outcome: (o) => (info.dataset.upload = o),
      });
    } finally {
      uploading = false;
      uploadBtn.disabled = link === null;
    }
    if (link) watchPet();
  }
  uploadBtn.addEventListener("click", () => void upload());

  const espruino = startEspruinoInstaller({
    region,
    choosePort,
    // The port is handed over: our console link lets go of it while esptool-js has it.
    release: async () => {
      if (link) await drop("Disconnected while Espruino is written.");
    },
    afterInstall: async (port) => {
      if (await connectTo(port, true)) await upload();
    },
  });

  const call: PetCall = async (method, args = []) => {
    if (!link) return null;
    try {
      const r = await exclusive(() => exchange(P.petCallCommand(method, args), P.parseResult, ACK_MS, "pet." + method + "()"));
      note("pet." + method + "() -> " + r);
      return r;
    } catch (e) {
      say("pet." + method + "() failed: " + (e instanceof Error ? e.message : String(e)), true);
      return null;
    } finally {
      void refreshStatus();
    }
  };
  const petHooks: PetActionHooks = { call, say, backUp, petName: () => statusOut.dataset.name || "the pet" };
  wirePetActions(petButtons, restore, petHooks);

  imageBtn.addEventListener("click", async () => {
    if (!link) return;
    imageBtn.disabled = true;
    try {
      say("Reading the pet's region from the board…");
      const bytes = await readRegion();
      download("pet-region-esp32.bin", bytes, "application/octet-stream");
      say("Downloaded the board's pet region (" + board.petRegion.size + " bytes, as pet-save pull writes it): " + regionSummary(bytes, region).text + ".");
    } catch (e) {
      say("Could not read the region: " + (e instanceof Error ? e.message : String(e)), true);
    } finally {
      imageBtn.disabled = link === null;
    }
  });

  const copies = wireBoardCopies({ region, say, readRegion, petHooks, simulator: hooks.simulator });

  if (missing !== null) {
    support.textContent = missing;
    support.classList.add("rejected");
    connectBtn.disabled = true;
    espruino.disable("Installing Espruino needs Web Serial too: " + (window.isSecureContext ? "use a desktop Chrome, Edge or Opera." : "open this page securely (see above)."));
    steps.mark("espruino", "not in this browser");
    steps.mark("firmware", "not in this browser");
    steps.mark("pet", "not in this browser");
  } else {
    support.textContent = "Plug the ESP32 in over USB, then connect. The page talks to Espruino's console at " + P.BAUD + " baud.";
  }

  return {
    espruino,
    toBoard: () => (petRunning && link !== null ? copies.toBoard : null),
  };
}
