/**
 * A Store: one database holding the `memory` table, the audit log and the engine's meta table,
 * reached through a driver (./driver.ts), synchronous (SQLite) or asynchronous (PostgreSQL), in
 * the dialect the driver speaks (./dialect.ts). Brackets scripts in transactions and answers the
 * queries the engine yields (./io.ts, the async seam). Stores are opened by the dialects: an
 * in-memory one on sql.js by `openStore` (src/dialect/sqlite/store.ts; Node and the browser
 * alike, exportable as bytes), a store file on the native driver (src/dialect/sqlite/native.ts),
 * PostgreSQL by src/dialect/postgres/store.ts; a driver of one's own comes prepared:
 * `new Store(driver, { dialect })`.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Dialect, SqlStatement, SqlValue } from './dialect.js';
import { isAsyncDriver, type AnySqlDriver, type AsyncSqlDriver, type SqlDriver, type SqlParams, type SqlRow } from './driver.js';
import * as io from './io.js';
import { driveAsync, driveSync, type Io } from './io.js';
import { ExtractiveSummarizer, NgramEmbedder, type AnyEmbedder, type Summarizer } from '../text/text.js';

export type OpenResult = { readonly ok: true; readonly store: Store } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** What a Store is built with: text processing, and the SQL dialect its driver speaks. */
export interface StoreParts {
  readonly embedder?: AnyEmbedder;
  readonly summarizer?: Summarizer;
  /** The dialect the driver speaks (`sqlite` for the SQLite drivers; PostgreSQL's from `postgresDialectOf`). */
  readonly dialect: Dialect;
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

  constructor(readonly driver: D, options: StoreParts) {
    this.dialect = options.dialect;
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
  return `the store ${location} has an asynchronous driver: drive it asynchronously (run, explain, sweep, undo, auditLog or a Session answer it with promises)`;
}
