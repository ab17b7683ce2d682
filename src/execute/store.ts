/**
 * A Store: one sql.js database holding the `memory` table, the audit log and the engine's meta
 * table. Runs compiled statements (prepared once, cached) and brackets scripts in transactions.
 * Works in Node and the browser alike; file I/O lives in src/engine/file-store.ts.
 */
import initSqlJs from 'sql.js';
import type { Database, SqlJsStatic, Statement } from 'sql.js';
import type { Dialect, SqlStatement, SqlValue } from '../compile/dialect.js';
import { sqlite } from '../compile/dialects/sqlite.js';
import { MEMORY_COLUMNS } from '../compile/columns.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { ExtractiveSummarizer, HashEmbedder, type Embedder, type Summarizer } from './text.js';

/** Marks a database as a Text2Mem store (checked when a file is opened). */
export const STORE_FORMAT = 'text2mem-store/1';

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
  private readonly prepared = new Map<string, Statement>();
  private depth = 0;

  constructor(readonly db: Database, options: Pick<StoreOptions, 'embedder' | 'summarizer'> = {}) {
    this.embedder = options.embedder ?? new HashEmbedder();
    this.summarizer = options.summarizer ?? new ExtractiveSummarizer();
  }

  private statement(sql: string): Statement {
    let s = this.prepared.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (this.prepared.size > 500) this.clearCache();
      this.prepared.set(sql, s);
    }
    return s;
  }

  private clearCache(): void {
    for (const s of this.prepared.values()) s.free();
    this.prepared.clear();
  }

  /** Runs a query and returns its rows as objects. */
  all(stmt: SqlStatement): Record<string, SqlValue>[] {
    const s = this.statement(stmt.sql);
    try {
      s.bind(stmt.params as SqlValue[]);
      const rows: Record<string, SqlValue>[] = [];
      while (s.step()) rows.push(s.getAsObject() as Record<string, SqlValue>);
      return rows;
    } finally {
      s.reset();
    }
  }

  /** Runs a write and returns the number of rows it changed. */
  run(stmt: SqlStatement): number {
    const s = this.statement(stmt.sql);
    try {
      s.run(stmt.params as SqlValue[]);
    } finally {
      s.reset();
    }
    return this.db.getRowsModified();
  }

  /** Runs `fn` in a transaction (nested calls become savepoints); `fn` returning false or throwing rolls back. */
  transaction<T>(fn: () => { commit: boolean; value: T }): T {
    const name = `t2m_${this.depth}`;
    this.db.run(this.depth === 0 ? 'BEGIN' : `SAVEPOINT ${name}`);
    this.depth++;
    let committed = false;
    try {
      const { commit, value } = fn();
      if (commit) {
        this.depth--;
        this.db.run(this.depth === 0 ? 'COMMIT' : `RELEASE ${name}`);
        committed = true;
      }
      return value;
    } finally {
      if (!committed) {
        this.depth--;
        this.db.run(this.depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`);
      }
    }
  }

  /** The database as SQLite file bytes. */
  export(): Uint8Array {
    this.clearCache();
    return this.db.export();
  }

  close(): void {
    this.clearCache();
    this.db.close();
  }
}

function tableNames(db: Database, dialect: Dialect): string[] {
  return (db.exec(dialect.listTables())[0]?.values ?? []).map((r) => String(r[0]));
}

/** Creates the tables of a fresh store; a store from before the tag index gets it built. */
function initialise(db: Database, dialect: Dialect): void {
  const before = tableNames(db, dialect);
  for (const ddl of dialect.schema()) db.run(ddl);
  if (before.includes('memory') && !before.includes('memory_tag')) for (const sql of dialect.backfill()) db.run(sql);
  const mark = dialect.markFormat(STORE_FORMAT);
  db.run(mark.sql, mark.params as SqlValue[]);
}

/** Checks that existing bytes are a Text2Mem store; a foreign or corrupt database gets a diagnostic. */
function verify(db: Database, dialect: Dialect): Diagnostic | null {
  const fail = (message: string): Diagnostic => ({ code: 'bad-store-file', severity: 'error', message });
  let tables: string[];
  try {
    tables = tableNames(db, dialect);
  } catch (e) {
    return fail(`not an SQLite database, or a corrupt one (${(e as Error).message})`);
  }
  if (!tables.includes('memory')) {
    return fail(tables.length ? `an SQLite database but not a Text2Mem store: it has no 'memory' table (tables: ${tables.join(', ')})` : 'an empty SQLite database with no memory table');
  }
  const list = dialect.listColumns('memory');
  const cols = new Set((db.exec(list.sql, list.params as SqlValue[])[0]?.values ?? []).map((r) => String(r[0])));
  const missing = MEMORY_COLUMNS.map((c) => c.name).filter((c) => !cols.has(c));
  if (missing.length) return fail(`its 'memory' table lacks the columns ${missing.join(', ')}`);
  return null;
}

/** Opens a store: empty, or from the bytes of a store file. */
export async function openStore(options: StoreOptions = {}): Promise<OpenResult> {
  const SQL = await loadSqlJs(options);
  let db: Database;
  try {
    db = new SQL.Database(options.data);
  } catch (e) {
    return { ok: false, diagnostics: [{ code: 'bad-store-file', severity: 'error', message: `cannot open the store: ${(e as Error).message}` }] };
  }
  if (options.data && options.data.length > 0) {
    const problem = verify(db, sqlite);
    if (problem) {
      db.close();
      return { ok: false, diagnostics: [problem] };
    }
  }
  initialise(db, sqlite);
  return { ok: true, store: new Store(db, options) };
}
