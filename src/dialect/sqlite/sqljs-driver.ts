/** The sql.js driver: an SQLite database in memory (Node and the browser), exportable as file bytes. */
import type { Database, Statement } from 'sql.js';
import type { SqlValue } from '../../store/dialect.js';
import type { SqlDriver, SqlParams, SqlRow } from '../../store/driver.js';

type SqlJsParams = SqlValue[] | Record<string, SqlValue>;

/** sql.js wants named parameters with their sigil; a name is bound under each sigil SQLite knows. */
function bindable(params: SqlParams | undefined): SqlJsParams {
  if (!params) return [];
  if (Array.isArray(params)) return params as SqlValue[];
  const out: Record<string, SqlValue> = {};
  for (const [k, v] of Object.entries(params)) for (const sigil of [':', '@', '$']) out[sigil + k] = v;
  return out;
}

/** Prepared statements kept per database (the least recently used go first). */
const CACHED_STATEMENTS = 500;

export class SqlJsDriver implements SqlDriver {
  readonly kind = 'sql.js';
  readonly location = ':memory:';
  private readonly prepared = new Map<string, Statement>();

  constructor(readonly db: Database, private readonly make: () => Database) {
    // sql.js keeps the database as a file in Emscripten's in-memory file system, and by default
    // its rollback journal too: every transaction then creates, writes, looks up (a thrown and
    // caught ENOENT) and deletes a journal file through the JavaScript file-system layer. The
    // journal in SQLite's own memory rolls back (transactions, savepoints) exactly the same and
    // is no less durable than the database itself, which is memory (0.94x the benchmark's CPU).
    // Bytes that are not SQLite fail here first; they are refused by the store's checks when it
    // opens them (./open.ts), with the diagnostic that says why, so not here.
    // No other connection can reach a sql.js database, so the connection may keep its lock between
    // transactions: in the default (NORMAL) locking mode every BEGIN takes the file's locks again and
    // checks whether another connection changed the file (50-170 µs against 1-8 µs in a
    // micro-benchmark; the shared benchmark begins one transaction per sample).
    try {
      db.run('PRAGMA journal_mode = MEMORY');
      db.run('PRAGMA locking_mode = EXCLUSIVE');
      // Erasure at rest: deleted content is overwritten with zeros, not left in freed pages of
      // the exported bytes (spec/semantics.md "Retention"; its cost in docs/performance.md).
      db.run('PRAGMA secure_delete = ON');
    } catch {
      // left to the store's checks
    }
  }

  private statement(sql: string): Statement {
    let s = this.prepared.get(sql);
    if (s) {
      // Most recently used last: the Map's order is the eviction order.
      this.prepared.delete(sql);
    } else {
      s = this.db.prepare(sql);
      if (this.prepared.size >= CACHED_STATEMENTS) {
        const [oldest, stmt] = this.prepared.entries().next().value!;
        this.prepared.delete(oldest);
        stmt.free();
      }
    }
    this.prepared.set(sql, s);
    return s;
  }

  private clearCache(): void {
    for (const s of this.prepared.values()) s.free();
    this.prepared.clear();
  }

  all(sql: string, params?: SqlParams): SqlRow[] {
    const s = this.statement(sql);
    try {
      s.bind(bindable(params));
      if (!s.step()) return [];
      // Column names once per query, values as arrays (getAsObject asks for the names on every row).
      const names = s.getColumnNames();
      const rows: SqlRow[] = [];
      do {
        const values = s.get();
        const row: SqlRow = {};
        for (let i = 0; i < names.length; i++) row[names[i]] = values[i] as SqlValue;
        rows.push(row);
      } while (s.step());
      return rows;
    } finally {
      s.reset();
    }
  }

  run(sql: string, params?: SqlParams): number {
    const s = this.statement(sql);
    try {
      s.bind(bindable(params));
      s.step();
    } finally {
      s.reset();
    }
    return this.db.getRowsModified();
  }

  /** One statement (no `;`) goes through the statement cache (savepoints come often); other text is run as given. */
  exec(sql: string): void {
    if (sql.includes(';') || !sql.trim()) this.db.run(sql);
    else this.run(sql);
  }

  // Transaction control goes through the statement cache too (Database.run would compile it each time).
  begin(): void {
    this.run('BEGIN IMMEDIATE');
  }

  commit(): void {
    this.run('COMMIT');
  }

  rollback(): void {
    this.run('ROLLBACK');
  }

  readonly export = (): Uint8Array => {
    this.clearCache();
    return this.db.export();
  };

  scratch(): SqlDriver {
    return new SqlJsDriver(this.make(), this.make);
  }

  close(): void {
    this.clearCache();
    this.db.close();
  }
}
