/**
 * Getting an SQLite database ready to be a store, for both drivers: an integrity check, the
 * schema check (only objects text2mem creates), the store version (refuse newer, migrate older
 * forward in one transaction), and the tables of a fresh store. SQLite-specific by nature (it
 * reads sqlite_master and runs PRAGMAs), so it lives with the SQLite drivers; the store format and
 * the refusals both dialects share are in src/store/format.ts.
 */
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { markTokensVersion, retokenize } from '../../retrieve/retokenize.js';
import { searchTextOf } from '../../text/text.js';
import { AUDIT_COLUMNS, MEMORY_COLUMNS } from '../../store/columns.js';
import type { Dialect } from '../../store/dialect.js';
import type { SqlDriver } from '../../store/driver.js';
import { fail, formatVersion, lacksColumns, needsMigration, STORE_FORMAT, STORE_VERSION, tooNew } from '../../store/format.js';
import { driveSync } from '../../store/io.js';

/** Objects that earlier versions created and a migration removes. */
const HISTORIC = new Set([
  'index memory_deleted',
  ...['memory_search_insert', 'memory_search_update', 'memory_vector_update', 'memory_search_delete'].map((t) => `trigger ${t}`),
  'table memory_term',
]);

export interface PrepareOptions {
  /** Only read: no migration, no repair, no new tables (e.g. `t2m audit` on a read-only file). */
  readonly readOnly?: boolean;
  /** `quick` (default): PRAGMA quick_check; `full`: integrity_check; `none`: skip (trusted bytes). */
  readonly integrity?: 'quick' | 'full' | 'none';
}

interface SchemaObject {
  readonly type: string;
  readonly name: string;
  readonly tbl: string;
  readonly sql: string | null;
}

const normal = (sql: string | null) => (sql ?? '').replace(/\s+/g, ' ').trim();
const internal = (name: string) => name === 'sqlite_sequence' || name.startsWith('sqlite_autoindex_') || name.startsWith('sqlite_stat');

function objects(driver: SqlDriver): SchemaObject[] {
  return driver.all('SELECT type, name, tbl_name AS tbl, sql FROM sqlite_master ORDER BY rowid') as unknown as SchemaObject[];
}

/** What a fresh store's sqlite_master holds, per engine (built once in a scratch database). */
const references = new Map<string, Map<string, SchemaObject>>();

function reference(driver: SqlDriver, dialect: Dialect): Map<string, SchemaObject> {
  const key = `${driver.kind}/${dialect.name}`;
  let ref = references.get(key);
  if (!ref) {
    const scratch = driver.scratch();
    try {
      for (const ddl of dialect.schema()) scratch.exec(ddl);
      ref = new Map(objects(scratch).filter((o) => !internal(o.name)).map((o) => [o.name, o]));
    } finally {
      scratch.close();
    }
    references.set(key, ref);
  }
  return ref;
}

function integrity(driver: SqlDriver, mode: 'quick' | 'full'): Diagnostic | null {
  const rows = driver.all(mode === 'quick' ? 'PRAGMA quick_check(5)' : 'PRAGMA integrity_check(5)');
  const problems = rows.map((r) => String(Object.values(r)[0])).filter((m) => m !== 'ok');
  if (!problems.length) return null;
  return fail('store-corrupt', `corrupt (SQLite's ${mode === 'quick' ? 'quick_check' : 'integrity_check'} found: ${problems.join('; ')}); restore it from a backup, or recover it with the sqlite3 shell's .recover`);
}

/** The store's version from its format marker (1 when there is none: the first stores). */
function version(driver: SqlDriver, tables: ReadonlySet<string>): number | Diagnostic {
  if (!tables.has('t2m_meta')) return 1;
  const [row] = driver.all(`SELECT value FROM t2m_meta WHERE key = 'format'`);
  if (!row) return 1;
  return formatVersion(row.value);
}

function describe(o: SchemaObject): string {
  return `${o.type} '${o.name}'${o.type === 'table' || o.tbl === o.name ? '' : ` on table '${o.tbl}'`}`;
}

/** Refuses objects text2mem did not create (a trigger could suppress audit entries) and altered ones. */
function checkSchema(found: readonly SchemaObject[], ref: ReadonlyMap<string, SchemaObject>, storeVersion: number): Diagnostic | null {
  const problems: string[] = [];
  for (const o of found) {
    if (internal(o.name)) continue;
    const want = ref.get(o.name);
    if (!want) {
      if (storeVersion < STORE_VERSION && HISTORIC.has(`${o.type} ${o.name}`)) continue;
      problems.push(`an unexpected ${describe(o)} that text2mem did not create`);
    } else if (want.type !== o.type) {
      problems.push(`'${o.name}' is a ${o.type}, not a ${want.type}`);
    } else if (o.type !== 'table' && normal(o.sql) !== normal(want.sql)) {
      problems.push(`the ${describe(o)} differs from text2mem's definition`);
    }
  }
  if (!problems.length) return null;
  return fail('store-schema', `not opened: it has ${problems.join('; ')}. Such objects can change what the engine writes (e.g. suppress audit entries); remove them with the sqlite3 shell (DROP TRIGGER/INDEX/VIEW ...) if they are not wanted, or use another store`);
}

/**
 * Prepares a database to serve as a store. Writable: in one transaction (BEGIN IMMEDIATE, so
 * concurrent openers take turns), a fresh database gets the tables, an older store is migrated
 * and missing engine objects are re-created. Returns the diagnostics that refuse the database.
 */
export function prepareStore(driver: SqlDriver, dialect: Dialect, options: PrepareOptions = {}): Diagnostic[] {
  try {
    const mode = options.integrity ?? 'quick';
    if (options.readOnly) return inspect(driver, dialect, mode, false);
    driver.begin();
    let done = false;
    try {
      const problems = inspect(driver, dialect, mode, true);
      if (problems.length) return problems;
      driver.commit();
      done = true;
      return [];
    } finally {
      if (!done) driver.rollback();
    }
  } catch (e) {
    const message = (e as Error).message;
    if (/not a database|malformed|corrupt/i.test(message)) return [fail(/not a database/i.test(message) ? 'bad-store-file' : 'store-corrupt', `not an SQLite database, or a corrupt one (${message})`)];
    throw e;
  }
}

function inspect(driver: SqlDriver, dialect: Dialect, mode: 'quick' | 'full' | 'none', write: boolean): Diagnostic[] {
  const found = objects(driver);
  if (!found.length) {
    if (!write) return [fail('bad-store-file', 'an empty SQLite database, not yet a Text2Mem store')];
    for (const ddl of dialect.schema()) driver.exec(ddl);
    const mark = dialect.markFormat(STORE_FORMAT);
    driver.run(mark.sql, mark.params);
    driveSync(driver, markTokensVersion(dialect));
    return [];
  }
  if (mode !== 'none') {
    const bad = integrity(driver, mode);
    if (bad) return [bad];
  }
  const tables = new Set(found.filter((o) => o.type === 'table').map((o) => o.name));
  if (!tables.has('memory')) {
    const names = [...tables].filter((t) => !internal(t));
    return [fail('bad-store-file', names.length ? `an SQLite database but not a Text2Mem store: it has no 'memory' table (tables: ${names.join(', ')})` : 'an SQLite database with no memory table')];
  }
  const list = dialect.listColumns('memory');
  const cols = new Set(driver.all(list.sql, list.params).map((r) => String(r.name)));
  const v = version(driver, tables);
  if (typeof v !== 'number') return [v];
  // Columns a later version added are added by the migration below; any other missing column is damage.
  const absent = MEMORY_COLUMNS.filter((c) => !cols.has(c.name));
  const missing = absent.filter((c) => c.since <= v).map((c) => c.name);
  if (missing.length) return [lacksColumns('database', missing)];
  if (absent.length && !write) return [needsMigration(v, absent)];
  if (v > STORE_VERSION) return [tooNew(v)];
  const ref = reference(driver, dialect);
  const problem = checkSchema(found, ref, v);
  if (problem) return [problem];
  if (!write) return [];
  // Migrate forward (all versions so far need the same steps) and re-create missing engine objects.
  const present = new Set(found.map((o) => o.name));
  const incomplete = [...ref.keys()].some((name) => !present.has(name));
  if (v < STORE_VERSION || incomplete) {
    for (const c of absent) driver.exec(dialect.addColumn(c));
    const auditList = dialect.listColumns('audit_log');
    const auditCols = new Set(driver.all(auditList.sql, auditList.params).map((r) => String(r.name)));
    for (const c of AUDIT_COLUMNS) if (auditCols.size && !auditCols.has(c.name)) driver.exec(dialect.addColumn(c, 'audit_log'));
    // Records written before version 3 have no search tokens: derive them (the keyword index is
    // rebuilt from them below). Their vectors are refreshed by `t2m reindex`.
    if (absent.some((c) => c.name === 'search_text')) {
      const rows = driver.all('SELECT id, text, tags, subject, topic FROM memory WHERE search_text IS NULL');
      for (const r of rows) {
        let tags: unknown = [];
        try { tags = JSON.parse(String(r.tags ?? '[]')); } catch { /* bad JSON: no tags */ }
        driver.run('UPDATE memory SET search_text = ? WHERE id = ?', [searchTextOf({ ...r, tags }), r.id]);
      }
    }
    // The tag index and the search statistics are derived from memory: rebuilt whenever it or a trigger feeding it was missing.
    const stale = [...ref.values()].some((o) => (o.name === 'memory_tag' || o.type === 'trigger') && !present.has(o.name));
    for (const ddl of dialect.schema()) driver.exec(ddl);
    if (stale) for (const sql of dialect.backfill()) driver.exec(sql);
    const mark = dialect.markFormat(STORE_FORMAT);
    driver.run(mark.sql, mark.params);
    driver.run(`UPDATE t2m_meta SET value = ? WHERE key = 'format'`, [STORE_FORMAT]);
  }
  // Search tokens written by another version of the tokenizer are re-derived (src/retrieve/retokenize.ts).
  driveSync(driver, retokenize(dialect));
  return [];
}
