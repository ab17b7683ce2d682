/**
 * PGlite: PostgreSQL compiled to WebAssembly, in this process. `pglite:` keeps the database in
 * memory; `pglite:./dir` keeps it in a directory (created on first use). The pgvector extension
 * (`vector`) is loaded so that retrieval can store and index embeddings as vectors. One PGlite
 * instance is one connection: a store on it runs one script at a time.
 */
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { AsyncSqlDriver, SqlParams, SqlRow } from '../../store/driver.js';
import { toPositional } from './params.js';
import { PARSERS, parseVector, VECTOR_OID_QUERY } from './rows.js';

export interface PgliteOptions {
  /** A directory for the database files; absent: in memory. */
  readonly dataDir?: string;
  /** The schema the store's tables live in (created when missing); default `public`. */
  readonly schema?: string;
}

/**
 * A new data directory is the owner's alone (0700), as PostgreSQL's initdb makes it: PGlite
 * would create it 0777 less the umask, and the files in it 0666. An existing directory PGlite
 * will initialise (an empty one) is made 0700 too; one that holds a database is left as it is.
 */
function ownerOnly(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
    return;
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') return; // PGlite reports a missing parent.
  }
  try {
    if (readdirSync(dir).length === 0) chmodSync(dir, 0o700);
  } catch {
    // Not a directory, or not ours: PGlite says why.
  }
}

export class PgliteDriver implements AsyncSqlDriver {
  readonly kind = 'pglite';
  readonly async = true as const;

  constructor(readonly db: PGlite, readonly location: string) {}

  /** Starts PGlite (about a second: it boots a PostgreSQL instance) and loads pgvector. */
  static async open(options: PgliteOptions = {}): Promise<PgliteDriver> {
    if (options.dataDir !== undefined) ownerOnly(options.dataDir);
    const db = await PGlite.create({
      ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
      extensions: { vector },
      parsers: PARSERS,
    });
    await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
    // Vectors read back packed, as on SQLite (./rows.ts).
    const oid = (await db.query<{ oid: number | null }>(VECTOR_OID_QUERY)).rows[0]?.oid;
    if (oid) db.parsers[oid] = parseVector;
    const driver = new PgliteDriver(db, options.dataDir !== undefined ? `pglite:${options.dataDir}` : 'pglite:');
    if (options.schema) await driver.useSchema(options.schema);
    return driver;
  }

  /** Creates `schema` when missing and makes it the first on the search path (the store's tables go there). */
  async useSchema(schema: string): Promise<void> {
    const q = `"${schema.replace(/"/g, '""')}"`;
    await this.db.exec(`CREATE SCHEMA IF NOT EXISTS ${q}; SET search_path TO ${q}, public`);
  }

  async all(sql: string, params?: SqlParams): Promise<SqlRow[]> {
    const { sql: text, values } = toPositional(sql, params);
    const r = await this.db.query<SqlRow>(text, values);
    return r.rows;
  }

  async run(sql: string, params?: SqlParams): Promise<number> {
    const { sql: text, values } = toPositional(sql, params);
    const r = await this.db.query(text, values);
    return r.affectedRows ?? 0;
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  async begin(): Promise<void> {
    await this.db.exec('BEGIN ISOLATION LEVEL SERIALIZABLE');
  }

  async commit(): Promise<void> {
    await this.db.exec('COMMIT');
  }

  async rollback(): Promise<void> {
    await this.db.exec('ROLLBACK');
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}
