/**
 * The simulator's flash chip: the storage layer's NorFlashSim (NOR rules: erase to 0xFF, a write only
 * clears bits) over the pet region, its contents kept in IndexedDB.
 *
 * The NorFlashSim in memory is what the firmware reads and writes; after every change a snapshot of
 * the whole region is queued for IndexedDB. Snapshots are written one after the other, in order, so
 * what IndexedDB holds at any instant is the region as it was after some prefix of the firmware's
 * flash operations, never a mix: closing or reloading the tab is exactly a power cut, and the next
 * visit boots from that image through the same slot log as the board.
 */
import { NorFlashSim } from "../../storage/norFlashSim";
import type { KeyValueStore } from "./idbStore";

export interface PersistentFlash {
  flash: NorFlashSim;
  /** "restored": the image came from IndexedDB; "new": there was none (or it was not a region image), erased. */
  origin: "restored" | "new";
  /** Resolves once every change made so far is in IndexedDB. */
  settled(): Promise<void>;
  /** Replaces the whole region (a restore of a region image) and persists it. */
  replaceAll(bytes: Uint8Array): Promise<void>;
}

export async function openPersistentFlash(
  store: KeyValueStore,
  key: string,
  region: { size: number; pageSize: number },
  onPersisted: () => void,
  onError: (message: string) => void,
): Promise<PersistentFlash> {
  const stored = await store.get(key);
  const usable = stored instanceof Uint8Array && stored.length === region.size;
  let scheduled = false;
  let chain: Promise<void> = Promise.resolve();
  let flash: NorFlashSim;

  function persist(): void {
    scheduled = false;
    const snapshot = flash.image();
    chain = chain
      .then(() => store.put(key, snapshot))
      .then(onPersisted, (e: unknown) => onError("could not keep the flash in IndexedDB: " + String(e)));
  }
  function schedule(): void {
    // One snapshot per burst of writes (a save is several): the state after the burst is still a prefix.
    if (scheduled) return;
    scheduled = true;
    setTimeout(persist, 0);
  }

  flash = new NorFlashSim({
    size: region.size,
    pageSize: region.pageSize,
    initial: usable ? (stored as Uint8Array) : undefined,
    wordPadded: true,
    onChange: schedule,
  });
  return {
    flash,
    origin: usable ? "restored" : "new",
    settled: async () => {
      while (scheduled) await new Promise((r) => setTimeout(r, 0));
      await chain;
    },
    async replaceAll(bytes: Uint8Array) {
      if (bytes.length !== region.size) throw new Error("a region image is " + region.size + " bytes, this one is " + bytes.length);
      for (let a = 0; a < region.size; a += region.pageSize) flash.erasePage(a);
      flash.write(bytes, 0);
      persist();
      await chain;
    },
  };
}
