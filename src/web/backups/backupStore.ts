/**
 * Region images kept in the browser (IndexedDB, store "backups") before anything that could lose a
 * pet: installing Espruino, uploading the firmware, restoring a save, hatching, loading an image into
 * the simulator. Each is the whole region as `pet-save pull` would give it, with when, from where and
 * why it was taken, and what it holds. A backup identical to the newest one from the same source is
 * not stored twice; past MAX_BACKUPS the oldest go.
 */
import { BACKUP_STORE, committed, petDb, request } from "../petDb";

const MAX_BACKUPS = 40;

export type BackupSource = "simulator" | "board";

export interface Backup {
  id: number;
  /** Date.now() when it was taken. */
  at: number;
  source: BackupSource;
  /** The profile whose geometry reads it: "boards/web.json" or "boards/esp32.json". */
  boardFile: string;
  reason: string;
  /** What it holds, in a few words ("Pip, updates 12" or "no save: empty"). */
  summary: string;
  bytes: Uint8Array;
}

const listeners: (() => void)[] = [];

/** Called after every change to the list (the Backups tab redraws). */
export function onBackupsChanged(f: () => void): void {
  listeners.push(f);
}
function changed(): void {
  for (const f of listeners) f();
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Newest first. */
export async function listBackups(): Promise<Backup[]> {
  const db = await petDb();
  const all = (await request(db.transaction(BACKUP_STORE, "readonly").objectStore(BACKUP_STORE).getAll())) as Backup[];
  return all.sort((a, b) => b.id - a.id);
}

export async function getBackup(id: number): Promise<Backup | undefined> {
  const db = await petDb();
  return (await request(db.transaction(BACKUP_STORE, "readonly").objectStore(BACKUP_STORE).get(id))) as Backup | undefined;
}

export async function deleteBackup(id: number): Promise<void> {
  const db = await petDb();
  const tx = db.transaction(BACKUP_STORE, "readwrite");
  tx.objectStore(BACKUP_STORE).delete(id);
  await committed(tx);
  changed();
}

/** Keeps `b`, unless the newest backup from the same source holds the same bytes: that one is answered instead. */
export async function keepBackup(b: Omit<Backup, "id">): Promise<{ backup: Backup; stored: boolean }> {
  const db = await petDb();
  const newest = (await listBackups()).find((x) => x.source === b.source);
  if (newest !== undefined && same(newest.bytes, b.bytes)) return { backup: newest, stored: false };
  const tx = db.transaction(BACKUP_STORE, "readwrite");
  const store = tx.objectStore(BACKUP_STORE);
  const id = (await request(store.add(b))) as number;
  const ids = ((await request(store.getAllKeys())) as number[]).sort((x, y) => x - y);
  for (const old of ids.slice(0, Math.max(0, ids.length - MAX_BACKUPS))) store.delete(old);
  await committed(tx);
  changed();
  return { backup: { ...b, id }, stored: true };
}
