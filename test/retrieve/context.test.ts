/**
 * Neighbour context (spec/retrieval.md "Neighbour context"): a fused search lends each found
 * record's fused score to the tenant's records written just before and after it; the records are
 * returned as themselves, filters and tenants hold, and ALPHA 0 / 1 stay one ranker alone.
 */
import { describe, expect, it } from 'vitest';
import { Session, undo, auditLog } from '../../src/engine/index.js';
import { KeywordIndex } from '../../src/retrieve/keywords.js';
import { CONTEXT_WEIGHTS, context, fuse } from '../../src/retrieve/search.js';
import { encode, freshStore, NOW, op, runOk } from '../engine/harness.js';

const search = (query: string, extra: Record<string, unknown> = {}) => op('Retrieve', { search: { intent: { query }, ...extra } }, { include: ['id', 'text'] });

const TURNS = [
  'Alex: the weather was grey all week',
  'Sam: did you finally visit the pottery studio downtown?',
  'Alex: yes, last Saturday, and I loved it',
  'Sam: my neighbour is painting the fence again',
  'Alex: lunch was a sandwich at my desk',
  'Sam: traffic on the bridge is terrible',
];

describe('neighbour context', () => {
  it('finds a reply that shares no word with the query through the turn it answers, and explains it', async () => {
    const store = await freshStore();
    runOk(store, TURNS.map((t) => encode(t)));
    const r = runOk(store, [search('pottery studio')]).results[0];
    expect(r.ids.slice(0, 2)).toEqual([2, 3]);
    const reply = r.explain![3];
    expect(reply).toMatchObject({ bm25: null, bm25Rank: null, fused: 0 });
    // The turn it answers lends the first weight of its fused score (the other neighbours, found
    // by their vectors, a little more); the prior of weight 0.5 is 1.
    expect(reply.context).toBeGreaterThanOrEqual(CONTEXT_WEIGHTS[0] * r.explain![2].fused - 1e-4);
    expect(reply.context).toBeLessThan(CONTEXT_WEIGHTS[0] * r.explain![2].fused + 0.1);
    expect(reply.score).toBeCloseTo(reply.context, 3);
    expect(r.explain![2].score).toBeCloseTo((r.explain![2].fused + r.explain![2].context) * 1, 3);
    // Two places away: the second weight.
    expect(r.explain![4].context).toBeGreaterThanOrEqual(CONTEXT_WEIGHTS[1] * r.explain![2].fused - 1e-4);
    // The record itself, not a merged text.
    expect(r.rows!.find((row) => row.id === 3)!.text).toBe(TURNS[2]);
  });

  it('leaves ALPHA 0 and ALPHA 1 one ranker alone', async () => {
    const store = await freshStore();
    runOk(store, TURNS.map((t) => encode(t)));
    for (const alpha of [0, 1]) {
      const r = runOk(store, [search('pottery studio', { overrides: { alpha } })]).results[0];
      expect(r.ids).not.toContain(3);
      for (const id of r.ids) expect(r.explain![id].context).toBe(0);
    }
  });

  it('neither returns nor lends from records the filters exclude', async () => {
    const store = await freshStore();
    runOk(store, TURNS.map((t, i) => encode(t, i === 2 ? { tags: ['hidden'] } : { tags: ['shown'] })));
    const r = runOk(store, [op('Retrieve', { search: { intent: { query: 'pottery studio' } }, filter: { has_tags: ['shown'] } }, { include: ['id'] })]).results[0];
    expect(r.ids).not.toContain(3);
    expect(r.ids[0]).toBe(2);
    // Record 4 is two places from 2 (3 is still between them in the order of writing), and 3 lends nothing.
    expect(r.explain![4].context).toBeGreaterThanOrEqual(CONTEXT_WEIGHTS[1] * r.explain![2].fused - 1e-4);
    expect(r.explain![4].context).toBeLessThan(CONTEXT_WEIGHTS[0] * r.explain![2].fused);
  });

  it('takes neighbours among the tenant’s own records', async () => {
    const store = await freshStore();
    const b = new Session(store, { tenant: 'B', actor: 'u', now: NOW });
    const a = new Session(store, { tenant: 'A', actor: 'u', now: NOW });
    for (const [i, t] of TURNS.entries()) {
      expect((await b.run([encode(t)])).ok).toBe(true);
      // Another tenant writes between every two of B's records.
      expect((await a.run([encode(`A's note ${i} about pottery studio rent`)])).ok).toBe(true);
    }
    const r = await b.run([search('pottery studio')]);
    expect(r.ok).toBe(true);
    const res = r.results[0];
    // B's records are 1, 3, 5, …: the reply to B's question (id 5) is next to it (id 3) for B.
    expect(res.ids.slice(0, 2)).toEqual([3, 5]);
    expect(res.explain![5].context).toBeGreaterThan(0);
  });

  it('knows each record’s neighbours through deletes, undo and compaction', async () => {
    const index = new KeywordIndex();
    for (let id = 1; id <= 3000; id++) index.set(id, `w${id % 7}`);
    expect(index.neighbour(10, -1)).toBe(9);
    expect(index.neighbour(10, 2)).toBe(12);
    expect(index.neighbour(1, -1)).toBeNull();
    expect(index.neighbour(3000, 1)).toBeNull();
    index.set(11, null);
    expect(index.neighbour(10, 1)).toBe(12);
    expect(index.neighbour(12, -2)).toBe(9);
    expect(index.neighbour(11, 1)).toBeNull();
    index.set(11, 'w4');
    expect(index.neighbour(10, 1)).toBe(11);
    // Updating a record keeps its place.
    index.set(10, 'changed');
    expect(index.neighbour(9, 1)).toBe(10);
    // Enough removals compact the index; the order follows.
    for (let id = 100; id < 1500; id++) index.set(id, null);
    expect(index.neighbour(99, 1)).toBe(1500);
    expect(index.neighbour(1500, -2)).toBe(98);
    // A record written after a gap of ids comes after the others.
    index.set(5000, 'w1');
    expect(index.neighbour(3000, 1)).toBe(5000);
  });

  it('survives an undone delete in the store', async () => {
    const store = await freshStore();
    runOk(store, TURNS.map((t) => encode(t)));
    runOk(store, [op('Delete', { ids: [3] }, { soft: true })]);
    expect(runOk(store, [search('pottery studio')]).results[0].ids).not.toContain(3);
    undo(store, auditLog(store).at(-1)!.id, { now: '2025-10-22T00:00:00Z' });
    expect(runOk(store, [search('pottery studio')]).results[0].ids.slice(0, 2)).toEqual([2, 3]);
  });

  it('lends nothing from a record with no fused score, and only the given weights', () => {
    const parts = fuse([{ id: 5, score: 2 }, { id: 9, score: 1 }], [], 0.3);
    const lent = context(parts, (id, steps) => id + steps, [0.5, 0]);
    expect([...lent.keys()].sort((x, y) => x - y)).toEqual([4, 6, 8, 10]);
    expect(lent.get(4)).toBeCloseTo(0.5 * 0.7, 9);
    expect(lent.get(8)).toBeCloseTo(0.5 * 0.35, 9);
  });
});
