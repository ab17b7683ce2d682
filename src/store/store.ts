/**
 * A Store: one database holding the `memory` table, the audit log and the engine's meta table,
 * reached through a driver (./driver.ts), synchronous (SQLite) or asynchronous (PostgreSQL), in
 * the dialect the driver speaks. Brackets scripts in transactions and answers the queries the
 * engine yields (./io.ts, the async seam). `openStore` gives an in-memory store on sql.js (Node
 * and the browser alike, exportable as bytes); store files use the native driver in
 * src/node/sqlite-file.ts; an asynchronous driver comes prepared: `new Store(driver, { dialect })`.
 */
import type { SqlJsStatic } from 'sql.js';
import type { Dialect, SqlStatement, SqlValue } from './dialect.js';
import { sqlite } from '../dialect/sqlite/dialect.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { SqlJsDriver } from '../dialect/sqlite/sqljs-driver.js';
import { prepareStore, STORE_FORMAT, STORE_VERSION } from '../dialect/sqlite/open.js';
import { isAsyncDriver, type AnySqlDriver, type AsyncSqlDriver, type SqlDriver, type SqlParams, type SqlRow } from './driver.js';
import * as io from './io.js';
import { driveAsync, driveSync, type Io } from './io.js';
import { ExtractiveSummarizer, NgramEmbedder, type AnyEmbedder, type Summarizer } from '../execute/text.js';

/** Marks a database as a Text2Mem store, with its version (checked when a store is opened). */
export { STORE_FORMAT, STORE_VERSION };
export type { AnySqlDriver, AsyncSqlDriver, SqlDriver, SqlParams, SqlRow };

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

export type OpenResult = { readonly ok: true; readonly store: Store } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

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

/** What a Store is built with: text processing, and the SQL dialect of its driver (default SQLite). */
export interface StoreParts {
  readonly embedder?: AnyEmbedder;
  readonly summarizer?: Summarizer;
  /** The dialect the driver speaks; an asynchronous (PostgreSQL) driver comes with its own. */
  readonly dialect?: Dialect;
}

/**
 * A store over a synchronous driver (`Store`, the default) or an asynchronous one
 * (`Store<AsyncSqlDriver>`). The engine reaches the database only through `drive` /
 * `driveAsync` (./io.ts); the synchronous conveniences (`all`, `run`, `query`, `exec`,
 * `transaction`) need a synchronous driver and say so otherwise.
 */
export class Store<D extends AnySqlDriver = SqlDriver> {
  readonly dialect: Dialect;
  readonly embedder: AnyEmbedder;
  readonly summarizer: Summarizer;
  private depth = 0;
  /** Scripts on an asynchronous store run one after another (one connection, one transaction). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly driver: D, options: StoreParts = {}) {
    this.dialect = options.dialect ?? sqlite;
    this.embedder = options.embedder ?? new NgramEmbedder();
    this.summarizer = options.summarizer ?? new ExtractiveSummarizer();
  }

  /** Whether the driver is asynchronous (then only the engine's `…Async` entry points work). */
  get async(): boolean {
    return isAsyncDriver(this.driver);
  }

  private get sync(): SqlDriver {
    if (isAsyncDriver(this.driver)) throw new Error(asyncStoreMessage(this.driver.location));
    return this.driver as SqlDriver;
  }

  /** Runs a query and returns its rows as objects. */
  all(stmt: SqlStatement): Record<string, SqlValue>[] {
    return this.sync.all(stmt.sql, stmt.params);
  }

  /** Runs a write and returns the number of rows it changed. */
  run(stmt: SqlStatement): number {
    return this.sync.run(stmt.sql, stmt.params);
  }

  /** Runs SQL given as text (tests, benchmark assertions) with positional or named (`:name`) parameters. */
  query(sql: string, params?: SqlParams): SqlRow[] {
    return this.sync.all(sql, params);
  }

  /** Runs SQL text without parameters (may hold several statements). */
  exec(sql: string): void {
    this.sync.exec(sql);
  }

  /** Runs an engine computation on a synchronous store (throws on an asynchronous one: use `driveAsync`). */
  drive<T>(io: Io<T>): T {
    return driveSync(this.sync, io, this.embedder);
  }

  /** Runs an engine computation on either kind of store; computations on one store run in turn. */
  driveAsync<T>(io: Io<T>): Promise<T> {
    const next = this.queue.then(() => driveAsync(this.driver, io, this.embedder));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Runs `body` in a transaction (nested calls become savepoints); `body` returning commit: false
   * or throwing rolls back. The outermost level takes the write lock at once (BEGIN IMMEDIATE on
   * SQLite) and its commit is the save: when this returns, a store file holds the changes durably.
   */
  *transactionIo<T>(body: () => Io<{ commit: boolean; value: T }>): Io<T> {
    const name = `t2m_${this.depth}`;
    // The requests yielded as they are (what io.begin… yield), one generator each the less.
    if (this.depth === 0) yield { kind: 'begin' };
    else yield { kind: 'exec', sql: `SAVEPOINT ${name}` };
    this.depth++;
    let committed = false;
    try {
      const { commit, value } = yield* body();
      if (commit) {
        this.depth--;
        committed = true;
        if (this.depth === 0) yield { kind: 'commit' };
        else yield { kind: 'exec', sql: `RELEASE ${name}` };
      }
      return value;
    } catch (e) {
      // A failed COMMIT leaves the transaction open: roll it back.
      if (committed && this.depth === 0) yield { kind: 'rollback' };
      throw e;
    } finally {
      if (!committed) {
        this.depth--;
        if (this.depth === 0) yield { kind: 'rollback' };
        else {
          // Two statements, one at a time: a driver runs a single statement from its statement cache.
          yield { kind: 'exec', sql: `ROLLBACK TO ${name}` };
          yield { kind: 'exec', sql: `RELEASE ${name}` };
        }
      }
    }
  }

  /** `transactionIo` for synchronous callers: `fn` runs inside the transaction (synchronous stores only). */
  transaction<T>(fn: () => { commit: boolean; value: T }): T {
    return this.drive(this.transactionIo(() => io.pure(fn())));
  }

  /** Whether `export()` works: an in-memory store can be exported; a store file is written in place. */
  get exportable(): boolean {
    return !isAsyncDriver(this.driver) && this.driver.export !== undefined;
  }

  /** Where the store lives: `:memory:` or its file (or an asynchronous driver's location). */
  get location(): string {
    return this.driver.location;
  }

  /** The database as SQLite file bytes (in-memory stores only; see `exportable`). */
  export(): Uint8Array {
    const driver = this.sync;
    if (!driver.export) throw new Error(`the store ${driver.location} is a file written in place; it has no export (copy the file instead)`);
    return driver.export();
  }

  /** Closes the driver (an asynchronous driver's close is awaited by the returned promise). */
  close(): D extends AsyncSqlDriver ? Promise<void> : void {
    return this.driver.close() as D extends AsyncSqlDriver ? Promise<void> : void;
  }
}

/** The message for a synchronous entry point called on a store whose driver is asynchronous. */
export function asyncStoreMessage(location: string): string {
  return `the store ${location} has an asynchronous driver: use the engine's async entry points (runAsync, explainAsync, sweepAsync, undoAsync, auditLogAsync)`;
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
    return { ok: true, store: new Store(new SqlJsDriver(new SQL.Database(emptyStore(SQL)), () => new SQL.Database()), options) };
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
  return { ok: true, store: new Store(driver, options) };
}
