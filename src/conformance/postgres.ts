/**
 * The benchmark's assertions are SQLite SQL; on a PostgreSQL store they go through this
 * compatibility layer (spec/storage.md "Benchmark assertions on PostgreSQL"). Rewrites, each for
 * one SQLite habit of the benchmark's data:
 *
 * - `json_each(x)` → `t2m_json_each(x)`: a function the PostgreSQL schema defines, giving
 *   SQLite's (key, value) rows for arrays and objects (values as text);
 * - `json_extract(x, '$.a')` → `t2m_json_extract(x, '$.a')` (text, like `->>`);
 * - `LIKE` → `ILIKE`: SQLite's LIKE ignores ASCII case, PostgreSQL's does not;
 * - a JSON column compared with LIKE (`tags LIKE '%"x"%'`) is compared as its JSON text;
 * - `"…"` that is not a column name is a string, as SQLite reads it (`COALESCE(lock_mode,"")`).
 *
 * Quoted strings are left alone. Parameters stay named; the driver numbers them.
 */
import { MEMORY_COLUMNS } from '../store/columns.js';
import { outsideStrings, quotedWordsAsStrings } from './legacy-sql.js';

const COLUMNS = new Set(MEMORY_COLUMNS.map((c) => c.name));
const JSON_COLUMNS = MEMORY_COLUMNS.filter((c) => c.kind === 'json-array' || c.kind === 'json-object').map((c) => c.name);
const JSON_LIKE = new RegExp(`\\b(${JSON_COLUMNS.join('|')})(\\s+(?:NOT\\s+)?LIKE\\b)`, 'gi');

export function sqliteAssertionToPostgres(sql: string): string {
  return outsideStrings(sql, (code) =>
    code
      .replace(...quotedWordsAsStrings(COLUMNS))
      .replace(/\bjson_each\s*\(/gi, 't2m_json_each(')
      .replace(/\bjson_extract\s*\(/gi, 't2m_json_extract(')
      .replace(JSON_LIKE, '$1::text$2')
      .replace(/\bLIKE\b/gi, 'ILIKE'),
  );
}
