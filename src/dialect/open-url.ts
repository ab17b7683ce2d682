/**
 * Opening a store by its name (read by src/store/url.ts): an SQLite file (better-sqlite3), an
 * in-memory SQLite store (sql.js), PGlite or a PostgreSQL server. What every `--db` and the Node
 * entry's `openStoreUrl` use. A store on PostgreSQL has an asynchronous driver: drive it with the
 * engine's operations, which answer it with promises. Node only (it reaches the
 * native driver and the PostgreSQL clients): it stands above both dialects, imported by the Node
 * entry (src/node.ts) and the CLI, never by src/store/ or the browser-safe entry.
 */
import { existsSync } from 'node:fs';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { AnySqlDriver } from '../store/driver.js';
import type { Store, StoreParts } from '../store/store.js';
import { describeStoreUrl, isDiagnostic, parseStoreUrl, type StoreUrl } from '../store/url.js';
import { classifyPostgresError, isPostgresError, openPostgresStore } from './postgres/store.js';
import { classify, isSqliteError, openStoreFile, type StoreFileOptions } from './sqlite/native.js';
import { openStore } from './sqlite/store.js';

export type AnyStore = Store<AnySqlDriver>;

export type StoreUrlOpenResult =
  | { readonly ok: true; readonly store: AnyStore; readonly url: StoreUrl; readonly name: string; readonly created: boolean }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export interface OpenStoreUrlOptions extends Omit<StoreParts, 'dialect'>, Pick<StoreFileOptions, 'busyTimeoutMs' | 'integrity'> {
  /** Only read: no new store, no migration (`t2m audit`). */
  readonly readOnly?: boolean;
  /** Open a store file only if it exists: a missing one is an empty in-memory store instead (dry runs create nothing). */
  readonly noCreate?: boolean;
  /** PostgreSQL stores: who scores keyword searches (the name's `?keywords=` wins; default `engine`). */
  readonly keywords?: 'engine' | 'server';
}

/** Opens the store `name` names; diagnostics (bad name, unreachable server, refused store) when it cannot. */
export async function openStoreUrl(name: string, options: OpenStoreUrlOptions = {}): Promise<StoreUrlOpenResult> {
  const url = parseStoreUrl(name);
  if (isDiagnostic(url)) return { ok: false, diagnostics: [url] };
  const parts = { embedder: options.embedder, summarizer: options.summarizer };
  const done = (store: AnyStore, created = false): StoreUrlOpenResult => ({ ok: true, store, url, name: describeStoreUrl(url), created });
  switch (url.kind) {
    case 'memory': {
      const opened = await openStore(parts);
      return opened.ok ? done(opened.store as AnyStore) : opened;
    }
    case 'file': {
      const exists = existsSync(url.path);
      if (!exists && options.noCreate) {
        const opened = await openStore(parts);
        return opened.ok ? done(opened.store as AnyStore) : opened;
      }
      const opened = openStoreFile(url.path, { ...parts, readOnly: options.readOnly, busyTimeoutMs: options.busyTimeoutMs, integrity: options.integrity });
      return opened.ok ? done(opened.store as AnyStore, !exists) : opened;
    }
    case 'pglite':
    case 'postgres': {
      const opened = await openPostgresStore(url, { ...parts, readOnly: options.readOnly, keywords: url.keywords ?? options.keywords });
      return opened.ok ? done(opened.store as AnyStore) : opened;
    }
  }
}

/** A diagnostic for an error a store's driver threw while a script ran, or null when it is a bug (rethrow it). */
export function storeError(name: string, e: unknown): Diagnostic | null {
  if (isSqliteError(e)) {
    const d = classify(e);
    return { ...d, message: `${name} is ${d.message}` };
  }
  if (isPostgresError(e) || (e instanceof Error && /Connection terminated|ECONNRESET/i.test(e.message))) return classifyPostgresError(name, e as Error);
  return null;
}
