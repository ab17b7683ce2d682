/**
 * Store files (Node only): load a store from an SQLite file and save it atomically (write a
 * temporary file in the same directory, then rename over the target), so a crash never leaves a
 * half-written store. A missing file is a fresh store; a corrupt or foreign file is a diagnostic.
 */
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { openStore, type OpenResult, type Store, type StoreOptions } from '../execute/store.js';

export async function loadStoreFile(path: string, options: Omit<StoreOptions, 'data'> = {}): Promise<OpenResult> {
  if (!existsSync(path)) return openStore(options);
  let data: Uint8Array;
  try {
    data = readFileSync(path);
  } catch (e) {
    return { ok: false, diagnostics: [{ code: 'store-unreadable', severity: 'error', message: `cannot read store ${path}: ${(e as Error).message}` }] };
  }
  const opened = await openStore({ ...options, data });
  if (opened.ok) return opened;
  return { ok: false, diagnostics: opened.diagnostics.map((d) => ({ ...d, message: `${path} is ${d.message}` })) };
}

/** Writes the store to `path` atomically; returns a diagnostic when it cannot. */
export function saveStoreFile(store: Store, path: string): Diagnostic | null {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, store.export());
    renameSync(temp, path);
    return null;
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // The temporary file may never have been created.
    }
    return { code: 'store-unwritable', severity: 'error', message: `cannot save store ${path}: ${(e as Error).message}` };
  }
}
