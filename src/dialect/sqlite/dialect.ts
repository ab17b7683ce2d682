/** The SQLite dialect (sql.js and better-sqlite3). SQLite's SQL lives in this folder (src/dialect/sqlite/) only. */
import type { Dialect } from '../../store/dialect.js';
import { AUDIT_COLUMNS, MEMORY_COLUMNS, type Column } from '../../store/columns.js';

const columnDdl = (c: Column) => `${c.name} ${c.sqlType}${c.defaultSql !== undefined ? ` DEFAULT ${c.defaultSql}` : ''}`;

const MEMORY_DDL = `CREATE TABLE IF NOT EXISTS memory (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
${MEMORY_COLUMNS.filter((c) => c.name !== 'id')
  .map((c) => `  ${columnDdl(c)}`)
  .join(',\n')}
)`;

/**
 * What the search indexes (spec/retrieval.md) need from the store: each record's tokens in
 * `search_text` (the engine's own, space-separated, so index and query tokenize alike on every
 * driver), written in the same statement as the record, and `memory_search_stats`: the live
 * records indexed, their total length, and the index counter (`vectors`), moved by one step per
 * record written whose tokens, vector or liveness may change. The keyword and vector indexes are
 * in memory (src/retrieve/keywords.ts, vectors.ts) and follow the counter. Postings tables kept by
 * triggers cost one b-tree insert per term of every record (they halved encode throughput) and
 * are gone since store format 4.
 */
const length = (r: string) => `(length(${r}.search_text) - length(replace(${r}.search_text, ' ', '')) + 1)`;
const indexed = (r: string) => `(${r}.deleted = 0 AND ${r}.search_text IS NOT NULL AND ${r}.search_text <> '')`;
const docs = (r: string) => `(CASE WHEN ${indexed(r)} THEN 1 ELSE 0 END)`;
const tokens = (r: string) => `(CASE WHEN ${indexed(r)} THEN ${length(r)} ELSE 0 END)`;
const SEARCH_DDL = [
  `CREATE TABLE IF NOT EXISTS memory_search_stats (id INTEGER PRIMARY KEY CHECK (id = 1), docs INTEGER NOT NULL, tokens INTEGER NOT NULL, vectors INTEGER NOT NULL)`,
  'INSERT OR IGNORE INTO memory_search_stats (id, docs, tokens, vectors) VALUES (1, 0, 0, 0)',
  // Format 3's postings table and its triggers.
  ...['memory_search_insert', 'memory_search_update', 'memory_vector_update', 'memory_search_delete'].map((t) => `DROP TRIGGER IF EXISTS ${t}`),
  'DROP TABLE IF EXISTS memory_term',
  `CREATE TRIGGER IF NOT EXISTS memory_index_insert AFTER INSERT ON memory BEGIN
  UPDATE memory_search_stats SET docs = docs + ${docs('NEW')}, tokens = tokens + ${tokens('NEW')}, vectors = vectors + 1 WHERE id = 1;
END`,
  `CREATE TRIGGER IF NOT EXISTS memory_index_update AFTER UPDATE OF embedding_f32, embedding_model, deleted, search_text ON memory BEGIN
  UPDATE memory_search_stats SET docs = docs - ${docs('OLD')} + ${docs('NEW')}, tokens = tokens - ${tokens('OLD')} + ${tokens('NEW')}, vectors = vectors + 1 WHERE id = 1;
END`,
  `CREATE TRIGGER IF NOT EXISTS memory_index_delete AFTER DELETE ON memory BEGIN
  UPDATE memory_search_stats SET docs = docs - ${docs('OLD')}, tokens = tokens - ${tokens('OLD')}, vectors = vectors + 1 WHERE id = 1;
END`,
];

export const sqlite: Dialect = {
  name: 'sqlite',
  quoteIdent: (name) => `"${name.replace(/"/g, '""')}"`,
  placeholder: () => '?',
  jsonArrayContains: (column, param) => `EXISTS (SELECT 1 FROM json_each(COALESCE(${column}, '[]')) WHERE value = ${param})`,
  hasTag: (param) => `"id" IN (SELECT memory_id FROM memory_tag WHERE tag = ${param})`,
  jsonArrayOverlaps: (column, param) =>
    `EXISTS (SELECT 1 FROM json_each(COALESCE(${column}, '[]')) AS a JOIN json_each(${param}) AS b ON a.value = b.value)`,
  // json_each rather than a JSON path, so keys with quotes or dots need no escaping.
  jsonObjectField: (column, keyParam) => `(SELECT value FROM json_each(COALESCE(${column}, '{}')) WHERE key = ${keyParam})`,
  insertReturningId: () => ' RETURNING id',
  insertReturning: (columns) => ` RETURNING ${columns.map((c) => `"${c}"`).join(', ')}`,
  lastInsertId: () => 'SELECT last_insert_rowid() AS id',
  // `LIMIT ?` makes SQLite plan for the number bound, so the statement is compiled again every
  // time one is bound (as after a schema change: 150-250 µs for a tag-filtered Retrieve, about
  // five times the query's own cost on a small store). `+` is SQLite's no-op operator; a count
  // that is not a bare parameter is planned for once. Same rows; the plans do not use the count.
  limitCount: (param) => `+${param}`,
  // SQLITE_MAX_VARIABLE_NUMBER's default since SQLite 3.32 (2020); sql.js and better-sqlite3 bundle later builds.
  maxParams: 32_766,
  schema: () => [
    MEMORY_DDL,
    'CREATE INDEX IF NOT EXISTS memory_time ON memory(time)',
    // An index on `deleted` misleads the planner (almost every row has deleted = 0) and made
    // tag-filtered reads 2x slower; earlier stores drop it.
    'DROP INDEX IF EXISTS memory_deleted',
    `CREATE TABLE IF NOT EXISTS audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  actor TEXT,
  op TEXT NOT NULL,
  ir TEXT,
  affected_ids TEXT NOT NULL,
  before TEXT,
  after TEXT,
  undone_by INTEGER,
${AUDIT_COLUMNS.map((c) => `  ${columnDdl(c)}`).join(',\n')}
)`,
    // A fact's versions by key (supersession, HISTORY). Partial, and not led by the tenant: an
    // index on tenant would draw the planner away from the tag and time indexes on every read
    // (2.4x slower filtered reads at 10k records, `npm run perf -- engine`); `attribute = ?` implies it.
    'CREATE INDEX IF NOT EXISTS memory_fact ON memory(subject, attribute, valid_from) WHERE attribute IS NOT NULL',
    'CREATE INDEX IF NOT EXISTS audit_log_tenant ON audit_log(tenant, id)',
    `CREATE TABLE IF NOT EXISTS t2m_meta (key TEXT PRIMARY KEY, value TEXT)`,
    // Attribute schemas, one row per declared version (src/execute/schemas.ts).
    `CREATE TABLE IF NOT EXISTS attribute_schema (
  tenant TEXT NOT NULL,
  attribute TEXT NOT NULL,
  version INTEGER NOT NULL,
  schema TEXT NOT NULL,
  declared_at TEXT NOT NULL,
  declared_by TEXT,
  trace_id TEXT,
  retracted_at TEXT,
  PRIMARY KEY (tenant, attribute, version)
)`,
    // A tag index kept in step with memory.tags by triggers, so tag filters need no JSON scan.
    `CREATE TABLE IF NOT EXISTS memory_tag (memory_id INTEGER NOT NULL, tag TEXT NOT NULL)`,
    'CREATE INDEX IF NOT EXISTS memory_tag_tag ON memory_tag(tag, memory_id)',
    'CREATE INDEX IF NOT EXISTS memory_tag_id ON memory_tag(memory_id)',
    `CREATE TRIGGER IF NOT EXISTS memory_tag_insert AFTER INSERT ON memory BEGIN
  INSERT INTO memory_tag (memory_id, tag) SELECT NEW.id, value FROM json_each(COALESCE(NEW.tags, '[]'));
END`,
    `CREATE TRIGGER IF NOT EXISTS memory_tag_update AFTER UPDATE OF tags ON memory BEGIN
  DELETE FROM memory_tag WHERE memory_id = OLD.id;
  INSERT INTO memory_tag (memory_id, tag) SELECT NEW.id, value FROM json_each(COALESCE(NEW.tags, '[]'));
END`,
    `CREATE TRIGGER IF NOT EXISTS memory_tag_delete AFTER DELETE ON memory BEGIN
  DELETE FROM memory_tag WHERE memory_id = OLD.id;
END`,
    ...SEARCH_DDL,
  ],
  jsonEntries: (param) => `(SELECT key, value FROM json_each(${param}))`,
  jsonElements: (param) => `(SELECT value FROM json_each(${param}))`,
  addColumn: (c, table = 'memory') => `ALTER TABLE ${table} ADD COLUMN ${columnDdl(c)}`,
  listTables: () => `SELECT name FROM sqlite_master WHERE type = 'table'`,
  listColumns: (table) => ({ sql: 'SELECT name FROM pragma_table_info(?)', params: [table] }),
  markFormat: (format) => ({ sql: `INSERT OR IGNORE INTO t2m_meta (key, value) VALUES ('format', ?)`, params: [format] }),
  backfill: () => [
    'DELETE FROM memory_tag',
    `INSERT INTO memory_tag (memory_id, tag) SELECT memory.id, j.value FROM memory, json_each(COALESCE(memory.tags, '[]')) AS j`,
    `UPDATE memory_search_stats SET docs = (SELECT COUNT(*) FROM memory AS m WHERE ${indexed('m')}), tokens = (SELECT COALESCE(SUM(${length('m')}), 0) FROM memory AS m WHERE ${indexed('m')}), vectors = vectors + 1 WHERE id = 1`,
  ],
};
