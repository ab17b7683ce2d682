/**
 * In-memory SQLite stores on sql.js (Node and the browser alike, exportable as file bytes): what
 * the browser-safe entry opens (`openStore`, `createStore`), and `t2m run` without `--db`. Store
 * files on disk are src/dialect/sqlite/native.ts (Node only).
 */
import type { SqlJsStatic } from 'sql.js';
import type { AnyEmbedder, Summarizer } from '../../text/text.js';
import { Store, type OpenResult, type StoreParts } from '../../store/store.js';
import { sqlite } from './dialect.js';
import { prepareStore } from './open.js';
import { SqlJsDriver } from './sqljs-driver.js';

export interface StoreOptions {
  /** An initialised sql.js module; when absent it is loaded with `locateFile` / `wasmBinary`. */
  readonly sqlJs?: SqlJsStatic;
  /**
   * Where the browser finds `sql-wasm.wasm`, e.g. `(f) => '/assets/' + f`. sql.js initialises
   * once per page (or process): only the first load uses it.
   */
  readonly locateFile?: (file: string) => string;
  readonly wasmBinary?: ArrayBuffer | Uint8Array;
  /** The bytes of an existing store (an SQLite database file). */
  readonly data?: Uint8Array;
  /** The embedding model (default the offline `NgramEmbedder`); a remote one works through the async entry points only. */
  readonly embedder?: AnyEmbedder;
  readonly summarizer?: Summarizer;
}

let defaultModule: Promise<SqlJsStatic> | undefined;

/**
 * sql.js, initialised. Imported on first use: a process whose stores are all native or PostgreSQL
 * (`t2m bench` on Node, store files) never loads it.
 */
export function loadSqlJs(options: Pick<StoreOptions, 'sqlJs' | 'locateFile' | 'wasmBinary'> = {}): Promise<SqlJsStatic> {
  if (options.sqlJs) return Promise.resolve(options.sqlJs);
  if (options.locateFile || options.wasmBinary) {
    return import('sql.js').then((m) => m.default({ locateFile: options.locateFile, wasmBinary: options.wasmBinary as ArrayBuffer | undefined }));
  }
  defaultModule ??= import('sql.js').then((m) => m.default());
  return defaultModule;
}

/** The text processing of `options`: a Store takes these, and nothing of sql.js's. */
function parts(options: StoreOptions): Omit<StoreParts, 'dialect'> {
  return { embedder: options.embedder, summarizer: options.summarizer };
}

/** A file that was in WAL mode says so in bytes 18-19 (2, 2); as bytes in memory it is an ordinary rollback-journal database. */
function withoutWal(data: Uint8Array): Uint8Array {
  if (data.length < 100 || data[18] !== 2 || data[19] !== 2) return data;
  const copy = data.slice();
  copy[18] = 1;
  copy[19] = 1;
  return copy;
}

/** The bytes of a freshly prepared empty store, per sql.js module: a new store is a copy (no DDL to parse and run). */
const emptyStores = new WeakMap<SqlJsStatic, Uint8Array>();

function emptyStore(SQL: SqlJsStatic): Uint8Array {
  let bytes = emptyStores.get(SQL);
  if (!bytes) {
    const driver = new SqlJsDriver(new SQL.Database(), () => new SQL.Database());
    const problems = prepareStore(driver, sqlite, { integrity: 'none' });
    if (problems.length) throw new Error(`internal: cannot prepare an empty store: ${problems[0].message}`);
    bytes = driver.export();
    driver.close();
    emptyStores.set(SQL, bytes);
  }
  return bytes;
}

/** Opens an in-memory store on sql.js: empty, or from the bytes of a store file (checked, and migrated when older). */
export async function openStore(options: StoreOptions = {}): Promise<OpenResult> {
  const SQL = await loadSqlJs(options);
  if (!options.data || options.data.length === 0) {
    // A fresh store: a copy of the empty store this process prepared once (trusted bytes).
    return { ok: true, store: new Store(new SqlJsDriver(new SQL.Database(emptyStore(SQL)), () => new SQL.Database()), { ...parts(options), dialect: sqlite }) };
  }
  let driver: SqlJsDriver;
  try {
    driver = new SqlJsDriver(new SQL.Database(options.data ? withoutWal(options.data) : undefined), () => new SQL.Database());
  } catch (e) {
    return { ok: false, diagnostics: [{ code: 'bad-store-file', severity: 'error', message: `cannot open the store: ${(e as Error).message}` }] };
  }
  const problems = prepareStore(driver, sqlite, { integrity: options.data && options.data.length > 0 ? 'quick' : 'none' });
  if (problems.length) {
    driver.close();
    return { ok: false, diagnostics: problems };
  }
  return { ok: true, store: new Store(driver, { ...parts(options), dialect: sqlite }) };
}

/** A fresh empty store (or one over trusted bytes; use `openStore` for bytes that may be foreign or corrupt). */
export async function createStore(options: StoreOptions = {}): Promise<Store> {
  const opened = await openStore(options);
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}
