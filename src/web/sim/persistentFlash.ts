/**
 * The simulator's flash chip: the storage layer's NorFlashSim (NOR rules: erase to 0xFF, a write only
 * clears bits) over the pet region, its contents kept in IndexedDB. Runs in the board's Worker.
 *
 * The NorFlashSim in memory is what the firmware reads and writes; after every burst of changes a
 * snapshot of the whole region is queued for IndexedDB. Snapshots are written one after the other, in
 * order, each in a transaction of its own, so what IndexedDB holds at any instant is the region as it
 * was after some prefix of the firmware's flash operations, never a mix: closing or reloading the
 * tab, and the watchdog's reset (the Worker is ended wherever it was), are exactly a power cut, and
 * the next boot reads that image through the same slot log as the board.
 *
 * Where the board is held by a lease (boardLease.ts), each snapshot's transaction first checks that
 * this tab still holds it and writes nothing otherwise.
 */
import { NorFlashSim } from "../../storage/norFlashSim";
import { committed, FLASH_STORE, LEASE_STORE, request } from "../petDb";
import { stillOwner, type BoardClaim } from "./boardLease";

export const REGION_KEY = "web-region";

export interface PersistentFlash {
  flash: NorFlashSim;
  /** "restored": the image came from IndexedDB; "new": there was none (or it was not a region image), erased. */
  origin: "restored" | "new";
  /** Resolves once every change made so far is in IndexedDB. */
  settled(): Promise<void>;
}

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

export async function openPersistentFlash(
  db: IDBDatabase,
  claim: BoardClaim,
  region: { size: number; pageSize: number },
  onPersisted: () => void,
  onError: (e: unknown) => void,
): Promise<PersistentFlash> {
  const stored = await loadRegion(db, region.size);
  let scheduled = false;
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();

  function persist(): void {
    scheduled = false;
    if (stopped) return;
    const snapshot = flash.image();
    chain = chain
      .then(() => (stopped ? undefined : storeRegion(db, claim, snapshot)))
      .then(
        () => {
          if (!stopped) onPersisted();
        },
        (e: unknown) => {
          if (e instanceof LeaseLost) stopped = true;
          onError(e);
        },
      );
  }
  function schedule(): void {
    // One snapshot per burst of writes (a save is several): the state after the burst is still a prefix.
    if (scheduled) return;
    scheduled = true;
    setTimeout(persist, 0);
  }

  const flash = new NorFlashSim({
    size: region.size,
    pageSize: region.pageSize,
    initial: stored === null ? undefined : stored,
    wordPadded: true,
    onChange: schedule,
  });
  return {
    flash,
    origin: stored === null ? "new" : "restored",
    settled: async () => {
      while (scheduled) await new Promise((r) => setTimeout(r, 0));
      await chain;
    },
  };
}
