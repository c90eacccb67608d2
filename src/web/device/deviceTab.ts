/**
 * The Device tab: a board over Web Serial, in three steps that read in order (deviceSteps.ts): 1
 * Espruino on the board (espruinoInstaller.ts), 2 the pet firmware (uploadStep.ts), 3 the live pet
 * (livePet.ts, with its actions in petActions.ts and the copies in boardCopies.ts). This file only
 * joins them: the port's life is boardConnection.ts, the region over the console boardRegion.ts. It
 * opens the step the board needs once the page knows, and keeps the buttons to what can be done now.
 */
import type { LoadedProfile } from "../../inspect/regionReport";
import type { Announcer } from "../announcer";
import { byId } from "../dom";
import { wireNameField } from "../nameField";
import { createBoardConnection, type SerialLike } from "./boardConnection";
import { wireBoardCopies } from "./boardCopies";
import { wireBoardRegion } from "./boardRegion";
import { createSteps } from "./deviceSteps";
import { serialMissing } from "./deviceWords";
import { startEspruinoInstaller, type EspruinoInstaller } from "./espruinoInstaller";
import { startLivePet } from "./livePet";
import { wirePetActions, type PetActionHooks, type PetCall } from "./petActions";
import * as P from "./protocol";
import { wireUploadStep } from "./uploadStep";

const ACK_MS = 5000;

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
  /** Whether the simulator runs in this tab (the copies to and from it need it). */
  simulatorRunning(on: boolean): void;
  /** Puts the current save of a region image onto the board, or null while no pet runs there. */
  toBoard(): ((bytes: Uint8Array, name: string) => Promise<string>) | null;
}

export function startDeviceTab(code: string, region: LoadedProfile, hooks: DeviceHooks): DeviceTab {
  const support = byId("dev-support", HTMLParagraphElement);
  const connectBtn = byId("dev-connect", HTMLButtonElement);
  const disconnectBtn = byId("dev-disconnect", HTMLButtonElement);
  const info = byId("dev-info", HTMLParagraphElement);
  const log = byId("dev-log", HTMLPreElement);
  const petButtons = ["dev-interact", "dev-save", "dev-download", "dev-download-bin"].map((id) => byId(id, HTMLButtonElement));
  const copyButtons = ["dev-to-sim", "dev-from-sim"].map((id) => byId(id, HTMLButtonElement));
  const simElsewhere = byId("dev-sim-elsewhere", HTMLParagraphElement);
  const restore = byId("dev-restore", HTMLInputElement);
  const steps = createSteps();
  const serial = (navigator as unknown as { serial?: SerialLike }).serial;
  const missing = serialMissing(serial);

  let petRunning = false;
  let simRunning = false;
  /** The copies need the pet on the board and the simulator running in this tab. */
  const setCopies = (): void => {
    for (const b of copyButtons) b.disabled = !(petRunning && simRunning);
    simElsewhere.hidden = simRunning;
  };
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
    restore.disabled = !on;
    naming.enable(on);
    if (on === petRunning) return;
    petRunning = on;
    setCopies();
    if (on) {
      steps.mark("firmware", "done: the pet runs on the board");
      steps.mark("pet", "running");
      steps.open("pet");
    } else if (conn.isOpen()) {
      steps.mark("firmware", "ready to upload");
      steps.mark("pet", "no pet on the board yet");
      steps.open("firmware");
    }
    hooks.changed();
  };

  const conn = createBoardConnection(region.profile, serial, {
    say,
    note,
    opened() {
      disconnectBtn.disabled = false;
      boardRegion.enable(true);
    },
    identified(id) {
      steps.mark("espruino", "done: Espruino " + id.version);
      steps.mark("firmware", "ready to upload");
      steps.open("firmware");
      info.dataset.board = id.board;
      uploadStep.enable(true);
      live.watch();
    },
    refused(state) {
      steps.mark("espruino", state);
      steps.open("espruino");
    },
    closed() {
      live.stop();
      setPet(false);
      uploadStep.enable(false);
      disconnectBtn.disabled = true;
      connectBtn.disabled = missing !== null;
      boardRegion.enable(false);
    },
  });
  const live = startLivePet(conn, hooks.say, setPet);
  const boardRegion = wireBoardRegion(conn, region, say);
  const uploadStep = wireUploadStep({ code, conn, live, backUp: boardRegion.backUp, say, petGone: () => setPet(false) });

  async function connect(port: Parameters<typeof conn.connect>[0], patient = false): Promise<boolean> {
    connectBtn.disabled = true;
    return conn.connect(port, patient);
  }
  connectBtn.addEventListener("click", async () => {
    const port = await conn.choosePort();
    if (port !== null) await connect(port);
  });
  disconnectBtn.addEventListener("click", () => void conn.drop("Disconnected."));

  const espruino = startEspruinoInstaller({
    region,
    choosePort: conn.choosePort,
    // The port is handed over: our console link lets go of it while esptool-js has it.
    release: async () => {
      if (conn.isOpen()) await conn.drop("Disconnected while Espruino is written.");
    },
    afterInstall: async (port) => {
      if (await connect(port, true)) await uploadStep.upload();
    },
  });

  const call: PetCall = async (method, args = []) => {
    if (!conn.isOpen()) return null;
    try {
      const r = await conn.exclusive(() => conn.exchange(P.petCallCommand(method, args), P.parseResult, ACK_MS, "pet." + method + "()"));
      note("pet." + method + "() -> " + r);
      return r;
    } catch (e) {
      say("pet." + method + "() failed: " + (e instanceof Error ? e.message : String(e)), true);
      return null;
    } finally {
      void live.refresh();
    }
  };
  const petHooks: PetActionHooks = { call, say, backUp: boardRegion.backUp, petName: () => live.name() || "the pet" };
  wirePetActions(petButtons, restore, petHooks);
  const naming = wireNameField("dev", region.profile.defaultPetName || "Pip", {
    call: (method, args) => call(method, args),
    backUp: boardRegion.backUp,
    petName: petHooks.petName,
    where: "the board",
    say,
  });
  const copies = wireBoardCopies({ region, say, readRegion: boardRegion.read, petHooks, simulator: hooks.simulator });

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
    simulatorRunning(on) {
      simRunning = on;
      setCopies();
    },
    toBoard: () => (petRunning && conn.isOpen() ? copies.toBoard : null),
  };
}
