/** Checks shared by the retrieval tests: the keyword index (spec/retrieval.md) says what the records' search tokens say. */
import { expect } from 'vitest';
import type { Store } from '../../src/engine/index.js';
import { KeywordIndex, keywordIndex } from '../../src/retrieve/keywords.js';
import { rows } from '../engine/harness.js';

/** The search statistics say what the live records' tokens say. */
export function expectIndexExact(store: Store): void {
  const live = rows(store).filter((r) => r.deleted === 0 && r.search_text);
  const [stats] = store.query('SELECT docs, tokens FROM memory_search_stats');
  expect({ docs: Number(stats.docs), tokens: Number(stats.tokens) }).toEqual({ docs: live.length, tokens: live.reduce((a, r) => a + r.search_text.split(' ').length, 0) });
}

/** The store's in-memory keyword index says what a fresh load of the live records' tokens says (and, given `kept`, it was kept in step rather than reloaded). */
export function expectMemoryIndexExact(store: Store, kept?: KeywordIndex): KeywordIndex {
  const index = store.drive(keywordIndex(store));
  if (kept) expect(index).toBe(kept);
  const fresh = new KeywordIndex();
  for (const r of rows(store)) if (r.deleted === 0) fresh.set(r.id, r.search_text);
  const terms = [...new Set(rows(store).flatMap((r) => (r.search_text ?? '').split(' ').filter(Boolean)))];
  expect([index.docs, index.meanLength]).toEqual([fresh.docs, fresh.meanLength]);
  expect(terms.map((t) => index.df(t))).toEqual(terms.map((t) => fresh.df(t)));
  expect(index.search(terms, 100)).toEqual(fresh.search(terms, 100));
  return index;
}
