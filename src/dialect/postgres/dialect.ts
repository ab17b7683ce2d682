/**
 * The PostgreSQL dialect (PGlite in-process, or a PostgreSQL server through node-postgres). The
 * only file that knows PostgreSQL's SQL. Rows must come back in the shape the SQLite dialect gives
 * (JSON as text, times as the ISO text that was written), so the drivers read JSON as text and
 * times stay `text COLLATE "C"`: the IR's times keep the writer's UTC offset, which `timestamptz`
 * would discard, and SQLite (and the benchmark's assertions) compare them as text — byte order,
 * which is what the "C" collation gives on any server whatever its locale. See spec/storage.md.
 */
import type { Dialect, VectorCapability } from '../../store/dialect.js';
import { AUDIT_COLUMNS, MEMORY_COLUMNS, type Column } from '../../store/columns.js';

const sqlType = (c: Column, vectors = false): string => {
  switch (c.kind) {
    case 'int': return 'integer';
    case 'real': return 'double precision';
    case 'text': return 'text COLLATE "C"';
    // Lists are jsonb (containment, GIN); objects are json, which keeps their keys in the order
    // they were written (jsonb sorts them), so rows read back exactly as on SQLite.
    case 'json-array': return 'jsonb';
    case 'json-object': return 'json';
    // Packed Float32 vectors (spec/retrieval.md); pgvector's own type where the database has it.
    case 'blob': return vectors ? 'vector' : 'bytea';
  }
};

const columnDdl = (c: Column, vectors = false) => `${c.name} ${sqlType(c, vectors)}${c.defaultSql !== undefined ? ` DEFAULT ${c.defaultSql}` : ''}`;

const memoryDdl = (vectors: boolean) => `CREATE TABLE IF NOT EXISTS memory (
  id integer PRIMARY KEY DEFAULT t2m_next_id('memory'),
${MEMORY_COLUMNS.filter((c) => c.name !== 'id')
  .map((c) => `  ${columnDdl(c, vectors)}`)
  .join(',\n')}
)`;

/** The text-search configuration: `simple` (no stemming, no stop words), so every language's words are kept as written. */
export const TEXT_SEARCH_CONFIG = 'simple';

/** The document a record is searched by; the GIN index `memory_text_search` is built on exactly this expression. */
export const searchDocument = (q: (n: string) => string) => `to_tsvector('${TEXT_SEARCH_CONFIG}', COALESCE(${q('text')}, ''))`;

/**
 * `t2m_json_each(j)`: SQLite's json_each(j) as (key, value text) rows, for arrays and objects
 * alike; the compatibility layer for benchmark assertions written in SQLite SQL
 * (src/conformance/postgres.ts). `t2m_json_extract(j, '$.a.b')`: SQLite's json_extract on a
 * simple `$.key` path, as text.
 */
const COMPAT_FUNCTIONS = [
  `CREATE OR REPLACE FUNCTION t2m_json_each(j jsonb) RETURNS TABLE (key text, value text)
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT (e.i - 1)::text, e.v #>> '{}' FROM jsonb_array_elements(CASE jsonb_typeof(j) WHEN 'array' THEN j ELSE '[]'::jsonb END) WITH ORDINALITY AS e(v, i)
  UNION ALL
  SELECT o.k, o.v #>> '{}' FROM jsonb_each(CASE jsonb_typeof(j) WHEN 'object' THEN j ELSE '{}'::jsonb END) AS o(k, v)
$fn$`,
  `CREATE OR REPLACE FUNCTION t2m_json_extract(j jsonb, path text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT j #>> string_to_array(regexp_replace(path, '^\\$\\.?', ''), '.')
$fn$`,
  // The same on `json` columns (facets, lock_policy).
  `CREATE OR REPLACE FUNCTION t2m_json_each(j json) RETURNS TABLE (key text, value text) LANGUAGE sql IMMUTABLE AS $fn$ SELECT * FROM t2m_json_each(j::jsonb) $fn$`,
  `CREATE OR REPLACE FUNCTION t2m_json_extract(j json, path text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$ SELECT t2m_json_extract(j::jsonb, path) $fn$`,
];

/**
 * Ids come from a counter row updated in the inserting transaction, not from a sequence: a
 * sequence is not rolled back, so a refused or dry-run script would consume ids, while on SQLite
 * (AUTOINCREMENT, and the benchmark's expected ids) a rolled-back insert leaves no gap. Ids are
 * never reused (the counter only grows). The price: concurrent inserting scripts take turns on the
 * counter row (spec/storage.md, spec/scaling.md).
 */
const ID_COUNTER = [
  'CREATE TABLE IF NOT EXISTS t2m_seq (name text PRIMARY KEY, value integer NOT NULL)',
  `CREATE OR REPLACE FUNCTION t2m_next_id(t text) RETURNS integer LANGUAGE sql VOLATILE AS $fn$
  INSERT INTO t2m_seq AS s (name, value) VALUES (t, 1) ON CONFLICT (name) DO UPDATE SET value = s.value + 1 RETURNING value
$fn$`,
];

/**
 * What the search indexes need (spec/retrieval.md), as on SQLite: each record's tokens in
 * `search_text` and `memory_search_stats` (live records indexed, their total length, and the
 * index counter `vectors`, moved by one step per record written whose tokens, vector or liveness
 * may change), kept by one PL/pgSQL trigger in the writing transaction. The keyword and vector
 * indexes are in memory and follow the counter; format 3's `memory_term` postings are dropped.
 */
const tokensOf = (r: string) => `string_to_array(${r}.search_text, ' ')`;
const indexedRow = (r: string) => `(${r}.deleted = 0 AND ${r}.search_text IS NOT NULL AND ${r}.search_text <> '')`;
const SEARCH_DDL = [
  'DROP TABLE IF EXISTS memory_term',
  'CREATE TABLE IF NOT EXISTS memory_search_stats (id integer PRIMARY KEY CHECK (id = 1), docs integer NOT NULL, tokens integer NOT NULL, vectors integer NOT NULL)',
  'INSERT INTO memory_search_stats (id, docs, tokens, vectors) VALUES (1, 0, 0, 0) ON CONFLICT (id) DO NOTHING',
  `CREATE OR REPLACE FUNCTION t2m_memory_search() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND ${indexedRow('OLD')} THEN
    UPDATE memory_search_stats SET docs = docs - 1, tokens = tokens - cardinality(${tokensOf('OLD')}) WHERE id = 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND ${indexedRow('NEW')} THEN
    UPDATE memory_search_stats SET docs = docs + 1, tokens = tokens + cardinality(${tokensOf('NEW')}) WHERE id = 1;
  END IF;
  UPDATE memory_search_stats SET vectors = vectors + 1 WHERE id = 1;
  RETURN NULL;
END
$fn$`,
  `DO $do$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'memory_search' AND tgrelid = 'memory'::regclass) THEN
    CREATE TRIGGER memory_search AFTER INSERT OR DELETE OR UPDATE OF search_text, deleted, embedding_f32, embedding_model ON memory FOR EACH ROW EXECUTE FUNCTION t2m_memory_search();
  END IF;
END $do$`,
];

/**
 * pgvector (spec/retrieval.md, "Vector search on PostgreSQL"): where the database has the `vector`
 * extension (PGlite loads it; on a server an administrator creates it), `embedding_f32` is a
 * pgvector `vector` instead of `bytea`: the engine binds its vectors in pgvector's text form (the
 * same Float32 values), and searches rank by cosine distance in SQL, the selection's filters in
 * the same statement's WHERE (compileVectorSearch). A store created without pgvector has its
 * packed vectors converted once, in the opening transaction, by `t2m_vector(bytea)`, which decodes
 * little-endian binary32 exactly: (2^23 + mantissa) · 2^(exponent − 150) in double precision.
 */
const TO_VECTOR = [
  `CREATE OR REPLACE FUNCTION t2m_vector(b bytea) RETURNS vector LANGUAGE sql IMMUTABLE STRICT AS $fn$
  SELECT array_agg(CASE WHEN f.s THEN -1 ELSE 1 END * CASE WHEN f.e = 0 THEN f.m * power(2::float8, -149) ELSE (8388608 + f.m) * power(2::float8, f.e - 150) END ORDER BY f.i)::real[]::vector
  FROM (SELECT i, (get_byte(b, i + 3) & 128) <> 0 AS s, ((get_byte(b, i + 3) & 127) << 1) | (get_byte(b, i + 2) >> 7) AS e,
               ((get_byte(b, i + 2) & 127) << 16) | (get_byte(b, i + 1) << 8) | get_byte(b, i) AS m
        FROM generate_series(0, length(b) - 4, 4) AS i) AS f
$fn$`,
  // The keyword-index trigger names the column (UPDATE OF), so it is dropped for the change of type and re-created below.
  `DO $do$ BEGIN
  IF (SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'memory' AND column_name = 'embedding_f32') = 'bytea' THEN
    DROP TRIGGER IF EXISTS memory_search ON memory;
    ALTER TABLE memory ALTER COLUMN embedding_f32 TYPE vector USING CASE WHEN length(embedding_f32) >= 4 THEN t2m_vector(embedding_f32) END;
  END IF;
END $do$`,
];

function schema(vectors: boolean): string[] {
  return [
    ...ID_COUNTER,
    memoryDdl(vectors),
    ...(vectors ? TO_VECTOR : []),
    ...(vectors ? [vectorIndexes()] : []),
    'CREATE INDEX IF NOT EXISTS memory_time ON memory (time)',
    'CREATE INDEX IF NOT EXISTS memory_tags ON memory USING GIN (tags jsonb_path_ops)',
    // Full-text search over the text (RETRIEVE's search can rank with ts_rank on it).
    `CREATE INDEX IF NOT EXISTS memory_text_search ON memory USING GIN (${searchDocument((n) => n)})`,
    `CREATE TABLE IF NOT EXISTS audit_log (
  id integer PRIMARY KEY DEFAULT t2m_next_id('audit_log'),
  at text COLLATE "C" NOT NULL,
  actor text,
  op text NOT NULL,
  ir text,
  affected_ids text NOT NULL,
  before text,
  after text,
  undone_by integer,
${AUDIT_COLUMNS.map((c) => `  ${columnDdl(c)}`).join(',\n')}
)`,
    ...SEARCH_DDL,
    'CREATE TABLE IF NOT EXISTS t2m_meta (key text PRIMARY KEY, value text)',
    // Attribute schemas, one row per declared version (src/execute/schemas.ts).
    `CREATE TABLE IF NOT EXISTS attribute_schema (
  tenant text COLLATE "C" NOT NULL,
  attribute text COLLATE "C" NOT NULL,
  version integer NOT NULL,
  schema text NOT NULL,
  declared_at text COLLATE "C" NOT NULL,
  declared_by text,
  trace_id text,
  retracted_at text,
  PRIMARY KEY (tenant, attribute, version)
)`,
    ...COMPAT_FUNCTIONS,
  ];
}

/** SQLSTATEs after which a transaction is rolled back and may be run again: serialization failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);

export const postgres: Dialect = {
  name: 'postgres',
  retryable: (e) => RETRYABLE.has(String((e as { code?: unknown } | null)?.code ?? '')),
  quoteIdent: (name) => `"${name.replace(/"/g, '""')}"`,
  placeholder: (index) => `$${index + 1}`,
  jsonArrayContains: (column, param) => `COALESCE(${column}, '[]'::jsonb) @> jsonb_build_array(${param}::text)`,
  // jsonb containment: answered by the GIN index memory_tags (jsonb_path_ops).
  hasTag: (param) => `"tags" @> jsonb_build_array(${param}::text)`,
  jsonArrayOverlaps: (column, param) => `COALESCE(${column}, '[]'::jsonb) ?| ARRAY(SELECT jsonb_array_elements_text(${param}::jsonb))`,
  jsonObjectField: (column, keyParam) => `(${column} ->> ${keyParam}::text)`,
  insertReturningId: () => ' RETURNING id',
  insertReturning: (columns) => ` RETURNING ${columns.map((c) => `"${c}"`).join(', ')}`,
  lastInsertId: () => `SELECT value AS id FROM t2m_seq WHERE name = 'memory'`,
  // The wire protocol counts a statement's parameters in 16 bits.
  maxParams: 65_535,
  schema: () => schema(false),
  // The tag and text indexes are PostgreSQL indexes: nothing derived to rebuild.
  // The search statistics from the records (a store that predates them).
  backfill: () => [
    `UPDATE memory_search_stats SET docs = (SELECT COUNT(*) FROM memory AS m WHERE ${indexedRow('m')}), tokens = (SELECT COALESCE(SUM(cardinality(${tokensOf('m')})), 0) FROM memory AS m WHERE ${indexedRow('m')}), vectors = vectors + 1 WHERE id = 1`,
  ],
  jsonEntries: (param) => `(SELECT key, value::double precision AS value FROM json_each_text(${param}::json))`,
  jsonElements: (param) => `(SELECT value FROM json_array_elements_text(${param}::json))`,
  addColumn: (c, table = 'memory') => `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${columnDdl(c)}`,
  listTables: () => `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
  listColumns: (table) => ({
    sql: 'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
    params: [table],
  }),
  markFormat: (format) => ({ sql: `INSERT INTO t2m_meta (key, value) VALUES ('format', $1) ON CONFLICT (key) DO NOTHING`, params: [format] }),
};


/**
 * A dimension count (or a count of vectors) written into the statement: a type modifier (`vector(256)`) cannot be a bound
 * parameter, and the condition must be the index's own text for the planner to use it. Always an
 * integer the engine computed (a vector's length), never script text.
 */
function dims(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1 || n > 1e9) throw new Error(`internal: ${n} is not a count of dimensions or vectors`);
  return n;
}

/**
 * Stores holding at least this many vectors of one dimension get an HNSW index for it when opened
 * (spec/retrieval.md, "Vector search on PostgreSQL"). Below it the exact scan is about as fast
 * (the planner prefers it too) and writes stay cheap: every insert into an HNSW graph costs
 * several times a plain one.
 */
export const HNSW_MIN_VECTORS = 50_000;
/** pgvector's HNSW indexes `vector` of at most this many dimensions. */
const HNSW_MAX_DIMENSIONS = 2000;

/**
 * One HNSW index (cosine) per dimension the store holds enough vectors of: an expression index on
 * the column cast to that dimension, partial on `vector_dims(…) = d` (a `vector` column without a
 * dimension cannot be indexed whole; compileVectorSearch orders by the same expression under the
 * same condition). Idempotent; the vectors are counted only when the table is large enough.
 * `min` other than HNSW_MIN_VECTORS: tests.
 */
export function vectorIndexes(min: number = HNSW_MIN_VECTORS): string {
  return `DO $do$
DECLARE d integer;
BEGIN
  IF (SELECT count(*) FROM memory) >= ${dims(min)} THEN
    -- Read whole before the first CREATE INDEX (no query may stay open on the table).
    FOREACH d IN ARRAY ARRAY(SELECT vector_dims(embedding_f32) FROM memory WHERE embedding_f32 IS NOT NULL GROUP BY 1 HAVING count(*) >= ${dims(min)}) LOOP
      IF d <= ${HNSW_MAX_DIMENSIONS} THEN
        EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON memory USING hnsw ((embedding_f32::vector(%s)) vector_cosine_ops) WHERE vector_dims(embedding_f32) = %s', 'memory_embedding_hnsw_' || d, d, d);
      END IF;
    END LOOP;
  END IF;
END $do$`;
}

/**
 * A connection's settings for searches through an HNSW index: scan on past filtered-out
 * candidates (pgvector 0.8's iterative scan) in exact distance order, so a filtered search still
 * gets its LIMIT and the order is the distance's; a candidate list wider than the default 40.
 */
export const VECTOR_SEARCH_SETTINGS = `SELECT set_config('hnsw.iterative_scan', 'strict_order', false), set_config('hnsw.ef_search', '100', false)`;

const PGVECTOR: VectorCapability = {
  distance: (column, param, n) => `(${column}::vector(${dims(n)}) <=> ${param}::vector(${dims(n)}))`,
  hasDimensions: (column, n) => `vector_dims(${column}) = ${dims(n)}`,
  // pgvector's text form; each Float32 printed as the shortest decimal that reads back as the same float.
  value: (v) => `[${Array.from(v, (x) => String(x)).join(',')}]`,
};

/** The PostgreSQL dialect over a database with pgvector: vectors in pgvector's type, ranked in SQL. */
export const postgresVector: Dialect = {
  ...postgres,
  vectors: PGVECTOR,
  schema: () => schema(true),
};
