/** The sql.js driver: an SQLite database in memory (Node and the browser), exportable as file bytes. */
import type { Database, Statement } from 'sql.js';
import type { SqlValue } from '../compile/dialect.js';
import type { SqlDriver, SqlParams, SqlRow } from '../execute/driver.js';

type SqlJsParams = SqlValue[] | Record<string, SqlValue>;

/** sql.js wants named parameters with their sigil; a name is bound under each sigil SQLite knows. */
function bindable(params: SqlParams | undefined): SqlJsParams {
  if (!params) return [];
  if (Array.isArray(params)) return params as SqlValue[];
  const out: Record<string, SqlValue> = {};
  for (const [k, v] of Object.entries(params)) for (const sigil of [':', '@', '$']) out[sigil + k] = v;
  return out;
}

export class SqlJsDriver implements SqlDriver {
  readonly kind = 'sql.js';
  readonly location = ':memory:';
  private readonly prepared = new Map<string, Statement>();

  constructor(readonly db: Database, private readonly make: () => Database) {}

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

  all(sql: string, params?: SqlParams): SqlRow[] {
    const s = this.statement(sql);
    try {
      s.bind(bindable(params));
      const rows: SqlRow[] = [];
      while (s.step()) rows.push(s.getAsObject() as SqlRow);
      return rows;
    } finally {
      s.reset();
    }
  }

  run(sql: string, params?: SqlParams): number {
    const s = this.statement(sql);
    try {
      s.run(bindable(params));
    } finally {
      s.reset();
    }
    return this.db.getRowsModified();
  }

  exec(sql: string): void {
    this.db.run(sql);
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
