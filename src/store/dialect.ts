/**
 * The one SQL dialect interface. Everything that differs between SQL engines (identifier quoting,
 * placeholders, JSON functions, insert-returning, the store's DDL and migrations) is a hook here;
 * the compiler (src/compile/) only concatenates fragments the dialect returns. It lives with the
 * store, below both the compiler and the dialects, so each reaches it downward: SQLite is
 * src/dialect/sqlite/dialect.ts, PostgreSQL src/dialect/postgres/dialect.ts, implementing the
 * same hooks.
 */
import type { Column } from './columns.js';

/** A statement ready for the driver: SQL text with placeholders, and the values bound to them. */
export interface SqlStatement {
  readonly sql: string;
  readonly params: readonly SqlValue[];
}

/** A bound value; a Uint8Array is a BLOB (packed vectors). */
export type SqlValue = string | number | null | Uint8Array;

export interface Dialect {
  readonly name: string;
  /** Quote an identifier (table or column name); never used for values. */
  quoteIdent(name: string): string;
  /** The placeholder for the `index`-th (0-based) bound parameter. */
  placeholder(index: number): string;
  /**
   * A boolean expression: the JSON-array text in `column` contains the string bound at
   * `param` (an already-rendered placeholder).
   */
  jsonArrayContains(column: string, param: string): string;
  /** A boolean expression: the record has the tag bound at `param` (may use an index the dialect maintains). */
  hasTag(param: string): string;
  /** A boolean expression: some element of the JSON array in `column` equals some element of the JSON array bound at `param`. */
  jsonArrayOverlaps(column: string, param: string): string;
  /** The text value of `key` in the JSON object in `column`; `keyParam` is a rendered placeholder holding the key. */
  jsonObjectField(column: string, keyParam: string): string;
  /** SQL appended to an INSERT to get the new row id back as column `id`, or null when the driver reports it another way. */
  insertReturningId(): string | null;
  /**
   * The most values one statement may bind: the engine cuts its multi-row inserts (a run of
   * Encodes, spec/semantics.md "Runs of Encodes") into chunks that stay under it.
   */
  readonly maxParams: number;
  /**
   * SQL appended to a multi-row INSERT to get `columns` of each new row back, or absent when the
   * database cannot (then the engine executes each Encode of a run on its own).
   */
  insertReturning?(columns: readonly string[]): string;
  /**
   * Whether a driver error aborted the transaction for a serialization failure or a deadlock, so
   * that running it again may succeed (PostgreSQL); absent where that cannot happen.
   */
  retryable?(error: unknown): boolean;
  /** The count of a LIMIT clause whose value is bound at `param` (default: `param` itself). */
  limitCount?(param: string): string;
  /** The statement that yields the id of the last inserted row (used when `insertReturningId` is null). */
  lastInsertId(): string;
  /** DDL for the store's tables, indexes and triggers, in order (idempotent). */
  schema(): readonly string[];
  /** Statements that rebuild derived tables (the tag index) from `memory`, for stores that predate them. */
  backfill(): readonly string[];
  /** DDL adding a column of `memory` (or of `table`: `audit_log`) that an older store lacks (see Column.since). */
  addColumn(column: Column, table?: 'memory' | 'audit_log'): string;
  /** A query listing the database's tables as rows with one column `name`. */
  listTables(): string;
  /** A query listing the columns of `table` as rows with one column `name`. */
  listColumns(table: string): SqlStatement;
  /** A subquery with columns `key` (text) and `value` (a number): the entries of the JSON object bound at `param`. */
  jsonEntries(param: string): string;
  /** A subquery with one column `value` (text): the elements of the JSON array bound at `param`. */
  jsonElements(param: string): string;
  /**
   * Vectors of the database's own type, ranked in SQL (pgvector): present when the store keeps
   * `embedding_f32` in that type; absent on SQLite, where the column holds packed Float32 and the
   * engine scans it in memory (src/retrieve/vectors.ts). See spec/retrieval.md.
   */
  readonly vectors?: VectorCapability;
  /** Records the store format under key `format` in t2m_meta unless a value is there. */
  markFormat(format: string): SqlStatement;
}

/** A dialect's own vector type: how `embedding_f32` is bound and how it is ranked by cosine distance in SQL. */
export interface VectorCapability {
  /**
   * Cosine distance (0 = same direction, ascending = nearest) of the stored vector `column` to the
   * query vector bound at `param`, both of `dimensions` dimensions (an index is per dimension).
   */
  distance(column: string, param: string, dimensions: number): string;
  /** That the stored vector `column` has `dimensions` dimensions (the condition of the dimension's index). */
  hasDimensions(column: string, dimensions: number): string;
  /** A vector as the value to bind (for `distance`'s `param`, and for `embedding_f32` in writes). */
  value(v: Float32Array): SqlValue;
}

/** Collects bound parameters while a statement's SQL text is built, so placeholders are numbered right. */
export class ParamList {
  readonly values: SqlValue[] = [];
  constructor(private readonly dialect: Dialect) {}
  /** Bind a value and return its placeholder. */
  bind(value: SqlValue): string {
    this.values.push(value);
    return this.dialect.placeholder(this.values.length - 1);
  }
}
