/**
 * SQLite's legacy double-quoted strings, for the benchmark's assertions. SQLite reads `"x"` as the
 * column x when there is one and otherwise, for compatibility with old MySQL habits, as the
 * string 'x' (https://sqlite.org/quirks.html#dblquote); the benchmark's data relies on it
 * (`COALESCE(lock_mode,"")`, `JSON_EXTRACT(facets,"$.status")`). sql.js is built with that
 * misfeature on; better-sqlite3 is built without it (`SQLITE_DQS=0`), and PostgreSQL has none:
 * on those the runner writes such a word as the string it stands for.
 */
import { MEMORY_COLUMNS } from '../store/columns.js';

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

/**
 * An assertion with each pattern bound to LIKE or GLOB written `+:name` (SQLite only). SQLite
 * plans `x LIKE :p` for the pattern bound at the time, to use an index on `x` for a prefix: such a
 * statement is compiled again each time a value is bound to `:p`, as if the schema had changed
 * (about half a driver call's time for the benchmark's COUNT(*) assertions, 1,048 of them per
 * run). `+` is SQLite's no-op operator (it returns its operand as it is, text included), and a
 * pattern that is not a bare parameter is not planned for: the count is the same, compiled once.
 * The assertions' patterns match columns (`text`, `json_each`'s `value`) that no index can serve.
 */
export function withUnplannedPatterns(sql: string): string {
  if (!/\b(?:LIKE|GLOB)\b/i.test(sql)) return sql;
  // Outside strings and quoted names alike.
  return sql
    .split(/('(?:[^']|'')*'|"(?:[^"]|"")*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\b(LIKE|GLOB)(\s+)(?=[:@$?])/gi, '$1$2+')))
    .join('');
}
