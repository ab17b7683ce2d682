/**
 * A Store: one SQLite database holding the `memory` table, the audit log and the engine's meta
 * table, reached through a small synchronous driver (./driver.ts). Runs compiled statements and
 * brackets scripts in transactions. `openStore` gives an in-memory store on sql.js (Node and the
 * browser alike, exportable as bytes); store files use the native driver in src/node/sqlite-file.ts.
 */
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';
import type { Dialect, SqlStatement, SqlValue } from '../compile/dialect.js';
import { sqlite } from '../compile/dialects/sqlite.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { SqlJsDriver } from '../sqlite/sqljs-driver.js';
import { prepareStore, STORE_FORMAT, STORE_VERSION } from '../sqlite/open.js';
import type { SqlDriver, SqlParams, SqlRow } from './driver.js';
import { ExtractiveSummarizer, NgramEmbedder, type Embedder, type Summarizer } from './text.js';

/** Marks a database as a Text2Mem store, with its version (checked when a store is opened). */
export { STORE_FORMAT, STORE_VERSION };
export type { SqlDriver, SqlParams, SqlRow };

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
  readonly embedder?: Embedder;
  readonly summarizer?: Summarizer;
}

export type OpenResult = { readonly ok: true; readonly store: Store } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

let defaultModule: Promise<SqlJsStatic> | undefined;

export function loadSqlJs(options: Pick<StoreOptions, 'sqlJs' | 'locateFile' | 'wasmBinary'> = {}): Promise<SqlJsStatic> {
  if (options.sqlJs) return Promise.resolve(options.sqlJs);
  if (options.locateFile || options.wasmBinary) {
    return initSqlJs({ locateFile: options.locateFile, wasmBinary: options.wasmBinary as ArrayBuffer | undefined });
  }
  defaultModule ??= initSqlJs();
  return defaultModule;
}

export class Store {
  readonly dialect: Dialect = sqlite;
  readonly embedder: Embedder;
  readonly summarizer: Summarizer;
  private depth = 0;

  constructor(readonly driver: SqlDriver, options: Pick<StoreOptions, 'embedder' | 'summarizer'> = {}) {
    this.embedder = options.embedder ?? new NgramEmbedder();
    this.summarizer = options.summarizer ?? new ExtractiveSummarizer();
  }

  /** Runs a query and returns its rows as objects. */
  all(stmt: SqlStatement): Record<string, SqlValue>[] {
    return this.driver.all(stmt.sql, stmt.params);
  }

  /** Runs a write and returns the number of rows it changed. */
  run(stmt: SqlStatement): number {
    return this.driver.run(stmt.sql, stmt.params);
  }

  /** Runs SQL given as text (tests, benchmark assertions) with positional or named (`:name`) parameters. */
  query(sql: string, params?: SqlParams): SqlRow[] {
    return this.driver.all(sql, params);
  }

  /** Runs SQL text without parameters (may hold several statements). */
  exec(sql: string): void {
    this.driver.exec(sql);
  }

  /**
   * Runs `fn` in a transaction (nested calls become savepoints); `fn` returning false or throwing
   * rolls back. The outermost level takes the write lock at once (BEGIN IMMEDIATE) and its
   * commit is the save: when this returns, a store file holds the changes durably.
   */
  transaction<T>(fn: () => { commit: boolean; value: T }): T {
    const name = `t2m_${this.depth}`;
    if (this.depth === 0) this.driver.begin();
    else this.driver.exec(`SAVEPOINT ${name}`);
    this.depth++;
    let committed = false;
    try {
      const { commit, value } = fn();
      if (commit) {
        this.depth--;
        committed = true;
        if (this.depth === 0) this.driver.commit();
        else this.driver.exec(`RELEASE ${name}`);
      }
      return value;
    } catch (e) {
      // A failed COMMIT leaves the transaction open: roll it back.
      if (committed && this.depth === 0) this.driver.rollback();
      throw e;
    } finally {
      if (!committed) {
        this.depth--;
        if (this.depth === 0) this.driver.rollback();
        else this.driver.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      }
    }
  }

  /** Whether `export()` works: an in-memory store can be exported; a store file is written in place. */
  get exportable(): boolean {
    return this.driver.export !== undefined;
  }

  /** Where the store lives: `:memory:` or its file. */
  get location(): string {
    return this.driver.location;
  }

  /** The database as SQLite file bytes (in-memory stores only; see `exportable`). */
  export(): Uint8Array {
    if (!this.driver.export) throw new Error(`the store ${this.driver.location} is a file written in place; it has no export (copy the file instead)`);
    return this.driver.export();
  }

  close(): void {
    this.driver.close();
  }
}

/** A file that was in WAL mode says so in bytes 18-19 (2, 2); as bytes in memory it is an ordinary rollback-journal database. */
function withoutWal(data: Uint8Array): Uint8Array {
  if (data.length < 100 || data[18] !== 2 || data[19] !== 2) return data;
  const copy = data.slice();
  copy[18] = 1;
  copy[19] = 1;
  return copy;
}

/** Opens an in-memory store on sql.js: empty, or from the bytes of a store file (checked, and migrated when older). */
export async function openStore(options: StoreOptions = {}): Promise<OpenResult> {
  const SQL = await loadSqlJs(options);
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
