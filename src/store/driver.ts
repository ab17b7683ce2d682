/**
 * The seam between the Store and a database engine: a small synchronous driver. Two exist, both
 * SQLite: sql.js (src/dialect/sqlite/sqljs-driver.ts; in memory, the browser and `t2m run`
 * without `--db`, exportable as file bytes) and better-sqlite3 (src/dialect/sqlite/native.ts; Node only, a
 * store file written in place). Drivers cache prepared statements by SQL text. The PostgreSQL
 * drivers (PGlite, node-postgres; src/dialect/postgres/) implement `AsyncSqlDriver` below.
 */
import type { SqlValue } from './dialect.js';

export type SqlRow = Record<string, SqlValue>;

/** Bound values: positional, or named (keys without the `:`/`@`/`$` sigil). */
export type SqlParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

export interface SqlDriver {
  /** `sql.js` or `better-sqlite3`. */
  readonly kind: string;
  /** Where the database lives: `:memory:` or a file path. */
  readonly location: string;
  /**
   * Runs one statement and returns its rows (none for a statement that returns no data), as
   * fresh objects the caller owns: the engine decodes and updates them in place.
   */
  all(sql: string, params?: SqlParams): SqlRow[];
  /** Runs one statement and returns the number of rows it changed. */
  run(sql: string, params?: SqlParams): number;
  /** Runs SQL text without parameters (may hold several statements). */
  exec(sql: string): void;
  /** Begins a top-level transaction (a file driver takes the write lock at once: no upgrade deadlocks). */
  begin(): void;
  commit(): void;
  rollback(): void;
  /** The database as SQLite file bytes, when the driver holds it in memory (sql.js). */
  readonly export?: () => Uint8Array;
  /** A fresh, empty in-memory database of the same engine (used to build the reference schema). */
  scratch(): SqlDriver;
  close(): void;
}

/**
 * The same seam for engines reached asynchronously: PGlite (in-process PostgreSQL) and a
 * PostgreSQL server. Rows come back in the shape the SQLite drivers give (JSON columns as JSON
 * text, times as ISO-8601 text, integers and reals as numbers), so the engine reads them alike.
 * The engine drives both kinds through one code path (src/execute is written against queries it
 * yields; a synchronous driver answers them at once, an asynchronous one after an await).
 */
export interface AsyncSqlDriver {
  /** `pglite` or `postgres`. */
  readonly kind: string;
  /** Where the database lives: `pglite:` (memory), `pglite:./dir`, or a `postgres://` URL without its password. */
  readonly location: string;
  readonly async: true;
  /** As `SqlDriver.all`: fresh row objects the caller owns. */
  all(sql: string, params?: SqlParams): Promise<SqlRow[]>;
  run(sql: string, params?: SqlParams): Promise<number>;
  exec(sql: string): Promise<void>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): Promise<void>;
}

export type AnySqlDriver = SqlDriver | AsyncSqlDriver;

export const isAsyncDriver = (d: AnySqlDriver): d is AsyncSqlDriver => (d as AsyncSqlDriver).async === true;
