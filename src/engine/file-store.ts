/**
 * Store files (Node only), kept for callers of the first API: `loadStoreFile` opens a store
 * file with the native driver (src/node/sqlite-file.ts) and `saveStoreFile` has nothing left to
 * do, since every committed transaction is already in the file. Not imported by src/index.ts.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { OpenResult, Store } from '../store/store.js';
import { openStoreFile, type StoreFileOptions } from '../dialect/sqlite/native.js';

export async function loadStoreFile(path: string, options: StoreFileOptions = {}): Promise<OpenResult> {
  return openStoreFile(path, options);
}

/** @deprecated A store file is written in place: each committed script is the save. Returns null. */
export function saveStoreFile(_store: Store, _path: string): Diagnostic | null {
  return null;
}
