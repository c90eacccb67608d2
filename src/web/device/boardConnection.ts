/**
 * The Device tab's port for as long as it is open: choosing it, opening it at the console's baud
 * rate, asking the board what it is (and refusing a board or version the page's profile does not
 * cover), one conversation at a time over it, and letting go of it (Disconnect, a cable pulled, a
 * refused board, or esptool-js taking the port to install Espruino). It says what happened through
 * its hooks; the tab decides what the steps and the buttons show.
 */
import type { BoardProfile } from "../../boards/boardProfile";
import { NO_PORT } from "./deviceWords";
import * as P from "./protocol";
import { LinkError, openLink, type PortLike, type SerialLink } from "./serialLink";
import type { Exchange } from "./protocol";

const IDENTIFY_MS = 3000;
const BOOT_MS = 10000;

export interface SerialLike {
  requestPort(options?: unknown): Promise<PortLike>;
}

export interface ConnectionHooks {
  say(text: string, bad?: boolean): void;
  /** Every line the board sends (the console log under the steps). */
  note(line: string): void;
  /** The port is open: Disconnect can be offered. */
  opened(): void;
  /** The board answered and fits the profile. */
  identified(id: P.BoardIdentity): void;
  /** The board did not answer, or does not fit: what step 1 says about it. */
  refused(state: string): void;
  /** The port was let go of, whatever the reason. */
  closed(): void;
}

export interface BoardConnection {
  isOpen(): boolean;
  /** Sends a command line and waits for the line `pick` accepts. */
  exchange: Exchange;
  send(text: string): Promise<void>;
  /** Runs `f` as the console's only conversation, waiting for one under way. */
  exclusive<T>(f: () => Promise<T>): Promise<T>;
  /** Runs `f` only when no other conversation is under way: null otherwise (a poll skips a beat). */
  ifIdle<T>(f: () => Promise<T>): Promise<T | null>;
  /** The port the person chose, or null (said why). */
  choosePort(): Promise<PortLike | null>;
  /** Opens the port and identifies the board; `patient`: it may still be booting, so ask again for up to BOOT_MS. */
  connect(port: PortLike, patient?: boolean): Promise<boolean>;
  /** Lets go of the port, saying `message` as an error; nothing when it is let go of already. */
  drop(message: string): Promise<void>;
  /** The Espruino version the board reported when it was identified ("" before): the bundle's form depends on it. */
  version(): string;
}

export function createBoardConnection(board: BoardProfile, serial: SerialLike | undefined, h: ConnectionHooks): BoardConnection {
  let link: SerialLink | null = null;
  let version = "";
  let busy = false; // one exchange at a time: the console is a single conversation

  const exchange: Exchange = async (text, pick, ms, what) => {
    if (!link) throw new LinkError("not connected", "lost");
    return link.ask(text, pick, ms, what);
  };

  async function exclusive<T>(f: () => Promise<T>): Promise<T> {
    while (busy) await new Promise((r) => setTimeout(r, 50));
    busy = true;
    try {
      return await f();
    } finally {
      busy = false;
    }
  }

  async function ifIdle<T>(f: () => Promise<T>): Promise<T | null> {
    if (busy || !link) return null;
    busy = true;
    try {
      return await f();
    } finally {
      busy = false;
    }
  }

  async function drop(message: string): Promise<void> {
    const l = link;
    // Already let go of: a question under way then (a status poll when Disconnect was pressed) fails
    // afterwards as lost, and must not say so over the reason already given.
    if (!l) return;
    link = null;
    h.closed();
    await l.close();
    h.say(message, true);
  }

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

  async function connect(port: PortLike, patient = false): Promise<boolean> {
    try {
      link = await openLink(port, P.BAUD, h.note);
    } catch (e) {
      h.closed();
      h.say("Could not open the port: " + (e instanceof Error ? e.message : String(e)) + ". Is another program or tab using it (a serial terminal, the Arduino IDE)? Close it and connect again.", true);
      return false;
    }
    h.opened();
    h.say("Asking the board what it is…");
    let id: P.BoardIdentity;
    try {
      id = await exclusive(() => identify(patient));
    } catch (e) {
      h.refused("needed? the board did not answer");
      await drop(
        "The board did not answer (" + (e instanceof Error ? e.message : String(e)) + "). Is it running Espruino, at " + P.BAUD +
          " baud? A bare ESP32 needs Espruino first (step 1); otherwise press its EN/RST button and connect again.",
      );
      return false;
    }
    const why = P.refusal(id, board);
    if (why !== null) {
      h.refused("needed: Espruino " + id.version + " on " + id.board + " will not do");
      await drop("Espruino " + id.version + " on " + id.board + ". " + why);
      return false;
    }
    version = id.version;
    h.say("Espruino " + id.version + " on " + id.board + ": supported.");
    h.identified(id);
    return true;
  }

  async function choosePort(): Promise<PortLike | null> {
    if (!serial) return null;
    try {
      return await serial.requestPort();
    } catch {
      h.say(NO_PORT, true);
      return null;
    }
  }

  return {
    isOpen: () => link !== null,
    exchange,
    send: async (text) => {
      if (link) await link.send(text);
    },
    exclusive,
    ifIdle,
    choosePort,
    connect,
    drop,
    version: () => version,
  };
}
