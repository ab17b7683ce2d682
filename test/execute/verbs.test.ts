/** The semantics of each verb, on a real sql.js store. */
import { describe, expect, it } from 'vitest';
import { auditLog, run } from '../../src/engine/index.js';
import { encode, freshStore, NOW, op, row, rows, runOk } from '../engine/harness.js';

const T = '2025-10-20T10:00:00Z';

describe('Encode', () => {
  it('inserts one record with metadata, facet columns, owner, times and an embedding', async () => {
    const store = await freshStore();
    const r = runOk(store, [encode('Hello world', { type: 'note', tags: ['a', 'a', 'b'], time: T, facets: { subject: 'greeting', location: 'Paris', priority: 'high' }, source: 'chat' })], { actor: 'ann' });
    expect(r.results[0].ids).toEqual([1]);
    const m = row(store, 1);
    expect(m).toMatchObject({ text: 'Hello world', type: 'note', tags: ['a', 'b'], time: T, subject: 'greeting', location: 'Paris', source: 'chat', owner: 'ann', deleted: 0, weight: null, created_at: NOW });
    expect(m.facets).toEqual({ subject: 'greeting', location: 'Paris', priority: 'high' });
    expect(m.embedding).toBeNull();
    expect(m.embedding_f32).toBeInstanceOf(Uint8Array);
    expect(m.embedding_f32.byteLength).toBe(256 * 4);
    expect(m.embedding_model).toBe('t2m-ngram-256');
    expect(m.search_text).toBe('hello world b greet');
  });

  it('skips the embedding when asked and numbers records 1, 2, 3', async () => {
    const store = await freshStore();
    const r = runOk(store, [encode('a', { skip_embedding: true }), encode('b'), encode('c')]);
    expect(r.results.map((x) => x.ids[0])).toEqual([1, 2, 3]);
    expect(row(store, 1).embedding).toBeNull();
  });

  it('stores structured payloads as JSON text', async () => {
    const store = await freshStore();
    runOk(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { structured: { k: 'v' } } } }]);
    expect(row(store, 1).text).toBe('{"k":"v"}');
  });
});

describe('Encode args beyond the content', () => {
  it('stores weight and the other memory columns given to Encode (weight clamped with a warning)', async () => {
    const store = await freshStore();
    const r = runOk(store, [
      encode('alpha note', { weight: 0.9 }),
      encode('beta', {
        weight: 1.4, ttl: 'P2D', expire_action: 'demote', expire_reason: 'stale',
        lock_mode: 'append_only', lock_reason: 'audit', lock_policy: { reviewers: ['rev'] }, lock_expires: '2025-12-01T00:00:00Z',
      }),
    ]);
    expect(row(store, 1).weight).toBe(0.9);
    expect(row(store, 2)).toMatchObject({
      weight: 1, expire_at: '2025-10-23T00:00:00Z', expire_action: 'demote', expire_reason: 'stale',
      lock_mode: 'append_only', lock_reason: 'audit', lock_policy: '{"reviewers":["rev"]}', lock_expires: '2025-12-01T00:00:00Z',
    });
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([['weight-clamped', 'args.weight']]);
    // A later Promote shifts from the stored weight, not from the neutral base.
    runOk(store, [op('Promote', { ids: ['1'] }, { weight_delta: 0.05 })]);
    expect(row(store, 1).weight).toBeCloseTo(0.95);
    // The lock given at Encode is in force like any other.
    expect(run(store, [op('Delete', { ids: ['2'] })], { now: NOW }).diagnostics[0].code).toBe('record-locked');
  });

  it('refuses a bad value for a memory column given to Encode, changing nothing', async () => {
    const store = await freshStore();
    for (const [args, path] of [
      [{ weight: 'high' }, 'args.weight'], [{ lock_mode: 'frozen' }, 'args.lock_mode'],
      [{ expire_action: 'explode' }, 'args.expire_action'], [{ ttl: 'soon' }, 'args.ttl'],
      [{ lock_policy: { deny: ['Erase'] } }, 'args.lock_policy'],
    ] as const) {
      const r = run(store, [encode('x', args)], { now: NOW });
      expect(r.ok, JSON.stringify(args)).toBe(false);
      expect(r.diagnostics[0]).toMatchObject({ severity: 'error', path });
    }
    expect(rows(store)).toEqual([]);
  });

  it('takes metadata written inside the payload (the paper\'s B.1.1 form); top-level args win', async () => {
    const store = await freshStore();
    runOk(store, [{
      stage: 'ENC', op: 'Encode',
      args: {
        payload: { text: 'Q2 OKR review', tags: ['OKR'], type: 'note', time: '2025-04-10T15:30:00+08:00', source: 'meeting_minutes', facets: { subject: 'Q2 performance', certainty: 'confirmed' } },
        type: 'minutes',
      },
    }]);
    expect(row(store, 1)).toMatchObject({
      tags: ['OKR'], type: 'minutes', time: '2025-04-10T07:30:00Z', source: 'meeting_minutes', subject: 'Q2 performance',
      facets: { subject: 'Q2 performance', certainty: 'confirmed' },
    });
  });

  it('keeps args that are not memory columns as facets (explicit facets win)', async () => {
    const store = await freshStore();
    const r = runOk(store, [
      encode('x', { payload: { text: 'x', knowledge_type: 'fact', context: 'mail' }, status: 'open', facets: { status: 'draft' } }),
    ], { actor: 'ann' });
    expect(row(store, 1)).toMatchObject({ owner: 'ann', deleted: 0, facets: { knowledge_type: 'fact', context: 'mail', status: 'draft' } });
    expect(r.diagnostics).toEqual([]);
    // The audit log keeps the IR exactly as written.
    expect(auditLog(store)[0].ir).toMatchObject({ args: { payload: { knowledge_type: 'fact', context: 'mail' }, status: 'open' } });
  });

  it('refuses args naming columns the engine keeps itself (governed-column)', async () => {
    const store = await freshStore();
    const r = run(store, [encode('x', { owner: 'mallory', deleted: 1 })], { now: NOW, actor: 'ann' });
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([['governed-column', 'args.owner'], ['governed-column', 'args.deleted']]);
    expect(rows(store)).toEqual([]);
  });
});

describe('args a verb does not use', () => {
  it('are reported as ignored-arg warnings naming the key', async () => {
    const store = await freshStore();
    runOk(store, [encode('One. Two.', { tags: ['t'] })]);
    const r = runOk(store, [
      op('Split', { ids: ['1'] }, { strategy: 'by_sentences', link_back: true }, { dry_run: true }),
      op('Retrieve', { filter: { has_tags: ['t'], colour: 'red' } }, { include: ['text'], fields: ['x'] }),
    ]);
    // The checker's warning on the read's unknown condition comes first; then the engine's own.
    expect(r.diagnostics.map((d) => [d.code, d.path, d.statement])).toEqual([
      ['unknown-condition', 'target.filter.colour', 1],
      ['ignored-arg', 'args.link_back', 0], ['ignored-arg', 'target.filter.colour', 1], ['ignored-arg', 'args.fields', 1],
    ]);
    expect(r.diagnostics[2].message).toMatch(/'colour'/);
  });

  it('refuse a write whose target carries a condition the engine cannot apply', async () => {
    const store = await freshStore();
    runOk(store, [encode('a', { tags: ['t'] }), encode('b')]);
    const r = run(store, [op('Delete', { filter: { colour: 'red' } })], { now: NOW });
    expect(r.ok).toBe(false);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([expect.objectContaining({ code: 'unknown-condition', path: 'target.filter.colour' })]);
    expect(rows(store).map((x) => x.deleted)).toEqual([0, 0]);
  });
});

describe('Update', () => {
  it('sets fields, mirrors facets, turns ttl into expire_at and unknown fields into facets', async () => {
    const store = await freshStore();
    const r = runOk(store, [
      encode('old', { tags: ['x'], time: T, facets: { subject: 's' } }),
      op('Update', { ids: ['1'] }, { set: { text: 'new', tags: ['y', 'y'], weight: 0.9, ttl: 'P1D', status: 'done', facets: { topic: 'tp' } } }),
    ]);
    expect(row(store, 1)).toMatchObject({ text: 'new', tags: ['y'], weight: 0.9, expire_at: '2025-10-22T00:00:00Z', topic: 'tp', facets: { subject: 's', status: 'done', topic: 'tp' } });
    const change = r.results[1].changes[0];
    expect(change.before).toMatchObject({ text: 'old', tags: ['x'], weight: null });
    expect(change.after).toMatchObject({ text: 'new', tags: ['y'], weight: 0.9 });
  });
});

describe('Label', () => {
  it('adds (deduplicated), replaces and removes tags and merges facets', async () => {
    const store = await freshStore();
    runOk(store, [encode('t', { tags: ['a', 'b'], facets: { k: 1 } }), op('Label', { ids: ['1'] }, { tags: ['b', 'c'], facets: { j: 2 } })]);
    expect(row(store, 1)).toMatchObject({ tags: ['a', 'b', 'c'], facets: { k: 1, j: 2 } });
    const r = runOk(store, [op('Label', { ids: ['1'] }, { tags: ['a', 'zz'], mode: 'remove' })]);
    expect(row(store, 1).tags).toEqual(['b', 'c']);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['tag-not-present']);
    runOk(store, [op('Label', { ids: ['1'] }, { tags: ['only'], mode: 'replace' })]);
    expect(row(store, 1).tags).toEqual(['only']);
  });
});

describe('Promote / Demote', () => {
  it('shifts from the 0.5 base, sets absolutely, archives to <= 0.3 and clamps to [0,1]', async () => {
    const store = await freshStore();
    runOk(store, [encode('a'), encode('b'), encode('c'), encode('d')]);
    runOk(store, [
      op('Promote', { ids: ['1'] }, { weight_delta: 0.3 }),
      op('Promote', { ids: ['1'] }, { weight_delta: 0.9 }),
      op('Demote', { ids: ['2'] }, { weight_delta: -0.2 }),
      op('Demote', { ids: ['3'] }, { archive: true }),
      op('Promote', { ids: ['4'] }, { weight: 0.75 }),
      op('Demote', { ids: ['4'] }, { weight_delta: -1 }),
    ]);
    expect(rows(store).map((r) => r.weight)).toEqual([1, 0.3, 0.1, 0]);
  });

  it('keeps an archived record retrievable', async () => {
    const store = await freshStore();
    const r = runOk(store, [encode('archived note', { tags: ['t'] }), op('Demote', { ids: ['1'] }, { archive: true }), op('Retrieve', { filter: { has_tags: ['t'] } })]);
    expect(r.results[2].ids).toEqual([1]);
  });

  it('writes a Demote\'s reason to the record (demote_reason); a later Demote without one keeps it, Promote never writes it', async () => {
    const store = await freshStore();
    const r = runOk(store, [encode('a'), encode('b'), op('Demote', { ids: ['1'] }, { archive: true, reason: 'stale' }), op('Promote', { ids: ['2'] }, { weight_delta: 0.1, reason: 'useful' })]);
    expect(r.results[2].changes).toEqual([{ id: 1, before: { weight: null, demote_reason: null }, after: { weight: 0.1, demote_reason: 'stale' } }]);
    runOk(store, [op('Demote', { ids: ['1'] }, { weight_delta: -0.05 })]);
    expect(rows(store).map((x) => [x.id, x.demote_reason])).toEqual([[1, 'stale'], [2, null]]);
    runOk(store, [op('Demote', { ids: ['1'] }, { weight: 0, reason: 'superseded' })]);
    expect(row(store, 1).demote_reason).toBe('superseded');
    expect(auditLog(store).at(-1)!.after).toEqual({ 1: { weight: 0, demote_reason: 'superseded' } });
  });

  it('stores a reminder rule and its next occurrence; a reminder alone also raises the weight by the default step', async () => {
    const store = await freshStore();
    runOk(store, [encode('standup'), op('Promote', { ids: ['1'] }, { remind: { rrule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0' } })]);
    expect(row(store, 1)).toMatchObject({ auto_frequency: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0', next_auto_update_at: '2025-10-21T09:00:00Z', weight: 0.7 });
  });
});

describe('Merge', () => {
  it('keeps the primary, appends the others, links lineage both ways and soft-deletes the children', async () => {
    const store = await freshStore();
    const r = runOk(store, [encode('one', { tags: ['a'] }), encode('two', { tags: ['b'] }), encode('three', { tags: ['c'] }), op('Merge', { ids: ['1', '2', '3'] }, { primary_id: '2' })]);
    expect(r.results[3].ids).toEqual([2, 1, 3]);
    const p = row(store, 2);
    expect(p).toMatchObject({ text: 'two\none\nthree', tags: ['b', 'a', 'c'], deleted: 0 });
    expect(JSON.parse(p.lineage_children)).toEqual([1, 3]);
    expect(row(store, 1)).toMatchObject({ deleted: 1 });
    expect(JSON.parse(row(store, 3).lineage_parents)).toEqual([2]);
  });

  it('"auto" picks the first record; soft_delete_children=false deletes them', async () => {
    const store = await freshStore();
    runOk(store, [encode('one'), encode('two'), op('Merge', { ids: ['2', '1'] }, { soft_delete_children: false })]);
    expect(rows(store).map((r) => r.id)).toEqual([1]);
    expect(row(store, 1).text).toBe('one\ntwo');
  });

  it('refuses fewer than two records', async () => {
    const store = await freshStore();
    const r = run(store, [encode('one'), op('Merge', { ids: ['1'] })], { now: NOW });
    expect(r.ok).toBe(false);
    expect(r.diagnostics[0]).toMatchObject({ code: 'merge-needs-two', statement: 1 });
    expect(rows(store)).toEqual([]);
  });

  it('warns and changes nothing when a filter finds fewer than two records to merge', async () => {
    const store = await freshStore();
    const r = runOk(store, [encode('one', { tags: ['solo'] }), op('Merge', { filter: { has_tags: ['solo'], limit: 10 } })]);
    expect(r.results[1].ids).toEqual([]);
    expect(r.results[1].warnings).toEqual([expect.objectContaining({ code: 'merge-nothing-to-merge', statement: 1 })]);
    expect(row(store, 1)).toMatchObject({ text: 'one', deleted: 0 });
  });
});

describe('Split', () => {
  it('splits by sentences, Western and CJK, into linked children and retires the source', async () => {
    const store = await freshStore();
    const r = runOk(store, [encode('First point. Second point! 第三点。第四点？', { tags: ['t'], type: 'note', time: T }), op('Split', { ids: ['1'] }, { strategy: 'by_sentences' })]);
    expect(r.results[1].ids).toEqual([1, 2, 3, 4, 5]);
    expect(rows(store).map((x) => x.text)).toEqual(['First point. Second point! 第三点。第四点？', 'First point.', 'Second point!', '第三点。', '第四点？']);
    expect(row(store, 1).deleted).toBe(1);
    expect(JSON.parse(row(store, 1).lineage_children)).toEqual([2, 3, 4, 5]);
    expect(row(store, 2)).toMatchObject({ tags: ['t'], type: 'note', time: T, lineage_parents: '[1]' });
  });

  it('splits by chunks and by headings, keeps the source when told, inherits only when asked', async () => {
    const store = await freshStore();
    runOk(store, [
      encode('# A\nalpha\n# B\nbeta\n# C\ngamma', { tags: ['t'] }),
      op('Split', { ids: ['1'] }, { strategy: 'custom', params: { custom: { instruction: 'by headings', max_splits: 2 } }, inherit_all: false, keep_source: true }),
    ]);
    expect(rows(store).map((x) => x.text)).toEqual(['# A\nalpha\n# B\nbeta\n# C\ngamma', '# A\nalpha', '# B\nbeta\n\n# C\ngamma']);
    expect(row(store, 1).deleted).toBe(0);
    expect(row(store, 2).tags).toBeNull();
    const s2 = await freshStore();
    const [a, b, c] = ['abcdefghij'.repeat(5), 'klmnopqrst'.repeat(5), 'uvwxyz'];
    runOk(s2, [encode(`${a} ${b} ${c}`), op('Split', { ids: ['1'] }, { strategy: 'by_chunks', params: { by_chunks: { chunk_size: 50 } } })]);
    expect(rows(s2).slice(1).map((x) => x.text)).toEqual([a, b, c]);
  });

  it('leaves a one-sentence record alone with a warning', async () => {
    const store = await freshStore();
    const r = runOk(store, [encode('Just one.'), op('Split', { ids: ['1'] })]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['split-single-piece']);
    expect(rows(store)).toHaveLength(1);
  });
});

describe('Lock / Expire / Delete', () => {
  it('Lock sets mode, reason, policy and expiry', async () => {
    const store = await freshStore();
    runOk(store, [encode('doc'), op('Lock', { ids: ['1'] }, { mode: 'append_only', reason: 'final', policy: { allow: ['Label'], reviewers: ['ann'], expires: '2026-01-01T00:00:00Z' } })]);
    expect(row(store, 1)).toMatchObject({ lock_mode: 'append_only', lock_reason: 'final', lock_expires: '2026-01-01T00:00:00Z', lock_policy: '{"allow":["Label"],"reviewers":["ann"]}' });
  });

  it('Expire registers an until time or a TTL and an action', async () => {
    const store = await freshStore();
    runOk(store, [encode('a'), encode('b'), op('Expire', { ids: ['1'] }, { ttl: 'P7D', on_expire: 'hard_delete' }), op('Expire', { ids: ['2'] }, { until: '2026-01-01T00:00:00Z' })]);
    expect(row(store, 1)).toMatchObject({ expire_at: '2025-10-28T00:00:00Z', expire_action: 'hard_delete' });
    expect(row(store, 2)).toMatchObject({ expire_at: '2026-01-01T00:00:00Z', expire_action: 'soft_delete' });
  });

  it('Delete is soft by default, hard when soft=false, and honours older_than and time_range', async () => {
    const store = await freshStore();
    runOk(store, [
      encode('old', { tags: ['t'], time: '2025-01-01T00:00:00Z' }),
      encode('mid', { tags: ['t'], time: '2025-06-01T00:00:00Z' }),
      encode('new', { tags: ['t'], time: '2025-10-20T00:00:00Z' }),
      op('Delete', { filter: { has_tags: ['t'] } }, { older_than: 'P180D' }),
      op('Delete', { filter: { has_tags: ['t'] } }, { time_range: { start: '2025-05-01T00:00:00Z', end: '2025-07-01T00:00:00Z' }, soft: false }),
    ]);
    expect(rows(store).map((r) => [r.id, r.deleted])).toEqual([[1, 1], [3, 0]]);
  });
});

describe('Retrieve', () => {
  async function seeded() {
    const store = await freshStore();
    runOk(store, [
      encode('Quarterly budget review meeting with finance', { tags: ['budget'], time: '2025-10-01T00:00:00Z' }),
      encode('Dentist appointment on Friday', { tags: ['personal'], time: '2025-10-02T00:00:00Z' }),
      encode('Budget for the marketing campaign was approved', { tags: ['budget'], time: '2025-10-03T00:00:00Z' }),
      op('Promote', { ids: ['1'] }, { weight: 0.9 }),
    ]);
    return store;
  }

  it('filters, orders (time_desc default, time_asc, weight_desc), limits and projects include fields', async () => {
    const store = await seeded();
    const r = runOk(store, [
      op('Retrieve', { filter: { has_tags: ['budget'] } }, { include: ['text'] }),
      op('Retrieve', { filter: { limit: 2 }, search: undefined }),
      op('Retrieve', { search: { intent: { query: 'budget' }, overrides: { order_by: 'time_asc' } } }),
      op('Retrieve', { search: { intent: { query: 'budget' }, overrides: { order_by: 'weight_desc' } } }),
    ]);
    expect(r.results[0].ids).toEqual([3, 1]);
    expect(r.results[0].rows![0]).toEqual({ id: 3, text: 'Budget for the marketing campaign was approved' });
    expect(r.results[1].ids).toEqual([3, 2]);
    // #2 matches nothing but was written between the two matches: found through its neighbours
    // (spec/retrieval.md "Neighbour context").
    expect(r.results[2].ids).toEqual([1, 2, 3]);
    expect(r.results[2].explain![2]).toMatchObject({ bm25: null, fused: 0 });
    expect(r.results[3].ids).toEqual([1, 2, 3]);
  });

  it('ranks a search by relevance and drops records with no overlap', async () => {
    const store = await seeded();
    const r = runOk(store, [op('Retrieve', { search: { intent: { query: 'dentist appointment' }, overrides: { k: 5 } } })]);
    expect(r.results[0].ids[0]).toBe(2);
    expect(r.results[0].scores![2]).toBeGreaterThan(0.5);
  });

  it('skips deleted and expired records', async () => {
    const store = await seeded();
    const r = runOk(store, [
      op('Delete', { ids: ['1'] }),
      op('Expire', { ids: ['3'] }, { until: '2025-10-20T00:00:00Z' }),
      op('Retrieve', { filter: { has_tags: ['budget'] } }),
    ]);
    expect(r.results[2].ids).toEqual([]);
  });
});

describe('Summarize', () => {
  it('is extractive, focus-aware and within max_tokens', async () => {
    const store = await freshStore();
    const r = runOk(store, [
      encode('The launch is on Monday. Budget was approved at two million. The team had lunch.', { tags: ['p'] }),
      encode('Risks: the payment vendor may slip. Budget overrun is possible.', { tags: ['p'] }),
      op('Summarize', { filter: { has_tags: ['p'] } }, { focus: 'budget', max_tokens: 16 }),
    ]);
    const s = r.results[2].summary!;
    expect(s).toMatch(/Budget/);
    expect(s).not.toMatch(/lunch/);
    expect(s.split(/\s+/).length).toBeLessThanOrEqual(16);
    expect([...r.results[2].ids].sort()).toEqual([1, 2]);
  });
});

describe('Merge primary outside the target', () => {
  it('merges the target into a primary_id that the target does not select', async () => {
    const store = await freshStore();
    runOk(store, [encode('base', { tags: ['p'] }), encode('x', { tags: ['m'] }), encode('y', { tags: ['m'] }), op('Merge', { filter: { has_tags: ['m'] } }, { primary_id: '1' })]);
    expect(row(store, 1).text).toBe('base\ny\nx');
    expect(rows(store).map((r) => r.deleted)).toEqual([0, 1, 1]);
    const r = run(store, [op('Merge', { filter: { has_tags: ['p'] } }, { primary_id: '9' })], { now: NOW });
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['merge-primary-missing']);
  });
});

describe('Label facets', () => {
  it('fill the facet columns, with time normalised', async () => {
    const store = await freshStore();
    runOk(store, [encode('x'), op('Label', { ids: ['1'] }, { facets: { subject: 'Ann', time: '2025-10-20T10:00:00+02:00' } })]);
    expect(row(store, 1)).toMatchObject({ subject: 'Ann', time: '2025-10-20T08:00:00Z', facets: { subject: 'Ann', time: '2025-10-20T10:00:00+02:00' } });
  });
});

describe('Update and embeddings', () => {
  it('re-embeds a record whose text changes, so search sees the new text', async () => {
    const store = await freshStore();
    runOk(store, [encode('dentist appointment'), op('Update', { ids: ['1'] }, { set: { text: 'quarterly budget review' } })]);
    const r = runOk(store, [op('Retrieve', { search: { intent: { query: 'budget review' }, overrides: { alpha: 1 } } })]);
    expect(r.results[0].ids).toEqual([1]);
    expect(r.results[0].scores![1]).toBeGreaterThan(0.75);
  });
});
