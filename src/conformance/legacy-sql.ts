/**
 * SQLite's legacy double-quoted strings, for the benchmark's assertions. SQLite reads `"x"` as the
 * column x when there is one and otherwise, for compatibility with old MySQL habits, as the
 * string 'x' (https://sqlite.org/quirks.html#dblquote); the benchmark's data relies on it
 * (`COALESCE(lock_mode,"")`, `JSON_EXTRACT(facets,"$.status")`). sql.js is built with that
 * misfeature on; better-sqlite3 is built without it (`SQLITE_DQS=0`), and PostgreSQL has none:
 * on those the runner writes such a word as the string it stands for.
 */
import { MEMORY_COLUMNS } from '../compile/columns.js';

/** Applies `fn` to the parts of `sql` outside single-quoted strings. */
export function outsideStrings(sql: string, fn: (code: string) => string): string {
  return sql
    .split(/('(?:[^']|'')*')/)
    .map((part, i) => (i % 2 === 1 ? part : fn(part)))
    .join('');
}

/** A `String.replace` pattern and replacer: `"…"` naming none of `columns` becomes the string `'…'`. */
export function quotedWordsAsStrings(columns: ReadonlySet<string>): [RegExp, (whole: string, inner: string) => string] {
  return [/"((?:[^"]|"")*)"/g, (whole, inner) => (columns.has(inner.toLowerCase()) ? whole : `'${inner.replace(/""/g, '"').replace(/'/g, "''")}'`)];
}

/** The columns an assertion can name on SQLite: the memory table's and those of `json_each`/`json_tree`'s rows. */
const SQLITE_COLUMNS = new Set([...MEMORY_COLUMNS.map((c) => c.name), 'key', 'value', 'type', 'atom', 'id', 'parent', 'fullkey', 'path']);

/** An assertion as SQLite with legacy double-quoted strings reads it, for an SQLite built without them. */
export function withoutDoubleQuotedStrings(sql: string): string {
  return sql.includes('"') ? outsideStrings(sql, (code) => code.replace(...quotedWordsAsStrings(SQLITE_COLUMNS))) : sql;
}
