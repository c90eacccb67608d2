/**
 * The page's whole side of running the simulated board, below the tab's controls: claiming the one
 * board of this browser (boardLease.ts; a second tab waits), powering it on over the flash kept in
 * IndexedDB, keeping the copies of its flash it hands over (regionKeeper.ts), renewing the lease
 * while it lives, and telling which save the browser now holds. The page reads that save itself,
 * from the bytes it wrote, so "saved" and "last save kept in this browser" are the page's own words
 * and a board cannot put them in its mouth.
 */
import type { CurrentSave } from "../../host/emulator/currentSave";
import { readCurrentSave } from "../../host/emulator/currentSave";
import type { LoadedProfile } from "../../inspect/regionReport";
import { NorFlashSim } from "../../storage/norFlashSim";
import { petDb } from "../petDb";
import { createBoardClient, type BoardClient } from "./boardClient";
import { claimBoard, HEARTBEAT_MS, renewLease, type BoardClaim } from "./boardLease";
import { createRegionKeeper, LeaseLost, loadRegion, storeRegion, type RegionKeeper } from "./regionKeeper";
import type { FrameStatus, PetMethod } from "./simProtocol";

export type SimState = "starting" | "waiting" | "running" | "failed";

export interface SimEvents {
  state(s: SimState, why?: string): void;
  /** The page's own words, for the console list. */
  pageLine(text: string): void;
  /** A line the board printed: its words, never the page's. */
  boardLine(text: string): void;
  frame(pixels: Uint8Array, led: boolean, status: FrameStatus | null): void;
  /** The save IndexedDB holds now; `changed` when it is not the one told before (worth a console line). */
  saved(save: CurrentSave, changed: boolean): void;
  /** The watchdog reset the board. */
  hung(silentMs: number): void;
}

export interface SimulatedBoard {
  /** The button pressed or let go at `at` (simProtocol.ts: the clock page and worker share). */
  button(down: boolean, at: number): void;
  evaluate(code: string): Promise<string | null>;
  call(method: PetMethod, args?: string[]): Promise<string>;
  /** The whole region as the board holds it now. */
  image(): Promise<Uint8Array>;
  /** pet.save(), then every flash change in IndexedDB, then a power cut and a new boot at `speed`. */
  restart(): Promise<void>;
  /** Replaces the whole region with `bytes`: a power cut, the image written, a new boot. */
  loadImage(bytes: Uint8Array): Promise<void>;
  /** The save this browser keeps now, read from IndexedDB (for a tab that waits). */
  keptSave(): Promise<CurrentSave | null>;
}

export function startSimulatedBoard(region: LoadedProfile, speed: () => number, events: SimEvents): SimulatedBoard {
  const petRegion = region.profile.petRegion;
  let db: IDBDatabase | null = null;
  let claim: BoardClaim | null = null;
  let keeper: RegionKeeper | null = null;
  let lastSave: CurrentSave | null = null;
  let lastRenewal = 0;
  let generation = 0;
  let heard = false;

  const saveIn = (bytes: Uint8Array): CurrentSave | null =>
    readCurrentSave(new NorFlashSim({ size: petRegion.size, pageSize: petRegion.pageSize, initial: bytes }), petRegion);

  function kept(bytes: Uint8Array): void {
    const now = saveIn(bytes);
    if (now === null) return;
    const changed = lastSave === null || now.sector !== lastSave.sector || now.slot !== lastSave.slot || now.seq !== lastSave.seq;
    lastSave = now;
    if (changed) events.saved(now, true);
  }

  function leaseLost(): void {
    if (claim === null) return;
    powerCut();
    events.pageLine("another tab took over the simulated board; this one stopped.");
    void start();
  }

  const client: BoardClient = createBoardClient(petRegion.size, {
    message(m) {
      if (m.t === "line") return events.boardLine(m.text);
      if (m.t === "flash") return keeper?.keep(m.bytes);
      if (m.t === "failed") return events.state("failed", "the board could not start: " + m.message);
      if (!heard) events.state("running");
      heard = true;
      events.frame(m.pixels, m.led, m.status);
      const now = performance.now();
      if (claim !== null && claim.mode === "lease" && db !== null && now - lastRenewal >= HEARTBEAT_MS) {
        lastRenewal = now;
        renewLease(db, claim.owner).then((ok) => (ok ? undefined : leaseLost()), () => undefined);
      }
    },
    refused() {
      events.pageLine("the board sent a message the page does not take; it was ignored, as is any other until the board is reset.");
    },
    hung(silentMs) {
      keeper?.stop();
      events.hung(silentMs);
      void powerOn();
    },
  });

  function powerCut(): void {
    client.powerCut();
    keeper?.stop();
  }

  /** Powers a board on over what IndexedDB holds, once the last board's write under way is done. */
  async function powerOn(): Promise<void> {
    const mine = ++generation;
    if (keeper !== null) await keeper.settled();
    if (db === null || claim === null || mine !== generation) return;
    const image = await loadRegion(db, petRegion.size);
    if (mine !== generation || claim === null) return;
    keeper = createRegionKeeper(db, claim, kept, (e) => (e instanceof LeaseLost ? leaseLost() : events.pageLine("could not keep the flash in IndexedDB: " + String(e))));
    lastSave = image === null ? null : saveIn(image);
    heard = false;
    events.pageLine("flash region " + (image !== null ? "restored from this browser's storage" : "new (erased)") + ", " + petRegion.size + " bytes");
    if (lastSave !== null) events.saved(lastSave, false);
    client.powerOn(speed(), image);
  }

  /** Claims the board (waiting if another tab has it), then powers it on. */
  async function start(): Promise<void> {
    try {
      // The board's sandbox loads while the lease and the flash are read, once the page has been
      // painted (made before, it held the first paint back).
      let waits = false;
      requestAnimationFrame(() => setTimeout(() => client.prepare(!waits), 0));
      if (db === null) db = await petDb();
      claim = null;
      const c = await claimBoard(db, () => {
        waits = true;
        client.prepare(false); // a waiting tab holds no board
        events.state("waiting");
      });
      claim = c;
      await powerOn();
    } catch (e) {
      events.state("failed", e instanceof Error ? e.message : String(e));
    }
  }

  events.state("starting");
  void start();

  return {
    button: (down, at) => client.button(down, at),
    evaluate: (code) => client.evaluate(code),
    call: (method, args) => client.call(method, args),
    image: () => client.image(),
    async restart() {
      if (!client.isOn()) return;
      try {
        events.pageLine("pet.save() answered " + JSON.stringify(await client.call("save")));
        await client.settled();
        await keeper?.settled();
      } catch (e) {
        events.pageLine(e instanceof Error ? e.message : String(e));
      }
      powerCut();
      events.pageLine("board restarted at speed x" + speed());
      await powerOn();
    },
    async loadImage(bytes) {
      if (db === null || claim === null || !client.isOn()) throw new Error("the simulator is not running in this tab");
      powerCut();
      await keeper?.settled();
      try {
        await storeRegion(db, claim, bytes);
      } catch (e) {
        if (e instanceof LeaseLost) leaseLost();
        else void powerOn();
        throw e;
      }
      events.pageLine("the simulator's region was replaced by an image; the board boots from it");
      await powerOn();
    },
    async keptSave() {
      if (db === null) db = await petDb();
      const image = await loadRegion(db, petRegion.size);
      return image === null ? null : saveIn(image);
    },
  };
}
