import { describe, expect, it } from 'vitest';
import { assertionSql, evaluateAssertion, evaluateRanking, parseSamples, runBenchmark, sampleOp, type Sample } from '../../src/conformance/index.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';

const sample: Sample = {
  id: 't2m-test-single-label-001',
  prerequisites: [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'a note' }, tags: ['x'], time: '2025-10-20T00:00:00Z' } }],
  schema_list: [{ stage: 'STO', op: 'Label', target: { filter: { has_tags: ['x'] } }, args: { tags: ['y'], mode: 'add' } }],
  expected: {
    assertions: [
      { name: 'tagged', select: { from: 'memory', where: ['deleted=0', 'EXISTS (SELECT 1 FROM json_each(tags) WHERE value LIKE :tag)'] }, expect: { op: '==', value: 1 }, params: { tag: '%y%', unused: 1 } },
      { name: 'wrong', select: { from: 'memory', where: ['deleted=1'] }, expect: { op: '>=', value: 1 } },
    ],
    ranking: null,
    meta: { eval_time_utc: '2025-10-21T00:00:00Z' },
  },
};

describe('benchmark runner', () => {
  it('counts passing and failing assertions and explains failures', async () => {
    const report = await runBenchmark([sample]);
    expect(report.assertions).toEqual({ total: 2, passed: 1 });
    expect(report.samples).toEqual({ total: 1, passed: 0 });
    expect(report.by_op.Label.assertions).toEqual({ total: 2, passed: 1 });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0].why).toContain('expected COUNT >= 1, got 0');
  });

  it('filters by op', async () => {
    expect((await runBenchmark([sample], { only: 'delete' })).samples.total).toBe(0);
    expect((await runBenchmark([sample], { only: 'label' })).samples.total).toBe(1);
  });

  it('reports an SQL error in an assertion as a failure, not a crash', async () => {
    const store = await createStore();
    const r = evaluateAssertion(store, { name: 'bad', select: { from: 'memory', where: ['no_such_column = 1'] }, expect: { op: '==', value: 0 } });
    expect(r.passed).toBe(false);
    expect(String(r.actual)).toMatch(/SQL error/);
  });

  it('checks ranking against retrieved ids: min_hits, allow_extra, k', async () => {
    const store = await createStore();
    const enc = (t: string) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t }, tags: ['k'], time: '2025-10-20T00:00:00Z' } });
    const res = run(store, [enc('one'), enc('two'), enc('three'), { stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['k'] } }, args: {} }], { now: '2025-10-21T00:00:00Z' });
    expect(evaluateRanking(res.results, { gold_ids: ['3'], min_hits: 1, allow_extra: true, k: 1 }).passed).toBe(true);
    expect(evaluateRanking(res.results, { gold_ids: ['1'], min_hits: 1, allow_extra: true, k: 1 }).passed).toBe(false);
    expect(evaluateRanking(res.results, { gold_ids: ['1', '2'], min_hits: 2, allow_extra: false, k: 3 }).passed).toBe(false);
    expect(evaluateRanking(res.results, { gold_ids: ['1', '2', '3'], min_hits: 3, allow_extra: false, k: 3 }).passed).toBe(true);
  });

  it('reads the recurring slips of benchmark assertions: IN (:ids) lists, params under select, spaced comparators, booleans', async () => {
    const store = await createStore();
    const enc = (t: string) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t }, time: '2025-10-20T00:00:00Z' } });
    run(store, [enc('one'), enc('two'), enc('three')], { now: '2025-10-21T00:00:00Z' });
    const ids = { name: 'ids', select: { from: 'memory', where: ['id IN (:ids)'] }, expect: { op: '==', value: 2 }, params: { ids: [1, 3] } };
    expect(assertionSql(ids).sql).toContain('id IN (:ids__0, :ids__1)');
    expect(evaluateAssertion(store, ids)).toEqual({ passed: true, actual: 2 });
    expect(evaluateAssertion(store, { ...ids, params: { ids: [] }, expect: { op: '==', value: 0 } }).passed).toBe(true);
    const under = { name: 'under', select: { from: 'memory', where: ['id IN (:ids)'], params: { ids: [2] } }, expect: { op: '>= ', value: 1 } };
    expect(evaluateAssertion(store, under)).toEqual({ passed: true, actual: 1 });
    const bool = { name: 'bool', select: { from: 'memory', where: ['deleted = :gone'] }, expect: { op: ' == ', value: 3 }, params: { gone: false } };
    expect(evaluateAssertion(store, bool)).toEqual({ passed: true, actual: 3 });
  });

  it('runs statements one at a time: a refused statement undoes nothing before it, and the next one runs', async () => {
    const enc = (t: string) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t }, tags: ['k'], time: '2025-10-20T00:00:00Z' } });
    const s: Sample = {
      id: 't2m-test-single-update-001',
      prerequisites: [enc('one'), { stage: 'STO', op: 'Lock', target: { ids: ['1'] }, args: { mode: 'read_only' } }],
      schema_list: [
        enc('two'),
        { stage: 'STO', op: 'Update', target: { ids: ['1'] }, args: { set: { text: 'changed' } } },
        enc('three'),
      ],
      expected: {
        assertions: [
          { name: 'before', select: { from: 'memory', where: ['text = :t'] }, expect: { op: '==', value: 1 }, params: { t: 'two' } },
          { name: 'after', select: { from: 'memory', where: ['text = :t'] }, expect: { op: '==', value: 1 }, params: { t: 'three' } },
        ],
        ranking: null,
        meta: { eval_time_utc: '2025-10-21T00:00:00Z' },
      },
    };
    const report = await runBenchmark([s]);
    expect(report.assertions).toEqual({ total: 2, passed: 2 });
    expect(report.failures.map((f) => f.why)).toEqual([expect.stringMatching(/^\[1\] record-locked/)]);
  });

  it('starts every sample on a store as fresh as a new one: no records, audit entries or id counters of the sample before', async () => {
    const enc = (t: string) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t }, tags: ['k'], time: '2025-10-20T00:00:00Z' } });
    const count = (name: string, from: string, where: string[], value: number) => ({ name, select: { from, where }, expect: { op: '==', value } });
    const s = (id: string, texts: string[]): Sample => ({
      id,
      prerequisites: [],
      schema_list: [...texts.map(enc), { stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: texts[0] }, limit: 5 } }, args: {} }],
      expected: {
        assertions: [
          count('records', 'memory', [], texts.length),
          count('first id is 1', 'memory', ['id = 1', `text = '${texts[0]}'`], 1),
          count('audit entries', 'audit_log', [], texts.length),
        ],
        ranking: { gold_ids: texts.map((_, i) => i + 1), min_hits: texts.length, allow_extra: false, k: 5 },
        meta: { eval_time_utc: '2025-10-21T00:00:00Z' },
      },
    });
    const outcomes: string[] = [];
    const report = await runBenchmark([s('t2m-test-single-retrieve-001', ['alpha beta', 'beta gamma', 'gamma alpha']), s('t2m-test-single-retrieve-002', ['delta'])], {
      onSample: (o) => outcomes.push(JSON.stringify(o.ids)),
    });
    expect(report.failures).toEqual([]);
    expect(report.assertions).toEqual({ total: 6, passed: 6 });
    expect(report.ranking).toEqual({ total: 2, passed: 2 });
    // #2 and #3 match one word each; #2 ranks first, next to the best match (neighbour context).
    expect(outcomes).toEqual(['[[1],[2],[3],[1,2,3]]', '[[1],[1]]']);
  });

  it("runs a sample at its clock, the sample's id its trace id; a clock the engine cannot read refuses every statement", async () => {
    const enc = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'a note' } } };
    const at = (id: string, eval_time_utc: string): Sample => ({
      id,
      prerequisites: [enc],
      schema_list: [enc],
      expected: {
        assertions: [
          { name: 'clock', select: { from: 'memory', where: ['created_at = :t'] }, expect: { op: '==', value: 2 }, params: { t: '2025-10-21T08:30:00Z' } },
          { name: 'trace', select: { from: 'audit_log', where: ['trace_id = :id'] }, expect: { op: '==', value: 2 }, params: { id: `bench:${id}` } },
        ],
        ranking: null,
        meta: { eval_time_utc },
      },
    });
    // An offset is read as the instant it names, once for the sample: both records carry it.
    const ok = await runBenchmark([at('t2m-test-single-encode-001', '2025-10-21T10:30:00+02:00')]);
    expect(ok.failures).toEqual([]);
    const bad = await runBenchmark([at('t2m-test-single-encode-002', 'not a date')]);
    expect(bad.failures.filter((f) => f.kind === 'error').map((f) => f.why)).toEqual([
      expect.stringMatching(/^\[0\] invalid-datetime/),
      expect.stringMatching(/^\[0\] invalid-datetime/),
    ]);
  });

  it('names the op of a sample from its id, else its last gold op', () => {
    expect(sampleOp(sample)).toBe('Label');
    expect(sampleOp({ ...sample, id: 'x' })).toBe('Label');
  });

  it('reports unparsable JSONL lines with their numbers', () => {
    const { samples, errors } = parseSamples(`${JSON.stringify(sample)}\n{oops\n{"a":1}\n`);
    expect(samples).toHaveLength(1);
    expect(errors.map((e) => e.split(':')[0])).toEqual(['line 2', 'line 3']);
  });
});
