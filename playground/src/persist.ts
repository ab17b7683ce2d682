/**
 * IndexedDB persistence: one object store of named values (the open scripts and the sqlite image
 * of the memory store), so a reload finds the work where it was left.
 */
const DB_NAME = 't2m-playground';
const STORE = 'kv';

export interface SavedScript {
  readonly name: string;
  readonly text: string;
  /** The examples-menu entry this script was opened from (its stable name), so picking it again reuses the tab. */
  readonly example?: string;
  /** Stable id: the key of the script's own store and run history (made on first load for older workspaces). */
  readonly id?: string;
  /** The named store the script runs on; absent: its own store, emptied before each run. */
  readonly store?: string;
}

export interface Workspace {
  readonly scripts: readonly SavedScript[];
  readonly active: number;
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let dbPromise: Promise<IDBDatabase> | undefined;
function db(): Promise<IDBDatabase> {
  dbPromise ??= open();
  return dbPromise;
}

async function tx<T>(mode: IDBTransactionMode, body: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const database = await db();
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(STORE, mode);
    const request = body(transaction.objectStore(STORE));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

export async function loadValue<T>(key: string): Promise<T | undefined> {
  return (await tx('readonly', (s) => s.get(key))) as T | undefined;
}

export async function saveValue(key: string, value: unknown): Promise<void> {
  await tx('readwrite', (s) => s.put(value, key));
}

export async function deleteValue(key: string): Promise<void> {
  await tx('readwrite', (s) => s.delete(key));
}

export const KEYS = {
  workspace: 'workspace',
  /** The one store every script shared before scripts had stores of their own; opened as the named store "shared". */
  legacyStore: 'store-sqlite',
  /** The names of the named stores. */
  storeNames: 'store-names',
  /** A script's own store (the one a fresh run made). */
  scriptStore: (id: string) => `store:script:${id}`,
  namedStore: (name: string) => `store:named:${name}`,
  /** A script's run history (`history.ts`). */
  history: (id: string) => `history:script:${id}`,
} as const;
