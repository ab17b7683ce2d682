/**
 * A PostgreSQL server, through node-postgres (`pg`): one connection per store. Scripts run as
 * SERIALIZABLE transactions; a script that loses a serialization conflict to a concurrent one is
 * rolled back and run again by the caller (./store.ts, spec/storage.md
 * "Concurrency on PostgreSQL").
 */
import pg from 'pg';
import type { AsyncSqlDriver, SqlParams, SqlRow } from '../../store/driver.js';
import { redact } from '../../store/url.js';
import { toPositional } from './params.js';
import { PARSERS, parseVector, VECTOR_OID_QUERY } from './rows.js';

export interface PgOptions {
  /** The schema the store's tables live in (created when missing); default: the server's search path. */
  readonly schema?: string;
  /** Give up connecting after this long (default 10 s). */
  readonly connectTimeoutMs?: number;
}

/** The row parsers of one connection: PARSERS, and pgvector's type where the database has it (its OID is per database). */
function typesWith(extra: Record<number, (text: string) => unknown>) {
  return {
    getTypeParser: ((oid: number, format?: string) => {
      const own = PARSERS[oid] ?? extra[oid];
      if (own && format !== 'binary') return own;
      return pg.types.getTypeParser(oid, format as 'text');
    }) as typeof pg.types.getTypeParser,
  };
}

/** A `postgres://` URL with its password hidden, fit for messages and `location` (every form: src/store/url.ts). */
export function redactUrl(url: string): string {
  return redact(url);
}

export class PgDriver implements AsyncSqlDriver {
  readonly kind = 'postgres';
  readonly async = true as const;
  readonly location: string;

  constructor(readonly client: pg.Client, url: string) {
    this.location = redactUrl(url);
  }

  /** Connects to the server at `url`; throws what `pg` throws (the caller turns it into a diagnostic). */
  static async connect(url: string, options: PgOptions = {}): Promise<PgDriver> {
    const extra: Record<number, (text: string) => unknown> = {};
    const client = new pg.Client({ connectionString: url, types: typesWith(extra), connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000 });
    // A server that goes away while idle must not crash the process: the next query reports it.
    client.on('error', () => {});
    await client.connect();
    const driver = new PgDriver(client, url);
    try {
      // Messages (NOTICEs such as "relation already exists, skipping") are not ours to print.
      await client.query(`SET client_min_messages TO warning`);
      if (options.schema) await driver.useSchema(options.schema);
      // Vectors read back packed, as on SQLite (./rows.ts).
      const oid = (await client.query<{ oid: number | null }>(VECTOR_OID_QUERY)).rows[0]?.oid;
      if (oid) extra[oid] = parseVector;
    } catch (e) {
      await client.end().catch(() => {});
      throw e;
    }
    return driver;
  }

  async useSchema(schema: string): Promise<void> {
    const q = `"${schema.replace(/"/g, '""')}"`;
    await this.client.query(`CREATE SCHEMA IF NOT EXISTS ${q}; SET search_path TO ${q}, public`);
  }

  async all(sql: string, params?: SqlParams): Promise<SqlRow[]> {
    const { sql: text, values } = toPositional(sql, params);
    const r = await this.client.query<SqlRow>(text, values);
    return r.rows ?? [];
  }

  async run(sql: string, params?: SqlParams): Promise<number> {
    const { sql: text, values } = toPositional(sql, params);
    const r = await this.client.query(text, values);
    return r.rowCount ?? 0;
  }

  async exec(sql: string): Promise<void> {
    await this.client.query(sql);
  }

  async begin(): Promise<void> {
    await this.client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
  }

  async commit(): Promise<void> {
    await this.client.query('COMMIT');
  }

  async rollback(): Promise<void> {
    await this.client.query('ROLLBACK');
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}
