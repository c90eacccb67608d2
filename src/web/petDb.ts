/**
 * The page's one IndexedDB database, "espruino-pet", and the few helpers every user of it needs. Its
 * stores:
 *
 *   flash     the simulator's region image, key "web-region" (src/web/sim/regionKeeper.ts)
 *   lease     which tab runs the simulator, key "simulator", where Web Locks are missing
 *             (src/web/sim/boardLease.ts)
 *   backups   region images kept before anything destructive (src/web/backups/backupStore.ts)
 *
 * Version 1 had the flash store only; opening at version 2 adds the others and keeps the pet. Only
 * the page opens it: the simulated board runs in a sandbox whose opaque origin has no way to it.
 */
export const DB_NAME = "espruino-pet";
const DB_VERSION = 2;
export const FLASH_STORE = "flash";
export const LEASE_STORE = "lease";
export const BACKUP_STORE = "backups";

export function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** Resolves when the transaction has committed (not merely when its requests succeeded). */
export function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("IndexedDB transaction aborted"));
  });
}

export function openPetDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, DB_VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains(FLASH_STORE)) db.createObjectStore(FLASH_STORE);
      if (!db.objectStoreNames.contains(LEASE_STORE)) db.createObjectStore(LEASE_STORE);
      if (!db.objectStoreNames.contains(BACKUP_STORE)) db.createObjectStore(BACKUP_STORE, { keyPath: "id", autoIncrement: true });
    };
    open.onblocked = () =>
      reject(new Error("an older copy of this page is still open in another tab and holds the browser's storage: close it, then reload this one"));
    open.onsuccess = () => {
      const db = open.result;
      // A newer copy of the page wants to upgrade the database: let it (this copy is then stale).
      db.onversionchange = () => db.close();
      resolve(db);
    };
    open.onerror = () => reject(open.error);
  });
}

let shared: Promise<IDBDatabase> | null = null;

/** The page's one connection. */
export function petDb(): Promise<IDBDatabase> {
  if (shared === null) shared = openPetDb();
  return shared;
}
