/**
 * Keeps a store's search tokens those of this version's tokenizer. `memory.search_text` (and so
 * the keyword index built from it) holds what `tokens` gave when the record was written; when
 * `tokens` changes, a store written before would hold other tokens than its queries ask for.
 * The store records the tokenizer version in `t2m_meta` (key `tokens`); opening a store of
 * another version (or none: version 1, before it was recorded) writable re-derives every
 * record's tokens in the opening transaction, and the keyword index follows (its statistics by their triggers; the in-memory postings, ./keywords.ts, reload when the counter moves).
 * One generator for both kinds of driver (./io.ts), called by the SQLite and PostgreSQL openers.
 */
import type { Dialect } from '../store/dialect.js';
import { compileGetMeta, compileSearchSources, compileSetMeta, compileSetSearchText } from '../compile/meta.js';
import type { Io, SqlRows } from './seam.js';
import { searchTextOf, TOKENS_VERSION } from '../text/text.js';

export const TOKENS_META_KEY = 'tokens';

/** The tokenizer version a store records (1 when it records none). */
export function* storedTokensVersion(d: Dialect): Io<number> {
  const stmt = compileGetMeta(TOKENS_META_KEY, d);
  const [row] = (yield { kind: 'all', sql: stmt.sql, params: [...stmt.params] }) as SqlRows;
  const v = row ? Number(row.value) : 1;
  return Number.isInteger(v) && v > 0 ? v : 1;
}

/** Marks a store's tokens as this version's (a fresh store, or after re-deriving them). */
export function* markTokensVersion(d: Dialect): Io<void> {
  const stmt = compileSetMeta(TOKENS_META_KEY, String(TOKENS_VERSION), d);
  yield { kind: 'run', sql: stmt.sql, params: [...stmt.params] };
}

/**
 * Re-derives the search tokens of every record when the store's tokenizer version is not this
 * one; returns how many records changed. Run inside the caller's transaction.
 */
export function* retokenize(d: Dialect): Io<number> {
  if ((yield* storedTokensVersion(d)) === TOKENS_VERSION) return 0;
  const sources = compileSearchSources(d);
  let changed = 0;
  for (const r of (yield { kind: 'all', sql: sources.sql, params: [...sources.params] }) as SqlRows) {
    let tags: unknown = [];
    try { tags = JSON.parse(String(r.tags ?? '[]')); } catch { /* bad JSON: no tags */ }
    const searchText = searchTextOf({ ...r, tags });
    if (searchText === (r.search_text ?? null)) continue;
    const stmt = compileSetSearchText(Number(r.id), searchText, d);
    yield { kind: 'run', sql: stmt.sql, params: [...stmt.params] };
    changed++;
  }
  yield* markTokensVersion(d);
  return changed;
}
