/** Retrieval (spec/retrieval.md): the keyword index kept exact, filters before scoring, vectors, fusion and explanations. */
import { describe, expect, it } from 'vitest';
import { run, sweep, undo, auditLog, type Store } from '../../src/engine/index.js';
import { searchTextOf } from '../../src/execute/text.js';
import { encode, freshStore, op, rows, runOk } from '../engine/harness.js';

/** The postings the keyword index should hold: recomputed from the live records' search_text. */
function expectedPostings(store: Store): string[] {
  const out: string[] = [];
  for (const r of rows(store)) {
    if (r.deleted !== 0 || !r.search_text) continue;
    const terms: string[] = r.search_text.split(' ');
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) out.push(`${t}|${r.id}|${n}|${terms.length}`);
  }
  return out.sort();
}

function postings(store: Store): string[] {
  return store.query('SELECT term, memory_id, tf, len FROM memory_term').map((r) => `${r.term}|${r.memory_id}|${r.tf}|${r.len}`).sort();
}

function expectIndexExact(store: Store): void {
  expect(postings(store)).toEqual(expectedPostings(store));
  const live = rows(store).filter((r) => r.deleted === 0 && r.search_text);
  const [stats] = store.query('SELECT docs, tokens FROM memory_search_stats');
  expect(stats).toEqual({ docs: live.length, tokens: live.reduce((a, r) => a + r.search_text.split(' ').length, 0) });
}

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
    expect(rows(store)[0].search_text).toBe(searchTextOf({ text: 'Quarterly budget review with the finance team', tags: ['finance'] }));
    runOk(store, [op('Update', { ids: [1] }, { set: { text: 'Annual budget planning' } })]);
    runOk(store, [op('Label', { ids: [2] }, { tags: ['urgent'] })]);
    expectIndexExact(store);
    expect(postings(store).some((p) => p.startsWith('quarterli|'))).toBe(false);
    runOk(store, [op('Delete', { ids: [2] }, { soft: true })]);
    expectIndexExact(store);
    expect(postings(store).some((p) => p.split('|')[1] === '2')).toBe(false);
    undo(store, auditLog(store).at(-1)!.id, { now: '2025-10-22T00:00:00Z' });
    expectIndexExact(store);
    expect(postings(store).some((p) => p.startsWith('dentist|2|'))).toBe(true);
    runOk(store, [op('Delete', { ids: [4] }, { soft: false })]);
    expectIndexExact(store);
    // A hard-deleted text is gone from every index table.
    expect(store.query(`SELECT COUNT(*) AS n FROM memory_term WHERE term = 'zebrafish' OR memory_id = 4`)).toEqual([{ n: 0 }]);
    runOk(store, [op('Expire', { ids: [3] }, { until: '2025-10-21T01:00:00Z', on_expire: 'anonymize' })]);
    sweep(store, '2025-10-22T00:00:00Z');
    expectIndexExact(store);
    expect(store.query(`SELECT COUNT(*) AS n FROM memory_term WHERE term IN ('vendor', 'delai') AND memory_id = 3`)).toEqual([{ n: 0 }]);
  });

  it('leaves the index as it was when a script fails half-way', async () => {
    const store = await freshStore();
    runOk(store, [encode('alpha budget'), encode('beta budget')]);
    const before = postings(store);
    const r = run(store, [encode('gamma budget'), op('Update', { ids: [99] }, { set: { text: 'x' } }), op('Merge', { ids: [1] }, {})], { now: '2025-10-21T00:00:00Z' });
    expect(r.ok).toBe(false);
    expect(postings(store)).toEqual(before);
    expectIndexExact(store);
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

  it('reads a long posting list from its best end, and falls back to the exact statement when the filters leave too few', async () => {
    const store = await freshStore();
    const long = `budget ${Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')}`;
    runOk(store, [...Array.from({ length: 1100 }, (_, i) => encode(`budget note ${i}`)), encode(long, { tags: ['rare'] })]);
    const pruned = runOk(store, [search('budget', { limit: 5, overrides: { alpha: 0 } }, { include: ['id'] })]).results[0];
    expect(pruned.ids).toHaveLength(5);
    expect(pruned.sql.filter((s) => s.sql.includes('OFFSET'))).toHaveLength(1);
    const filtered = runOk(store, [op('Retrieve', { filter: { has_tags: ['rare'] }, search: { intent: { query: 'budget' }, overrides: { alpha: 0 } } }, { include: ['id'] })]).results[0];
    expect(filtered.ids).toEqual([1101]);
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
  });

  it('hides the search tokens of a record the actor may not read from the statement log', async () => {
    const store = await freshStore();
    runOk(store, [encode('secret zebrafish plans', { read_perm_level: 'private' })], { actor: 'owner' });
    const r = runOk(store, [op('Label', { ids: [1] }, { tags: ['x'] })], { actor: 'reviewer' });
    expect(JSON.stringify(r.results[0].sql)).not.toContain('zebrafish');
  });
});
