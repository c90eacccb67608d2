/**
 * Step 3's picture of the pet on the board: every STATUS_EVERY_MS the page asks for pet.status()
 * (only when no other conversation is under way on the console) and draws the face from it with the
 * firmware's own drawing code (petFace.ts), with its name, mood and update count in words. Whether a
 * pet answers is handed to the tab, which opens the step that applies. A lost connection found by a
 * poll lets go of the port.
 */
import type { Announcer } from "../announcer";
import { byId } from "../dom";
import type { BoardConnection } from "./boardConnection";
import { nameToString } from "../../core/name";
import { paintPetFace, statusNameBytes } from "./petFace";
import * as P from "./protocol";
import { LinkError } from "./serialLink";

const ACK_MS = 5000;
const STATUS_EVERY_MS = 1000;

export interface LivePet {
  /** Starts (or restarts) the polling, with one poll now. */
  watch(): void;
  stop(): void;
  /** One poll now; true when a pet answered. */
  refresh(): Promise<boolean>;
  /** The pet's name as last reported, or null. */
  name(): string | null;
}

export function startLivePet(conn: BoardConnection, say: Announcer, petAnswers: (running: boolean) => void): LivePet {
  const canvas = byId("dev-oled", HTMLCanvasElement);
  const statusOut = byId("dev-status", HTMLParagraphElement);
  const clockOut = byId("dev-clock", HTMLParagraphElement);
  let poller: ReturnType<typeof setInterval> | null = null;

  async function poll(): Promise<boolean> {
    const r = await conn.exchange(P.statusCommand(), (l) => (P.parseStatus(l).found ? P.parseStatus(l) : null), ACK_MS, "pet.status()");
    if (r.status === null) {
      statusOut.textContent = "No pet is running on this board yet: upload the firmware (step 2).";
      clockOut.textContent = "";
      delete statusOut.dataset.name;
      petAnswers(false);
      return false;
    }
    paintPetFace(canvas, r.status);
    const name = nameToString(statusNameBytes(r.status));
    const said = name + " · " + String(r.status.activityName) + ", " + String(r.status.expressionName);
    if (statusOut.textContent !== said) {
      statusOut.textContent = said;
      say.update(said);
    }
    clockOut.textContent = "updates " + String(r.status.updateCount);
    statusOut.dataset.name = name;
    petAnswers(true);
    return true;
  }

  async function refresh(): Promise<boolean> {
    try {
      return (await conn.ifIdle(poll)) === true;
    } catch (e) {
      if (e instanceof LinkError && e.kind === "lost") await conn.drop("Connection lost: " + e.message);
      return false;
    }
  }

  function stop(): void {
    if (poller) clearInterval(poller);
    poller = null;
  }

  return {
    watch() {
      stop();
      poller = setInterval(() => void refresh(), STATUS_EVERY_MS);
      void refresh();
    },
    stop,
    refresh,
    name: () => statusOut.dataset.name || null,
  };
}
