/**
 * The simulator's flash as the browser keeps it: the region image in IndexedDB (store "flash", key
 * REGION_KEY), read when a board powers on and written from the copies the board hands over after
 * every burst of writes (worker/boardFlash.ts). The board runs in a sandbox that cannot reach
 * IndexedDB, so the page does the keeping.
 *
 * Copies are written one after the other, in order, each in a transaction of its own; while one is
 * being written, a newer copy replaces any still waiting (the newest state after a burst is as much a
 * prefix of the firmware's flash operations as the one before it). So what IndexedDB holds at any
 * instant is the region as it was after some prefix of those operations, never a mix: closing or
 * reloading the tab, and the watchdog's reset, are exactly a power cut, and the next boot reads that
 * image through the same slot log as the board.
 *
 * Where the board is held by a lease (boardLease.ts), each write's transaction first checks that
 * this tab still holds it and writes nothing otherwise.
 */
import { committed, FLASH_STORE, LEASE_STORE, request } from "../petDb";
import { stillOwner, type BoardClaim } from "./boardLease";

export const REGION_KEY = "web-region";

/** Thrown (as a rejection) when the lease was lost: the snapshot was not written. */
export class LeaseLost extends Error {
  constructor() {
    super("another tab has taken the simulated board");
    this.name = "LeaseLost";
  }
}

/** The stored region image, or null when there is none of this size. */
export async function loadRegion(db: IDBDatabase, size: number): Promise<Uint8Array | null> {
  const stored = await request(db.transaction(FLASH_STORE, "readonly").objectStore(FLASH_STORE).get(REGION_KEY));
  return stored instanceof Uint8Array && stored.length === size ? stored : null;
}

/** Writes the whole region image in one transaction, checking the lease first where there is one. */
export async function storeRegion(db: IDBDatabase, claim: BoardClaim, bytes: Uint8Array): Promise<void> {
  const tx = db.transaction(claim.mode === "lease" ? [FLASH_STORE, LEASE_STORE] : [FLASH_STORE], "readwrite");
  const done = committed(tx);
  if (claim.mode === "lease" && !(await stillOwner(tx, claim.owner))) {
    tx.abort();
    await done.catch(() => undefined);
    throw new LeaseLost();
  }
  tx.objectStore(FLASH_STORE).put(bytes, REGION_KEY);
  await done;
}

export interface RegionKeeper {
  /** A copy of the region from the board, to be written after those before it. */
  keep(bytes: Uint8Array): void;
  /** Resolves once every copy handed over so far is in IndexedDB (or was replaced by a newer one that is). */
  settled(): Promise<void>;
  /** The board is off: copies still waiting are dropped (a power cut); one being written finishes. */
  stop(): void;
}

/** `kept` hears each copy once it is in IndexedDB; `failed` a write that failed (LeaseLost: the lease is gone, and the keeper stops). */
export function createRegionKeeper(db: IDBDatabase, claim: BoardClaim, kept: (bytes: Uint8Array) => void, failed: (e: unknown) => void): RegionKeeper {
  let waiting: Uint8Array | null = null;
  let writing: Promise<void> | null = null;
  let stopped = false;

  async function writeAll(): Promise<void> {
    while (waiting !== null && !stopped) {
      const bytes = waiting;
      waiting = null;
      try {
        await storeRegion(db, claim, bytes);
        if (!stopped) kept(bytes);
      } catch (e) {
        if (e instanceof LeaseLost) stopped = true;
        failed(e);
      }
    }
    writing = null;
  }

  return {
    keep(bytes) {
      if (stopped) return;
      waiting = bytes;
      if (writing === null) writing = writeAll();
    },
    async settled() {
      while (writing !== null) await writing;
    },
    stop() {
      stopped = true;
      waiting = null;
    },
  };
}
