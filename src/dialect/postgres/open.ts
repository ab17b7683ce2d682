/**
 * Getting a PostgreSQL schema ready to be a store (PGlite or a server): the same rules as an
 * SQLite store file (src/dialect/sqlite/open.ts). In one transaction: an empty schema gets the tables;
 * a store is checked (a `memory` table with every column of its version, no trigger or rule
 * text2mem did not create: one could suppress audit entries), a newer store is refused, an older
 * one is migrated forward (missing columns added, engine objects re-created).
 */
import { MEMORY_COLUMNS } from '../../store/columns.js';
import type { Dialect } from '../../store/dialect.js';
import { postgres, postgresVector } from './dialect.js';
import { KEYWORD_INDEX_DDL } from './keywords.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { AsyncSqlDriver } from '../../store/driver.js';
import { driveAsync } from '../../store/io.js';
import { markTokensVersion, retokenize } from '../../retrieve/retokenize.js';
import { fail, formatVersion, lacksColumns, needsMigration, STORE_FORMAT, STORE_VERSION, tooNew } from '../../store/format.js';


export interface PreparePostgresOptions {
  /** Only read: no migration, no new tables. */
  readonly readOnly?: boolean;
  /** The dialect whose schema the store gets; default `postgresDialectOf(driver)`. */
  readonly dialect?: Dialect;
  /**
   * Also create the indexes keyword scoring on the server reads (./keywords.ts): a store opened
   * writable with `keywords=server` gets them (and keeps them); other stores never pay for them.
   */
  readonly keywordIndexes?: boolean;
}

/**
 * The dialect for the driver's database: with pgvector's `vector` type visible (PGlite loads the
 * extension; on a server an administrator creates it), `postgresVector`, which keeps vectors as
 * pgvector vectors and ranks them in SQL; otherwise `postgres`, whose searches scan packed vectors
 * in the engine as on SQLite (spec/retrieval.md).
 */
export async function postgresDialectOf(driver: AsyncSqlDriver): Promise<Dialect> {
  const [row] = await driver.all(`SELECT to_regtype('vector') IS NOT NULL AS ok`);
  const ok: unknown = row?.ok;
  return ok === true || ok === 1 ? postgresVector : postgres;
}

/** Prepares the driver's current schema as a store; returns the diagnostics that refuse it. */
export async function preparePostgresStore(driver: AsyncSqlDriver, options: PreparePostgresOptions = {}): Promise<Diagnostic[]> {
  const write = !options.readOnly;
  const dialect = options.dialect ?? (await postgresDialectOf(driver));
  if (!write) return inspect(driver, dialect, false);
  // Two first openers of one database take turns: the advisory lock is held to the end of the transaction.
  await driver.exec('BEGIN');
  let done = false;
  try {
    await driver.all(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '/text2mem-store'))`);
    const problems = await inspect(driver, dialect, true);
    if (problems.length) return problems;
    if (options.keywordIndexes) for (const ddl of KEYWORD_INDEX_DDL) await driver.exec(ddl);
    await driver.commit();
    done = true;
    return [];
  } finally {
    if (!done) await driver.rollback();
  }
}

async function inspect(driver: AsyncSqlDriver, dialect: Dialect, write: boolean): Promise<Diagnostic[]> {
  const tables = new Set((await driver.all(postgres.listTables())).map((r) => String(r.name)));
  if (!tables.has('memory')) {
    const names = [...tables];
    if (names.length) return [fail('bad-store-file', `a PostgreSQL schema that is not a Text2Mem store: it has no 'memory' table (tables: ${names.join(', ')})`)];
    if (!write) return [fail('bad-store-file', 'an empty PostgreSQL schema, not yet a Text2Mem store')];
    for (const ddl of dialect.schema()) await driver.exec(ddl);
    const mark = postgres.markFormat(STORE_FORMAT);
    await driver.run(mark.sql, mark.params);
    await driveAsync(driver, markTokensVersion(postgres));
    return [];
  }
  const list = postgres.listColumns('memory');
  const cols = new Set((await driver.all(list.sql, list.params)).map((r) => String(r.name)));
  let v = 1;
  if (tables.has('t2m_meta')) {
    const [row] = await driver.all(`SELECT value FROM t2m_meta WHERE key = 'format'`);
    if (row) {
      const marked = formatVersion(row.value);
      if (typeof marked !== 'number') return [marked];
      v = marked;
    }
  }
  if (v > STORE_VERSION) return [tooNew(v)];
  const absent = MEMORY_COLUMNS.filter((c) => !cols.has(c.name));
  const missing = absent.filter((c) => c.since <= v).map((c) => c.name);
  if (missing.length) return [lacksColumns('schema', missing)];
  if (absent.length && !write) return [needsMigration(v, absent)];
  const foreign = await driver.all(
    `SELECT 'trigger ' || t.tgname || ' on ' || c.relname AS what FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE NOT t.tgisinternal AND NOT (t.tgname = 'memory_search' AND c.relname = 'memory') AND c.relnamespace = current_schema()::regnamespace AND c.relname IN ('memory', 'audit_log', 't2m_meta', 't2m_seq')
     UNION ALL
     SELECT 'rule ' || r.rulename || ' on ' || c.relname FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
       WHERE r.rulename <> '_RETURN' AND c.relnamespace = current_schema()::regnamespace AND c.relname IN ('memory', 'audit_log', 't2m_meta', 't2m_seq')`,
  );
  if (foreign.length) {
    return [fail('store-schema', `not opened: it has ${foreign.map((r) => `a ${String(r.what)}`).join('; ')} that text2mem did not create. Such objects can change what the engine writes (e.g. suppress audit entries); drop them if they are not wanted, or use another schema`)];
  }
  if (!write) return [];
  if (v < STORE_VERSION || absent.length) {
    for (const c of absent) await driver.exec(postgres.addColumn(c));
  }
  // Idempotent: re-creates any engine object that is missing (an index, a compatibility function).
  for (const ddl of dialect.schema()) await driver.exec(ddl);
  const mark = postgres.markFormat(STORE_FORMAT);
  await driver.run(mark.sql, mark.params);
  await driver.run(`UPDATE t2m_meta SET value = $1 WHERE key = 'format'`, [STORE_FORMAT]);
  // Search tokens written by another version of the tokenizer are re-derived (src/retrieve/retokenize.ts).
  await driveAsync(driver, retokenize(postgres));
  return [];
}
