/**
 * One simulated board per browser profile, on every origin. Two tabs running the simulator would be
 * two boards sharing one flash chip, each overwriting the other's saves; so the first tab holds the
 * board and any other waits, says why, and starts by itself once the holder is gone.
 *
 * Web Locks where the browser has them (https, localhost, file://): the lock is held while the tab
 * lives and the browser lets go of it when the tab closes or dies. On a plain-http page (the page
 * served to a LAN address) Web Locks do not exist, and a lease stands in for them: a record in
 * IndexedDB (owner, expiry) taken and renewed in read-write transactions, which IndexedDB runs one at
 * a time, so two tabs can never both take it. The page renews it as the board's frames arrive, at
 * most once every HEARTBEAT_MS (a message from the board's Worker is not slowed as a hidden tab's
 * timers are), and writes a flash snapshot only in a transaction that finds it still the owner; a
 * tab that dies stops renewing and its lease lapses after LEASE_MS. Tabs also talk on a
 * BroadcastChannel (leaseTab below): a tab that closes says so, and a tab that finds the lease held
 * asks its holder and takes over when no answer comes, so neither a closed nor a dead tab keeps
 * another waiting for long.
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

/**
 * Sets the lease to `owner` if it is free (none, lapsed, or held by a tab known to be gone) or
 * already theirs; true when `owner` holds it now.
 */
export async function takeLease(db: IDBDatabase, owner: string, mayTakeFree: boolean, gone: ReadonlySet<string> = new Set()): Promise<boolean> {
  const tx = db.transaction(LEASE_STORE, "readwrite");
  const store = tx.objectStore(LEASE_STORE);
  const held = (await request(store.get(LEASE_KEY))) as LeaseRecord | undefined;
  const now = Date.now();
  const mine = held !== undefined && held.owner === owner;
  const free = held === undefined || held.expires < now || gone.has(held.owner);
  const ok = mine || (free && mayTakeFree);
  if (ok) store.put({ owner, expires: now + LEASE_MS } satisfies LeaseRecord, LEASE_KEY);
  await committed(tx);
  return ok;
}

async function leaseHolder(db: IDBDatabase): Promise<LeaseRecord | undefined> {
  return (await request(db.transaction(LEASE_STORE, "readonly").objectStore(LEASE_STORE).get(LEASE_KEY))) as LeaseRecord | undefined;
}

/**
 * The heartbeat: extends the lease while the record still names `owner` (lapsed or not);
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

/**
 * This tab's side of the lease: its owner name for the whole visit, and its BroadcastChannel. A tab
 * that holds the lease answers "ping" with "pong"; a waiting tab that finds the lease held and not
 * lapsed asks its holder, and takes the lease over if no answer comes within PONG_MS (the holder's
 * tab closed without its delete reaching IndexedDB, or died). That is safe even if the holder is only
 * frozen: its board writes nothing once the lease names another tab, and stops when it notices.
 * A tab that closes says "released" (heard by tabs waiting then) and deletes the record.
 */
interface LeaseTab {
  owner: string;
  holding: boolean;
  gone: Set<string>;
  /** Resolves once this tab holds the lease; `waiting` is called once if a live tab holds it now. */
  acquire(waiting: () => void): Promise<void>;
}
const PONG_MS = 1500;
let thisTab: LeaseTab | null = null;

function leaseTab(db: IDBDatabase): LeaseTab {
  if (thisTab !== null) return thisTab;
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  const pongs = new Set<string>();
  let wake: (() => void) | null = null;
  const tab: LeaseTab = {
    owner: randomOwner(),
    holding: false,
    gone: new Set<string>(),
    acquire: (waiting) =>
      new Promise<void>((resolve) => {
        let trying = false;
        let said = false;
        const attempt = async (): Promise<void> => {
          if (trying) return;
          trying = true;
          try {
            const held = await leaseHolder(db);
            if (channel && held && held.owner !== tab.owner && held.expires >= Date.now() && !tab.gone.has(held.owner)) {
              pongs.delete(held.owner);
              channel.postMessage({ t: "ping", to: held.owner });
              await new Promise((r) => setTimeout(r, PONG_MS));
              if (!pongs.has(held.owner)) tab.gone.add(held.owner);
            }
            if (!(await takeLease(db, tab.owner, true, tab.gone))) {
              if (!said) waiting();
              said = true;
              return;
            }
            clearInterval(timer);
            wake = null;
            resolve();
          } catch {
            /* tried again at the next poll */
          } finally {
            trying = false;
          }
        };
        const timer = setInterval(() => void attempt(), POLL_MS);
        wake = () => void attempt();
        void attempt();
      }),
  };
  if (channel) {
    channel.onmessage = (e: MessageEvent<{ t: string; to?: string; from?: string; owner?: string }>) => {
      const m = e.data;
      if (m.t === "ping" && m.to === tab.owner && tab.holding) channel.postMessage({ t: "pong", from: tab.owner });
      else if (m.t === "pong" && m.from) pongs.add(m.from);
      else if (m.t === "released" && m.owner) {
        tab.gone.add(m.owner);
        if (wake) wake();
      }
    };
  }
  addEventListener("pagehide", () => {
    if (!tab.holding) return;
    channel?.postMessage({ t: "released", owner: tab.owner });
    // Best effort: the tab may be gone before the delete commits; a waiting tab then asks (ping).
    const tx = db.transaction(LEASE_STORE, "readwrite");
    const store = tx.objectStore(LEASE_STORE);
    const get = store.get(LEASE_KEY);
    get.onsuccess = () => {
      const held = get.result as LeaseRecord | undefined;
      if (held && held.owner === tab.owner) store.delete(LEASE_KEY);
    };
  });
  thisTab = tab;
  return tab;
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
  const tab = leaseTab(db);
  tab.holding = false;
  await tab.acquire(waiting);
  tab.holding = true;
  const owner = tab.owner;
  return { mode: "lease", owner };
}
