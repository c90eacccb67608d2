/**
 * One simulated board per browser profile, on every origin. Two tabs running the simulator would be
 * two boards sharing one flash chip, each overwriting the other's saves; so the first tab holds the
 * board and any other waits, says why, and starts by itself once the holder is gone.
 *
 * Web Locks where the browser has them (https, localhost, file://): the lock is held while the tab
 * lives and the browser lets go of it when the tab closes or dies. On a plain-http page (the page
 * served to a LAN address) Web Locks do not exist, and a lease stands in for them: a record in
 * IndexedDB (owner, expiry) taken and renewed in read-write transactions, which IndexedDB runs one at
 * a time, so two tabs can never both take it. The board's Worker renews it every second
 * (HEARTBEAT_MS) and writes a flash snapshot only in a transaction that finds it still the owner; a
 * tab that dies stops renewing and its lease lapses after LEASE_MS. A tab that closes normally
 * deletes it and says so on a BroadcastChannel, so a waiting tab starts at once.
 */
import { committed, LEASE_STORE, request } from "../petDb";

const LOCK_NAME = "espruino-pet-simulator";
const LEASE_KEY = "simulator";
const CHANNEL = "espruino-pet-simulator";
export const LEASE_MS = 4000;
export const HEARTBEAT_MS = 1000;
const POLL_MS = 1000;

/** How this tab holds the board: a Web Lock, or the lease as `owner`. */
export type BoardClaim = { mode: "lock" } | { mode: "lease"; owner: string };

interface LeaseRecord {
  owner: string;
  expires: number;
}

/** Sets the lease to `owner` if it is free, lapsed or already theirs; true when `owner` holds it now. */
export async function takeLease(db: IDBDatabase, owner: string, mayTakeFree: boolean): Promise<boolean> {
  const tx = db.transaction(LEASE_STORE, "readwrite");
  const store = tx.objectStore(LEASE_STORE);
  const held = (await request(store.get(LEASE_KEY))) as LeaseRecord | undefined;
  const now = Date.now();
  const mine = held !== undefined && held.owner === owner;
  const free = held === undefined || held.expires < now;
  const ok = mine || (free && mayTakeFree);
  if (ok) store.put({ owner, expires: now + LEASE_MS } satisfies LeaseRecord, LEASE_KEY);
  await committed(tx);
  return ok;
}

/**
 * The Worker's heartbeat: extends the lease while the record still names `owner` (lapsed or not);
 * false once it names another tab or is gone. Never takes a free lease: a board that lost it may have
 * missed another tab's saves, so it must stop and boot again from what IndexedDB holds.
 */
export function renewLease(db: IDBDatabase, owner: string): Promise<boolean> {
  return takeLease(db, owner, false);
}

/** In a read-write transaction that includes the lease store: does `owner` still hold it? */
export async function stillOwner(tx: IDBTransaction, owner: string): Promise<boolean> {
  const held = (await request(tx.objectStore(LEASE_STORE).get(LEASE_KEY))) as LeaseRecord | undefined;
  return held !== undefined && held.owner === owner;
}

function randomOwner(): string {
  // crypto.randomUUID is missing on plain http, getRandomValues is not.
  const b = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/**
 * Resolves once this tab holds the board: at once, or after `waiting` was called and the holder
 * went away. Web Locks when the browser has them, else the lease.
 */
export async function claimBoard(db: IDBDatabase, waiting: () => void): Promise<BoardClaim> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (locks) {
    const forever = (): Promise<void> => new Promise<void>(() => undefined);
    const now = await new Promise<boolean>((resolve) => {
      void locks.request(LOCK_NAME, { ifAvailable: true }, (lock) => {
        resolve(lock !== null);
        return lock === null ? undefined : forever();
      });
    });
    if (!now) {
      waiting();
      await new Promise<void>((resolve) => {
        void locks.request(LOCK_NAME, () => {
          resolve();
          return forever();
        });
      });
    }
    return { mode: "lock" };
  }
  const owner = randomOwner();
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  if (!(await takeLease(db, owner, true))) {
    waiting();
    await new Promise<void>((resolve) => {
      let trying = false;
      const attempt = async (): Promise<void> => {
        if (trying) return;
        trying = true;
        const got = await takeLease(db, owner, true).catch(() => false);
        trying = false;
        if (!got) return;
        clearInterval(timer);
        if (channel) channel.onmessage = null;
        resolve();
      };
      const timer = setInterval(() => void attempt(), POLL_MS);
      if (channel) channel.onmessage = () => void attempt();
    });
  }
  addEventListener("pagehide", () => {
    // Best effort: the tab may be gone before the delete commits; the lease then lapses.
    const tx = db.transaction(LEASE_STORE, "readwrite");
    const store = tx.objectStore(LEASE_STORE);
    const get = store.get(LEASE_KEY);
    get.onsuccess = () => {
      const held = get.result as LeaseRecord | undefined;
      if (held && held.owner === owner) store.delete(LEASE_KEY);
    };
    // A waiting tab's transaction, created after this one, runs after it: it can post at once.
    channel?.postMessage("released");
  });
  return { mode: "lease", owner };
}
