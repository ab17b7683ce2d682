/**
 * Tenants share nothing observable in search (spec/retrieval.md, "Tenants"): the keyword
 * statistics (record count, mean length, document frequency) and the vector candidates are the
 * tenant's own, so tenant B's results — ids, order, scores and their explanations — are the same
 * whether or not tenant A wrote anything, on sql.js and on PGlite (pgvector ranks in SQL there).
 */
import { describe, expect, it } from 'vitest';
import { Session, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { openStoreUrl } from '../../src/dialect/open-url.js';
import { KeywordIndex, keywordIndex } from '../../src/retrieve/keywords.js';
import type { AnySqlDriver } from '../../src/store/driver.js';

const NOW = '2026-03-01T00:00:00Z';

const B_TEXTS = [
  'the quarterly budget review is on friday',
  'budget notes for the design team',
  'friday lunch with the design team',
  'review the hiring plan before the budget meeting',
  'a short note',
  'travel budget for the spring conference in lisbon',
];
// A's words overlap B's (budget, design, friday): with store-wide statistics they would move B's idf and mean length.
const A_TEXTS = [
  'budget budget budget overview', 'design system budget', 'friday release budget', 'budget', 'budget and design and friday',
  'a much longer record about many unrelated things such as gardening cooking and the weather in the mountains this week',
];

const QUERIES: { query: string; alpha: number }[] = [
  { query: 'budget friday', alpha: 0 },
  { query: 'design team budget', alpha: 0 },
  { query: 'budget review', alpha: 0.5 },
  { query: 'spring conference travel', alpha: 1 },
  { query: 'design budget', alpha: 0.3 },
];

const encode = (text: string, i: number) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text }, tags: [`t${i % 2}`], time: `2026-02-0${1 + (i % 9)}T00:00:00Z` } });
const search = (query: string, alpha: number) => ({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query }, limit: 5, overrides: { alpha } } } });

async function write(store: Store<AnySqlDriver>, tenant: string, texts: readonly string[]): Promise<void> {
  const r = await new Session(store, { tenant, actor: 'u', now: NOW }).run(texts.map(encode));
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
}

/** B's results for every query, with each id replaced by its text (so stores whose ids differ compare). */
async function resultsOfB(store: Store<AnySqlDriver>): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const { query, alpha } of QUERIES) {
    const r = await new Session(store, { tenant: 'B', actor: 'u', now: NOW }).run([search(query, alpha)]);
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    const s = r.results[0];
    const text = new Map((s.rows ?? []).map((row) => [Number(row.id), String(row.text)]));
    out.push({
      query, alpha,
      rows: (s.rows ?? []).map((row) => row.text),
      scores: s.ids.map((id) => [text.get(id), s.scores?.[id]]),
      explain: s.ids.map((id) => [text.get(id), s.explain?.[id]]),
    });
  }
  return out;
}

/** The same, with the ids themselves (for stores where B's ids are the same). */
async function idsOfB(store: Store<AnySqlDriver>): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const { query, alpha } of QUERIES) {
    const r = await new Session(store, { tenant: 'B', actor: 'u', now: NOW }).run([search(query, alpha)]);
    out.push({ ids: r.results[0].ids, scores: r.results[0].scores, explain: r.results[0].explain });
  }
  return out;
}

const drivers: { name: string; open: () => Promise<Store<AnySqlDriver>> }[] = [
  { name: 'sql.js', open: () => createStore() as Promise<Store<AnySqlDriver>> },
  {
    name: 'PGlite', open: async () => {
      const opened = await openStoreUrl('pglite:');
      if (!opened.ok) throw new Error(JSON.stringify(opened.diagnostics));
      return opened.store as Store<AnySqlDriver>;
    },
  },
];

describe.each(drivers)('tenant B\'s search results do not depend on tenant A ($name)', ({ open }) => {
  it('A writing after, before and between B\'s records changes nothing B sees but the ids', async () => {
    const alone = await open();
    await write(alone, 'B', B_TEXTS);
    const baseline = await resultsOfB(alone);
    // Every query finds something, so the comparison means something.
    for (const q of baseline as { rows: unknown[] }[]) expect(q.rows.length).toBeGreaterThan(0);
    // A writes after B: the same ids, scores and explanations.
    const before = await idsOfB(alone);
    await write(alone, 'A', A_TEXTS);
    expect(await idsOfB(alone)).toEqual(before);
    await alone.close();

    // A writes before and between B's records (B's ids move; nothing else does).
    const shared = await open();
    await write(shared, 'A', A_TEXTS);
    await write(shared, 'B', B_TEXTS.slice(0, 3));
    await write(shared, 'A', A_TEXTS);
    await write(shared, 'B', B_TEXTS.slice(3));
    expect(await resultsOfB(shared)).toEqual(baseline);
    // B searched once (its index loaded), A writes more (kept in step in memory), B searches again.
    await write(shared, 'A', A_TEXTS.map((t) => `${t} budget friday design`));
    expect(await resultsOfB(shared)).toEqual(baseline);
    await shared.close();
  }, 120_000);
});

describe('the keyword index is per tenant', () => {
  it('its statistics are those of the tenant\'s live records, loaded or kept in step', async () => {
    const store = await createStore();
    await write(store, 'A', A_TEXTS);
    await write(store, 'B', B_TEXTS);
    const index = store.drive(keywordIndex(store, undefined, 'B'));
    const fresh = new KeywordIndex();
    const rows = store.query(`SELECT id, search_text FROM memory WHERE tenant = 'B' AND deleted = 0`);
    for (const r of rows) fresh.set(Number(r.id), String(r.search_text));
    expect([index.docs, index.meanLength, index.df('budget')]).toEqual([fresh.docs, fresh.meanLength, fresh.df('budget')]);
    expect(index.docs).toBe(B_TEXTS.length);
    // A's writes do not reach B's index; A's own index is A's.
    await write(store, 'A', ['budget budget']);
    const again = store.drive(keywordIndex(store, undefined, 'B'));
    expect(again).toBe(index);
    expect(again.docs).toBe(B_TEXTS.length);
    expect(store.drive(keywordIndex(store, undefined, 'A')).docs).toBe(A_TEXTS.length + 1);
    store.close();
  });

  it('a store written before the indexes were per tenant (the same format) opens with per-tenant statistics and results', async () => {
    // The statistics are derived from the records when an index is loaded: no stored statistic
    // needs migrating. A store where both tenants wrote, saved and opened again through the checks
    // and migrations of opening, gives B the results B alone gives.
    const alone = await createStore();
    await write(alone, 'B', B_TEXTS);
    const baseline = await resultsOfB(alone);
    const shared = await createStore();
    await write(shared, 'A', A_TEXTS);
    await write(shared, 'B', B_TEXTS);
    const reopened = await createStore({ data: shared.export() });
    expect(reopened.query(`SELECT value FROM t2m_meta WHERE key = 'format'`)).toEqual([{ value: 'text2mem-store/5' }]);
    expect(await resultsOfB(reopened)).toEqual(baseline);
    const index = reopened.drive(keywordIndex(reopened, undefined, 'B'));
    expect([index.docs, index.df('budget')]).toEqual([B_TEXTS.length, B_TEXTS.filter((t) => t.includes('budget')).length]);
    for (const s of [alone, shared, reopened]) s.close();
  });
});
