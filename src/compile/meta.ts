/**
 * Statements on the store's meta table (`t2m_meta`: key → value) and on the records' search
 * tokens, for the store's own upkeep (the tokenizer version, src/retrieve/retokenize.ts).
 */
import { ParamList, type Dialect, type SqlStatement } from '../store/dialect.js';

/** The value stored under `key` (one row `value`, or none). */
export function compileGetMeta(key: string, d: Dialect): SqlStatement {
  const p = new ParamList(d);
  return { sql: `SELECT value FROM ${d.quoteIdent('t2m_meta')} WHERE key = ${p.bind(key)}`, params: p.values };
}

/** Stores `value` under `key`, replacing what was there. */
export function compileSetMeta(key: string, value: string, d: Dialect): SqlStatement {
  const p = new ParamList(d);
  return {
    sql: `INSERT INTO ${d.quoteIdent('t2m_meta')} (key, value) VALUES (${p.bind(key)}, ${p.bind(value)}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    params: p.values,
  };
}

/** Every record (of every tenant, live or not) with the fields its search tokens come from. */
export function compileSearchSources(d: Dialect): SqlStatement {
  const q = d.quoteIdent;
  return { sql: `SELECT ${['id', 'text', 'tags', 'subject', 'topic', 'search_text'].map(q).join(', ')} FROM ${q('memory')} ORDER BY ${q('id')}`, params: [] };
}

/** Sets one record's search tokens (the keyword index follows by its triggers). */
export function compileSetSearchText(id: number, searchText: string | null, d: Dialect): SqlStatement {
  const p = new ParamList(d);
  const q = d.quoteIdent;
  return { sql: `UPDATE ${q('memory')} SET ${q('search_text')} = ${p.bind(searchText)} WHERE ${q('id')} = ${p.bind(id)}`, params: p.values };
}
