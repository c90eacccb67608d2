/**
 * The Device tab: a board running Espruino, over Web Serial at 115200 baud. Connect shows what the
 * board is (process.env VERSION and BOARD) and refuses a board or version the profiles do not cover;
 * Upload puts the ESP32 firmware built into the page into Storage `.bootcde` (protocol.ts), with a
 * progress bar, checks it by CRC and loads it; then the live pet is drawn from pet.status() every
 * second, with interact, save, rename, hatch, and backups that go through the codec first.
 */
import type { BoardProfile } from "../../boards/boardProfile";
import { byId, download } from "../dom";
import { pullRegion } from "./pullRegion";
import { paintPetFace } from "./petFace";
import * as P from "./protocol";
import { LinkError, openLink, type PortLike, type SerialLink } from "./serialLink";
import { startEspruinoWriter } from "./espruinoWriter";
import { wirePetActions, type PetCall } from "./petActions";
import { UploadStopped, writeBootFile } from "./upload";

const IDENTIFY_MS = 3000;
const ACK_MS = 5000;
const BOOT_MS = 10000;
const STATUS_EVERY_MS = 1000;

interface SerialLike {
  requestPort(options?: unknown): Promise<PortLike>;
}

export function startDeviceTab(code: string, board: BoardProfile): void {
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
  const petButtons = ["dev-interact", "dev-save", "dev-rename", "dev-hatch", "dev-download", "dev-download-bin"].map((id) => byId(id, HTMLButtonElement));
  const imageBtn = byId("dev-download-image", HTMLButtonElement);
  const restore = byId("dev-restore", HTMLInputElement);

  const serial = (navigator as unknown as { serial?: SerialLike }).serial;
  if (!serial) {
    support.textContent =
      "This browser has no Web Serial, so it cannot talk to a board. Use a desktop Chrome, Edge or Opera (version 89 or later) for this tab, " +
      "or `npm run flash` from the repository. The Simulator and Check a file work here.";
    connectBtn.disabled = true;
    return;
  }
  support.textContent = "Plug the ESP32 in over USB, then connect. The page talks to Espruino's console at " + P.BAUD + " baud.";

  let link: SerialLink | null = null;
  let busy = false; // one exchange at a time: the console is a single conversation
  let poller: ReturnType<typeof setInterval> | null = null;
  const say = (text: string, bad = false): void => {
    info.textContent = text;
    info.classList.toggle("rejected", bad);
    info.dataset.state = bad ? "error" : "ok";
  };
  const note = (line: string): void => {
    log.textContent = (log.textContent + line + "\n").split("\n").slice(-40).join("\n");
  };
  const setPetButtons = (on: boolean): void => {
    for (const b of petButtons) b.disabled = !on;
    imageBtn.disabled = link === null; // the region can be read whether or not a pet runs
    restore.disabled = !on;
  };

  async function exchange<T>(text: string, pick: (line: string) => T | null, ms: number, what: string): Promise<T> {
    if (!link) throw new LinkError("not connected", "lost");
    const answer = link.waitFor(pick, ms, what);
    await link.send(text);
    return answer;
  }

  async function drop(message: string): Promise<void> {
    if (poller) clearInterval(poller);
    poller = null;
    setPetButtons(false);
    uploadBtn.disabled = true;
    disconnectBtn.disabled = true;
    connectBtn.disabled = false;
    const l = link;
    link = null;
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
        statusOut.textContent = "No pet is running on this board yet: upload the firmware.";
        clockOut.textContent = "";
        setPetButtons(false);
        return false;
      }
      paintPetFace(canvas, r.status);
      const said = String(r.status.name) + " · " + String(r.status.activityName) + ", " + String(r.status.expressionName);
      if (statusOut.textContent !== said) statusOut.textContent = said; // announced only when it changes
      clockOut.textContent = "updates " + String(r.status.updateCount);
      statusOut.dataset.name = String(r.status.name);
      setPetButtons(true);
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

  /** Opens the port at the console's baud rate, identifies the board and starts watching its pet. */
  async function connectTo(port: PortLike): Promise<boolean> {
    connectBtn.disabled = true;
    try {
      link = await openLink(port, P.BAUD, note);
    } catch (e) {
      connectBtn.disabled = false;
      say("Could not open the port: " + (e instanceof Error ? e.message : String(e)), true);
      return false;
    }
    disconnectBtn.disabled = false;
    say("Asking the board what it is…");
    let id: P.BoardIdentity;
    try {
      busy = true;
      id = await exchange(P.identifyCommand(board.petRegion), P.parseIdentity, IDENTIFY_MS, "process.env");
    } catch (e) {
      await drop(
        "The board did not answer (" + (e instanceof Error ? e.message : String(e)) + "). Is it running Espruino, at " + P.BAUD +
          " baud? A bare ESP32 needs Espruino first (below); try pressing its EN/RST button and connecting again.",
      );
      return false;
    } finally {
      busy = false;
    }
    const why = P.refusal(id, board);
    if (why !== null) {
      await drop("Espruino " + id.version + " on " + id.board + ". " + why);
      return false;
    }
    say("Espruino " + id.version + " on " + id.board + ": supported.");
    info.dataset.board = id.board;
    uploadBtn.disabled = false;
    watchPet();
    return true;
  }

  connectBtn.addEventListener("click", async () => {
    let port: PortLike;
    try {
      port = await serial.requestPort();
    } catch {
      return say("No port chosen.");
    }
    await connectTo(port);
  });

  disconnectBtn.addEventListener("click", () => void drop("Disconnected."));

  let uploading = false;
  async function upload(): Promise<void> {
    if (!link || uploading) return;
    uploading = true;
    while (busy) await new Promise((r) => setTimeout(r, 50)); // a status poll may be under way
    busy = true;
    uploadBtn.disabled = true;
    setPetButtons(false);
    progress.value = 0;
    try {
      await writeBootFile(code, exchange, ACK_MS, (done) => {
        progress.value = Math.round((100 * done) / code.length);
      });
      say("Uploaded " + code.length + " bytes; starting the pet…");
      await link.send(P.loadCommand());
      busy = false;
      const deadline = Date.now() + BOOT_MS;
      let running = false;
      while (!running && Date.now() < deadline && link) {
        running = await refreshStatus();
        if (!running) await new Promise((r) => setTimeout(r, 300));
      }
      if (running) {
        say("Uploaded and running: the pet below is live on the board.");
        info.dataset.upload = "done";
      } else {
        say("Uploaded and restarted, but no pet answered within " + BOOT_MS / 1000 + " s: see the board's lines below.", true);
        info.dataset.upload = "silent";
      }
      watchPet();
    } catch (e) {
      const stopped = e instanceof UploadStopped ? e : new UploadStopped(e, 0);
      const cut =
        "Upload stopped at byte " + stopped.done + " of " + code.length + ": " + stopped.message + ". The board was not restarted, so the old firmware keeps " +
        "running until it is reset, and the pet's save is untouched (it lives in its own flash region, which an upload never writes). " +
        "Connect again and upload before resetting the board: its .bootcde is incomplete.";
      info.dataset.upload = "failed";
      if (stopped.cause instanceof LinkError && stopped.cause.kind === "lost") await drop(cut);
      else {
        say(cut, true);
        uploadBtn.disabled = false;
      }
    } finally {
      busy = false;
      uploading = false;
    }
  }
  uploadBtn.addEventListener("click", () => void upload());

  startEspruinoWriter({
    petRegion: board.petRegion,
    requestPort: () => serial.requestPort(),
    // The port is handed over: our console link lets go of it while esptool-js has it.
    release: async () => {
      if (link) await drop("Disconnected while Espruino is written.");
    },
    afterWrite: async (port) => {
      if (await connectTo(port)) await upload();
    },
  });

  const call: PetCall = async (method, args = []) => {
    if (!link) return null;
    while (busy) await new Promise((r) => setTimeout(r, 50));
    busy = true;
    try {
      const r = await exchange(P.petCallCommand(method, args), P.parseResult, ACK_MS, "pet." + method + "()");
      note("pet." + method + "() -> " + r);
      return r;
    } catch (e) {
      say("pet." + method + "() failed: " + (e instanceof Error ? e.message : String(e)), true);
      return null;
    } finally {
      busy = false;
      void refreshStatus();
    }
  };

  wirePetActions(petButtons, restore, call, say);

  imageBtn.addEventListener("click", async () => {
    if (!link) return;
    while (busy) await new Promise((r) => setTimeout(r, 50));
    busy = true;
    imageBtn.disabled = true;
    progress.value = 0;
    try {
      say("Reading the pet's region from the board…");
      const image = await pullRegion(exchange, board.petRegion, (done) => {
        progress.value = Math.round((100 * done) / board.petRegion.size);
      });
      download("pet-region-esp32.bin", image.bytes, "application/octet-stream");
      say("Downloaded the board's pet region (" + board.petRegion.size + " bytes, as pet-save pull writes it): " + image.summary + ".");
    } catch (e) {
      say("Could not read the region: " + (e instanceof Error ? e.message : String(e)), true);
    } finally {
      busy = false;
      imageBtn.disabled = link === null;
    }
  });
}
