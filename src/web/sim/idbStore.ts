/**
 * The smallest IndexedDB wrapper the page needs: one database, one object store, get and put by key.
 * Every put is its own transaction; IndexedDB runs read-write transactions on one store in the order
 * they were created, so the last put issued is the last one applied.
 */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  close(): void;
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

export async function openStore(dbName: string, storeName: string): Promise<KeyValueStore> {
  const open = indexedDB.open(dbName, 1);
  open.onupgradeneeded = () => {
    if (!open.result.objectStoreNames.contains(storeName)) open.result.createObjectStore(storeName);
  };
  const db = await request(open);
  return {
    async get(key) {
      return request(db.transaction(storeName, "readonly").objectStore(storeName).get(key));
    },
    put(key, value) {
      const tx = db.transaction(storeName, "readwrite");
      tx.objectStore(storeName).put(value, key);
      // Resolved when the transaction has committed, not merely when the request succeeded.
      return new Promise((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error || new Error("IndexedDB transaction aborted"));
      });
    },
    close: () => db.close(),
  };
}
