/** Retrieval (spec/retrieval.md): the keyword index kept exact, filters before scoring, vectors, fusion and explanations. */
import { describe, expect, it } from 'vitest';
import { run, sweep, undo, auditLog, type Store } from '../../src/engine/index.js';
import { KeywordIndex } from '../../src/retrieve/keywords.js';
import { expectIndexExact, expectMemoryIndexExact } from '../support/keyword-index.js';
import { searchTextOf, type Embedder } from '../../src/text/text.js';
import { encode, freshStore, op, rows, runOk } from '../engine/harness.js';

const search = (query: string, extra: Record<string, unknown> = {}, args: Record<string, unknown> = { include: ['id', 'text'] }) =>
  op('Retrieve', { search: { intent: { query }, ...extra } }, args);

describe('the keyword index', () => {
  it('stays exact through encode, update, label, soft delete, undo, hard delete and sweep', async () => {
    const store = await freshStore();
    runOk(store, [
      encode('Quarterly budget review with the finance team', { tags: ['finance'] }),
      encode('Dentist appointment on Friday', { tags: ['health'] }),
      encode('Vendor payments were delayed again', { tags: ['finance'], subject: 'payments' }),
      encode('The zebrafish experiment needs a new tank'),
    ]);
    expectIndexExact(store);
    const kept = expectMemoryIndexExact(store);
    expect(rows(store)[0].search_text).toBe(searchTextOf({ text: 'Quarterly budget review with the finance team', tags: ['finance'] }));
    runOk(store, [op('Update', { ids: [1] }, { set: { text: 'Annual budget planning' } })]);
    runOk(store, [op('Label', { ids: [2] }, { tags: ['urgent'] })]);
    expectIndexExact(store);
    expect(expectMemoryIndexExact(store, kept).df('quarterli')).toBe(0);
    runOk(store, [op('Delete', { ids: [2] }, { soft: true })]);
    expectIndexExact(store);
    expect(expectMemoryIndexExact(store, kept).df('dentist')).toBe(0);
    undo(store, auditLog(store).at(-1)!.id, { now: '2025-10-22T00:00:00Z' });
    expectIndexExact(store);
    expect(expectMemoryIndexExact(store).df('dentist')).toBe(1);
    const before = expectMemoryIndexExact(store);
    runOk(store, [op('Delete', { ids: [4] }, { soft: false })]);
    expectIndexExact(store);
    expect(expectMemoryIndexExact(store, before).df('zebrafish')).toBe(0);
    // A hard-deleted text is gone from the store and from the index.
    expect(store.query(`SELECT COUNT(*) AS n FROM memory WHERE search_text LIKE '%zebrafish%' OR id = 4`)).toEqual([{ n: 0 }]);
    runOk(store, [op('Expire', { ids: [3] }, { until: '2025-10-21T01:00:00Z', on_expire: 'anonymize' })]);
    sweep(store, '2025-10-22T00:00:00Z');
    expectIndexExact(store);
    const swept = expectMemoryIndexExact(store);
    expect([swept.df('vendor'), swept.df('delai')]).toEqual([0, 0]);
  });

  it('leaves the index as it was when a script fails half-way', async () => {
    const store = await freshStore();
    runOk(store, [encode('alpha budget'), encode('beta budget')]);
    const before = store.query('SELECT * FROM memory_search_stats');
    const r = run(store, [encode('gamma budget'), op('Update', { ids: [99] }, { set: { text: 'x' } }), op('Merge', { ids: [1] }, {})], { now: '2025-10-21T00:00:00Z' });
    expect(r.ok).toBe(false);
    expect(store.query('SELECT * FROM memory_search_stats')).toEqual(before);
    expectIndexExact(store);
    expectMemoryIndexExact(store);
  });

  it('keeps the in-memory index exact through many rewrites of the same records (its dead postings compacted)', () => {
    const index = new KeywordIndex();
    const texts = ['budget meet', 'dentist friday', 'vendor payment delai', 'budget budget review'];
    for (let i = 0; i < 5000; i++) index.set(1 + (i % 7), i % 11 === 0 ? null : texts[i % texts.length]);
    const fresh = new KeywordIndex();
    for (let id = 1; id <= 7; id++) {
      const last = [...Array(5000).keys()].filter((i) => 1 + (i % 7) === id).at(-1)!;
      fresh.set(id, last % 11 === 0 ? null : texts[last % texts.length]);
    }
    const terms = ['budget', 'meet', 'dentist', 'friday', 'vendor', 'payment', 'delai', 'review'];
    expect([index.docs, index.meanLength, terms.map((t) => index.df(t))]).toEqual([fresh.docs, fresh.meanLength, terms.map((t) => fresh.df(t))]);
    expect(index.search(terms, 10)).toEqual(fresh.search(terms, 10));
  });
});

describe('search', () => {
  it('ranks by BM25 with stemming, and applies filters before scoring', async () => {
    const store = await freshStore();
    runOk(store, [
      encode('budget budget budget meeting', { tags: ['other'] }),
      encode('We met to discuss the budgets', { tags: ['finance'] }),
      encode('Dentist appointment', { tags: ['finance'] }),
    ]);
    const all = runOk(store, [search('budget meetings', {}, { include: ['id'] })]).results[0];
    expect(all.ids[0]).toBe(1);
    // The filter keeps #1 out however well it scores: the limit is filled from what the filter admits.
    const filtered = runOk(store, [op('Retrieve', { filter: { has_tags: ['finance'] }, search: { intent: { query: 'budget meetings' }, limit: 1 } }, { include: ['id'] })]).results[0];
    expect(filtered.ids).toEqual([2]);
    expect(filtered.explain![2].bm25).toBeGreaterThan(0);
  });

  it('scores in memory, checks the winners against the filters, and applies a selective filter before scoring', async () => {
    const store = await freshStore();
    const long = `budget ${Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')}`;
    runOk(store, [...Array.from({ length: 1100 }, (_, i) => encode(`budget note ${i}`)), encode(long, { tags: ['rare'] })]);
    const unfiltered = runOk(store, [search('budget', { limit: 5, overrides: { alpha: 0 } }, { include: ['id'] })]).results[0];
    expect(unfiltered.ids).toHaveLength(5);
    const listsAdmitted = (r: typeof unfiltered) => r.sql.filter((s) => s.sql.startsWith('SELECT "id" FROM "memory" WHERE'));
    expect(listsAdmitted(unfiltered)).toHaveLength(0);
    // 1 of 1,101 records has the tag: its winners are checked, widened once, then only what the filter admits is scored.
    const filtered = runOk(store, [op('Retrieve', { filter: { has_tags: ['rare'] }, search: { intent: { query: 'budget' }, overrides: { alpha: 0 } } }, { include: ['id'] })]).results[0];
    expect(filtered.ids).toEqual([1101]);
    expect(listsAdmitted(filtered)).toHaveLength(1);
    // Both rank by the same BM25: #1101 scores the same among all records and among those the filter admits.
    const inMemory = runOk(store, [search('budget word7', { limit: 1, overrides: { alpha: 0 } }, { include: ['id'] })]).results[0];
    expect(inMemory.ids).toEqual([1101]);
    expect(inMemory.explain![1101].bm25).toBeCloseTo(runOk(store, [op('Retrieve', { filter: { has_tags: ['rare'] }, search: { intent: { query: 'budget word7' }, overrides: { alpha: 0 } } }, { include: ['id'] })]).results[0].explain![1101].bm25!, 4);
  });

  it('finds the nearest records by vector when no word overlaps, and explains every score', async () => {
    const store = await freshStore();
    runOk(store, [encode('Payments to the vendor were delayed'), encode('Dentist appointment on Friday')]);
    const r = runOk(store, [search('repayments overdue', { limit: 1 })]).results[0];
    expect(r.ids).toEqual([1]);
    const e = r.explain![1];
    expect(e.bm25).toBeNull();
    expect(e.vector).toBeGreaterThan(0);
    expect(e).toMatchObject({ vectorRank: 1, weight: 0.5 });
    expect(r.scores![1]).toBe(e.score);
    // ALPHA 0: keywords only, which find nothing here.
    expect(runOk(store, [search('repayments overdue', { overrides: { alpha: 0 } })]).results[0].ids).toEqual([]);
  });

  it('uses the weight as a prior and honours ORDER BY among the results', async () => {
    const store = await freshStore();
    runOk(store, [
      encode('project budget', { time: '2025-01-01T00:00:00Z' }),
      encode('project budget', { time: '2025-03-01T00:00:00Z' }),
      encode('project budget', { time: '2025-02-01T00:00:00Z' }),
    ]);
    runOk(store, [op('Promote', { ids: [3] }, { weight: 1 })]);
    const r = runOk(store, [search('project budget')]).results[0];
    expect(r.ids[0]).toBe(3);
    expect(r.explain![3].score).toBeGreaterThan(r.explain![1].score);
    expect(runOk(store, [search('project budget', { overrides: { order_by: 'time_asc' } })]).results[0].ids).toEqual([1, 3, 2]);
  });

  it('keeps the vector index in step with writes, rollbacks and other writers', async () => {
    const store = await freshStore();
    runOk(store, [encode('orchid greenhouse watering')]);
    expect(runOk(store, [search('orchids', { overrides: { alpha: 1 } })]).results[0].ids).toEqual([1]);
    runOk(store, [encode('orchid pot repotting'), op('Update', { ids: [1] }, { set: { text: 'tax return deadline' } })]);
    expect(runOk(store, [search('orchids', { overrides: { alpha: 1 }, limit: 1 })]).results[0].ids).toEqual([2]);
    const failed = run(store, [encode('orchid orchids orchid'), op('Update', { ids: [99] }, { set: { text: 'x' } }), op('Merge', { ids: [1] }, {})], { now: '2025-10-21T00:00:00Z' });
    expect(failed.ok).toBe(false);
    expect(runOk(store, [search('orchids', { overrides: { alpha: 1 }, limit: 1 })]).results[0].ids).toEqual([2]);
    // A write the engine did not make (another connection, a shell) is seen through the counter.
    store.query('UPDATE memory SET deleted = 1 WHERE id = 2');
    expect(runOk(store, [search('orchids', { overrides: { alpha: 1 }, limit: 1 })]).results[0].ids).not.toContain(2);
    // So is a change of search tokens alone (the keyword index's).
    store.query(`UPDATE memory SET search_text = 'orchid' WHERE id = 1`);
    expect(runOk(store, [search('orchids', { overrides: { alpha: 0 } })]).results[0].ids).toEqual([1]);
  });

  it('scans vectors exactly: the nearest are those a brute-force cosine ranks first', async () => {
    const store = await freshStore();
    const texts = Array.from({ length: 300 }, (_, i) => `note ${i} about ${['budget', 'orchid', 'vendor', 'dentist', 'launch'][i % 5]} ${['review', 'payment', 'tank', 'plan'][i % 4]} ${i % 9}`);
    runOk(store, texts.map((t) => encode(t)));
    const model = store.embedder as Embedder;
    const q = Float32Array.from(model.embed('orchid payment plan'));
    const brute = texts.map((t, i) => ({ id: i + 1, score: Float32Array.from(model.embed(t)).reduce((a, x, j) => a + x * q[j], 0) })).filter((s) => s.score > 0);
    brute.sort((a, b) => b.score - a.score || a.id - b.id);
    const r = runOk(store, [search('orchid payment plan', { limit: 20, overrides: { alpha: 1 } }, { include: ['id'] })]).results[0];
    expect(r.ids).toEqual(brute.slice(0, 20).map((s) => s.id));
    expect(r.ids.map((id) => r.explain![id].vector)).toEqual(brute.slice(0, 20).map((s) => Math.round(s.score * 1e4) / 1e4));
  });

  it('hides the search tokens of a record the actor may not read from the statement log', async () => {
    const store = await freshStore();
    runOk(store, [encode('secret zebrafish plans', { read_perm_level: 'private' })], { actor: 'owner' });
    const r = runOk(store, [op('Label', { ids: [1] }, { tags: ['x'] })], { actor: 'reviewer' });
    expect(JSON.stringify(r.results[0].sql)).not.toContain('zebrafish');
  });
});
