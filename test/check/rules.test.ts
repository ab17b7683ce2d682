import { describe, expect, it } from 'vitest';
import { check, RULES, ruleCodes } from '../../src/check/index.js';
import { at, diagnoseJson, expectJsonDiagnostics as diags, json } from './harness.js';

const ids = (...xs: string[]) => ({ ids: xs });
const ok = (ir: unknown) => expect(diags(json(ir))).toEqual([]);

describe('StageOpRule', () => {
  it('reports a stage that does not belong to the op, with a fix', () => {
    const src = json({ stage: 'RET', op: 'Promote', target: ids('1'), args: { weight: 0.9 } });
    expect(diags(src)).toEqual([{ code: 'stage-mismatch', range: at(src, '"RET"') }]);
    const [d] = diagnoseJson(src);
    expect(d.fix?.edits[0].newText).toBe('"STO"');
  });
  it('passes the matching stage', () => ok({ stage: 'STO', op: 'Promote', target: ids('1'), args: { weight: 0.9 } }));
});

describe('TargetModeRule', () => {
  it('requires a target on non-Encode ops', () => {
    const src = json({ stage: 'RET', op: 'Retrieve' });
    expect(diags(src)).toEqual([{ code: 'target-required', range: at(src, src) }]);
  });
  it('reports a target that selects nothing', () => {
    const src = json({ stage: 'RET', op: 'Retrieve', target: { all: false } });
    expect(diags(src)).toEqual([{ code: 'target-required', range: at(src, '{"all":false}') }]);
  });
  it('forbids a target on Encode', () => {
    const src = json({ stage: 'ENC', op: 'Encode', target: ids('1'), args: { payload: { text: 'x' } } });
    expect(diags(src)).toEqual([{ code: 'target-forbidden', range: at(src, '{"ids":["1"]}') }]);
  });
  it('allows exactly one mode, except search narrowed by a filter', () => {
    const src = json({ stage: 'STO', op: 'Delete', target: { ids: ['1'], filter: { limit: 3 } } });
    expect(diags(src)).toEqual([{ code: 'target-exclusive', range: at(src, '{"limit":3}') }]);
    ok({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'q' }, limit: 2 }, filter: { has_tags: ['a'] } } });
  });
  it('rejects empty ids and warns about duplicates', () => {
    const empty = json({ stage: 'STO', op: 'Delete', target: { ids: [] } });
    expect(diags(empty)).toEqual([{ code: 'target-empty-ids', range: at(empty, '[]') }]);
    const dup = json({ stage: 'STO', op: 'Delete', target: ids('7', '8', '7') });
    expect(diags(dup)).toEqual([{ code: 'duplicate-id', range: at(dup, '"7"', 1) }]);
  });
  it('passes one id given as a string', () => ok({ stage: 'STO', op: 'Delete', target: { ids: '001' } }));
});

describe('ConfirmationRule', () => {
  it('requires confirmation or dry run for a write over all', () => {
    const src = json({ stage: 'STO', op: 'Delete', target: { all: true }, args: { soft: true } });
    expect(diags(src)).toEqual([{ code: 'all-requires-confirmation', range: at(src, 'true') }]);
    ok({ stage: 'STO', op: 'Delete', target: { all: true }, meta: { confirmation: true } });
    ok({ stage: 'STO', op: 'Delete', target: { all: true }, meta: { dry_run: true } });
  });
  it('requires confirmation (a dry run is not enough) for a read over all', () => {
    const src = json({ stage: 'RET', op: 'Retrieve', target: { all: true }, meta: { dry_run: true } });
    expect(diags(src)).toEqual([{ code: 'all-requires-confirmation', range: at(src, 'true') }]);
    ok({ stage: 'RET', op: 'Retrieve', target: { all: true }, meta: { confirmation: true } });
  });
});

describe('WriteLimitRule', () => {
  const src = json({ stage: 'STO', op: 'Label', target: { filter: { has_tags: ['a'] } }, args: { tags: ['b'] } });
  it('warns about a write over a filter without a limit', () => {
    expect(diags(src)).toEqual([{ code: 'write-without-limit', range: at(src, '{"has_tags":["a"]}') }]);
    expect(diagnoseJson(src)[0].severity).toBe('warning');
  });
  it('turns the warning into an error under the strict policy', () => {
    expect(diagnoseJson(src, 'strict').map((d) => [d.code, d.severity])).toEqual([['write-without-limit', 'error']]);
  });
  it('warns about a search without limit or k, and passes bounded writes and reads', () => {
    const s = json({ stage: 'STO', op: 'Promote', target: { search: { intent: { query: 'q' } } }, args: { weight: 1 } });
    expect(diags(s)).toEqual([{ code: 'write-without-limit', range: at(s, '{"intent":{"query":"q"}}') }]);
    ok({ stage: 'STO', op: 'Promote', target: { search: { intent: { query: 'OKR progress' }, limit: 5 } }, args: { weight: 0.9 } });
    ok({ stage: 'STO', op: 'Promote', target: { search: { intent: { query: 'q' }, overrides: { k: 5 } } }, args: { weight: 1 } });
    ok({ stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['a'] } } });
  });
});

describe('UnknownConditionRule', () => {
  it('is an error on a write whose filter has a condition the engine cannot apply (the engine refuses it)', () => {
    const src = json({ stage: 'STO', op: 'Delete', target: { filter: { status: 'done', limit: 5 } }, args: { soft: true } });
    expect(diags(src)).toEqual([{ code: 'unknown-condition', range: at(src, '"done"') }]);
    expect(diagnoseJson(src)[0].severity).toBe('error');
    expect(diagnoseJson(src)[0].message).toContain('facets.status');
  });
  it('is a warning on a read, which ignores it', () => {
    const src = json({ stage: 'RET', op: 'Retrieve', target: { filter: { foo: 1, limit: 5 } } });
    expect(diagnoseJson(src).map((d) => [d.code, d.severity])).toEqual([['unknown-condition', 'warning']]);
  });
  it('covers unknown target and time-range keys too', () => {
    const src = json({ stage: 'STO', op: 'Label', target: { filter: { time_range: { relative: 'last', amount: 2, unit: 'days', zone: 'x' }, limit: 3 } }, args: { tags: ['a'] } });
    expect(diags(src)).toEqual([{ code: 'unknown-condition', range: at(src, '"x"') }]);
  });
  it('passes every condition the engine applies, facets included', () => {
    ok({ stage: 'STO', op: 'Delete', target: { filter: { facets: { status: 'done' }, has_tags: ['a'], type: 'note', weight_gte: 0.1, limit: 5 } }, args: { soft: true } });
    ok({ stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['a'] }, time_from: '2025-01-01T00:00:00Z', time_to: '2025-02-01T00:00:00Z' } });
  });
  it('leaves a near miss on a read to validation (one warning, with its fix)', () => {
    const src = json({ stage: 'RET', op: 'Retrieve', target: { filter: { tyep: 'note', limit: 5 } } });
    expect(diagnoseJson(src).map((d) => d.code)).toEqual(['unknown-field']);
  });
});

describe('NumberPrecisionRule', () => {
  it('warns about an integer beyond 2^53 − 1, which the IR cannot hold exactly', () => {
    const src = '{"stage":"ENC","op":"Encode","args":{"payload":{"text":"x"},"order_no":12345678901234567890,"ok":9007199254740991,"f":0.1}}';
    expect(diagnoseJson(src).map((d) => [d.code, d.severity, d.path])).toEqual([['unsafe-integer', 'warning', 'args.order_no']]);
    expect(diags(src)).toEqual([{ code: 'unsafe-integer', range: at(src, '12345678901234567890') }]);
  });
});

describe('VacuousConditionRule', () => {
  it('reports each empty condition in one order, whatever the order of the keys, and on a filter made by a spread', () => {
    const filter = { topic: ' ', facets: {}, not_tags: ['x', ''], type: '', has_tags: [''] };
    const expected = ['target.filter.has_tags.0', 'target.filter.not_tags.1', 'target.filter.facets', 'target.filter.type', 'target.filter.topic'];
    for (const f of [filter, { ...filter }, Object.fromEntries(Object.entries(filter).reverse())]) {
      const found = check([{ stage: 'RET', op: 'Retrieve', target: { filter: f } } as never]).filter((d) => d.code === 'empty-condition');
      expect(found.map((d) => d.path)).toEqual(expected);
    }
  });
  it('passes conditions that name something', () => ok({ stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['a'], type: 'note', facets: { k: 'v' } } } }));
});

describe('RequiredFieldsRule', () => {
  it('needs Encode content', () => {
    const src = json({ stage: 'ENC', op: 'Encode', args: { payload: { source: 'x' } } });
    expect(diags(src)).toEqual([{ code: 'missing-field', range: at(src, '{"source":"x"}') }]);
    const none = json({ stage: 'ENC', op: 'Encode' });
    expect(diags(none)).toEqual([{ code: 'missing-field', range: at(none, none) }]);
    ok({ stage: 'ENC', op: 'Encode', args: { payload: { url: 'https://example.org' } } });
  });
  it('needs a non-empty Update set', () => {
    const src = json({ stage: 'STO', op: 'Update', target: ids('1'), args: { set: {} } });
    expect(diags(src)).toEqual([{ code: 'missing-field', range: at(src, '{}') }]);
    const noSet = json({ stage: 'STO', op: 'Update', target: ids('1'), args: {} });
    expect(diags(noSet)).toEqual([{ code: 'missing-field', range: at(noSet, '{}') }]);
    ok({ stage: 'STO', op: 'Update', target: ids('1'), args: { set: { weight: 0.5 } } });
  });
  it('needs Label tags or facets', () => {
    const src = json({ stage: 'STO', op: 'Label', target: ids('1'), args: { mode: 'add' } });
    expect(diags(src)).toEqual([{ code: 'missing-field', range: at(src, '{"mode":"add"}') }]);
    ok({ stage: 'STO', op: 'Label', target: ids('1'), args: { facets: { topic: 't' } } });
  });
  it('needs a Promote or Demote option, and an Expire horizon', () => {
    const p = json({ stage: 'STO', op: 'Promote', target: ids('1'), args: { reason: 'r' } });
    expect(diags(p)).toEqual([{ code: 'missing-field', range: at(p, '{"reason":"r"}') }]);
    const d = json({ stage: 'STO', op: 'Demote', target: ids('1') });
    expect(diags(d)).toEqual([{ code: 'missing-field', range: at(d, d) }]);
    const e = json({ stage: 'STO', op: 'Expire', target: ids('1'), args: { on_expire: 'demote' } });
    expect(diags(e)).toEqual([{ code: 'missing-field', range: at(e, '{"on_expire":"demote"}') }]);
    ok({ stage: 'STO', op: 'Demote', target: ids('1'), args: { archive: true } });
    ok({ stage: 'STO', op: 'Expire', target: ids('1'), args: { until: '2026-01-01T00:00:00Z' } });
  });
  it('needs an rrule in a reminder and a query or vector in a search', () => {
    const r = json({ stage: 'STO', op: 'Promote', target: ids('1'), args: { remind: { until: '2026-01-01T00:00:00Z' } } });
    expect(diags(r)).toEqual([{ code: 'missing-field', range: at(r, '{"until":"2026-01-01T00:00:00Z"}') }]);
    const s = json({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { context: 'c' } } } });
    expect(diags(s)).toEqual([{ code: 'missing-field', range: at(s, '{"context":"c"}') }]);
    ok({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { vector: [0.1, 0.2] } } } });
  });
});

describe('ExclusiveArgsRule', () => {
  it.each([
    ['Promote', { weight: 0.9, weight_delta: 0.1 }, '0.1'],
    ['Promote', { weight_delta: 0.1, remind: { rrule: 'FREQ=DAILY' } }, '{"rrule":"FREQ=DAILY"}'],
    ['Demote', { archive: true, weight: 0.1 }, '0.1'],
    ['Expire', { ttl: 'P7D', until: '2026-01-01T00:00:00Z' }, '"2026-01-01T00:00:00Z"'],
  ])('reports %s with two alternatives %j', (op, args, second) => {
    const src = json({ stage: 'STO', op, target: ids('1'), args });
    expect(diags(src)).toEqual([{ code: 'exclusive-args', range: at(src, second) }]);
    expect(diagnoseJson(src)[0].related?.length).toBe(1);
  });
  it('reports payload text with url, and intent query with vector', () => {
    const p = json({ stage: 'ENC', op: 'Encode', args: { payload: { text: 't', url: 'u' } } });
    expect(diags(p)).toEqual([{ code: 'exclusive-args', range: at(p, '"u"') }]);
    const s = json({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'q', vector: [1] } } } });
    expect(diags(s)).toEqual([{ code: 'exclusive-args', range: at(s, '[1]') }]);
  });
  it('passes a single alternative with extras', () =>
    ok({ stage: 'ENC', op: 'Encode', args: { payload: { text: 't', knowledge_type: 'k', context: 'c' } } }));
});

describe('TimeRangeRule', () => {
  const withRange = (time_range: unknown) => json({ stage: 'RET', op: 'Retrieve', target: { filter: { time_range } } });
  it('rejects a mix of the two forms', () => {
    const src = withRange({ start: '2025-01-01T00:00:00Z', end: '2025-02-01T00:00:00Z', relative: 'last' });
    expect(diags(src)).toEqual([{ code: 'time-range-exclusive', range: at(src, '"last"') }]);
  });
  it('rejects an incomplete form', () => {
    const src = withRange({ relative: 'last', amount: 7 });
    expect(diags(src)).toEqual([{ code: 'time-range-incomplete', range: at(src, '{"relative":"last","amount":7}') }]);
    const empty = withRange({});
    expect(diags(empty)).toEqual([{ code: 'time-range-incomplete', range: at(empty, '{}') }]);
  });
  it('rejects a start after the end, comparing instants across offsets', () => {
    const src = withRange({ start: '2025-02-01T00:00:00Z', end: '2025-01-01T00:00:00Z' });
    expect(diags(src)).toEqual([{ code: 'time-range-order', range: at(src, '"2025-01-01T00:00:00Z"') }]);
    expect(diags(withRange({ start: '2025-01-01T08:00:00+08:00', end: '2025-01-01T00:00:00Z' }))).toEqual([]);
  });
  it("checks Delete's own time range too", () => {
    const src = json({ stage: 'STO', op: 'Delete', target: ids('1'), args: { time_range: { start: '2025-01-01T00:00:00Z' } } });
    expect(diags(src)).toEqual([{ code: 'time-range-incomplete', range: at(src, '{"start":"2025-01-01T00:00:00Z"}') }]);
  });
  it('passes both complete forms', () => {
    expect(diags(withRange({ relative: 'next', amount: 2, unit: 'weeks' }))).toEqual([]);
    expect(diags(withRange({ start: '2025-09-28T00:00:00+08:00', end: '2025-10-05T23:59:59+08:00' }))).toEqual([]);
  });
});

describe('RangeRule', () => {
  it.each([
    [{ stage: 'STO', op: 'Promote', target: ids('1'), args: { weight: 1.5 } }, '1.5'],
    [{ stage: 'STO', op: 'Demote', target: ids('1'), args: { weight_delta: -2 } }, '-2'],
    [{ stage: 'STO', op: 'Update', target: ids('1'), args: { set: { weight: -0.1 } } }, '-0.1'],
    [{ stage: 'RET', op: 'Retrieve', target: { filter: { weight_gte: 2 } } }, '2'],
    [{ stage: 'RET', op: 'Retrieve', target: { filter: { limit: 0 } } }, '0'],
    [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'q' }, overrides: { k: 0 } } } }, '0'],
    [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'q' }, overrides: { alpha: 1.2 } } } }, '1.2'],
    [{ stage: 'RET', op: 'Retrieve', target: { filter: { time_range: { relative: 'last', amount: 0, unit: 'days' } } } }, '0'],
    [{ stage: 'RET', op: 'Summarize', target: ids('1'), args: { max_tokens: 0 } }, '0'],
    [{ stage: 'STO', op: 'Split', target: ids('1'), args: { params: { by_chunks: { chunk_size: 49 } } } }, '49'],
    [{ stage: 'STO', op: 'Split', target: ids('1'), args: { params: { custom: { max_splits: 0 } } } }, '0'],
  ])('reports %j', (ir, value) => {
    const src = json(ir);
    expect(diags(src)).toEqual([{ code: 'out-of-range', range: at(src, `:${value}`).replace(/:(\d+)-/, (_, c) => `:${Number(c) + 1}-`) }]);
  });
  it('reports an empty weight window', () => {
    const src = json({ stage: 'RET', op: 'Retrieve', target: { filter: { weight_gte: 0.8, weight_lte: 0.2 } } });
    expect(diags(src)).toEqual([{ code: 'empty-weight-range', range: at(src, '0.2') }]);
  });
  it('passes values at the bounds', () => {
    ok({ stage: 'STO', op: 'Promote', target: ids('1'), args: { weight: 1 } });
    ok({ stage: 'STO', op: 'Split', target: ids('1'), args: { params: { by_chunks: { chunk_size: 50, num_chunks: 1 } } } });
    ok({ stage: 'RET', op: 'Retrieve', target: { filter: { weight_gte: 0, weight_lte: 0 } } });
  });
});

describe('MergeRule', () => {
  it('needs two ids and a primary among them', () => {
    const one = json({ stage: 'STO', op: 'Merge', target: ids('1') });
    expect(diags(one)).toEqual([{ code: 'merge-needs-two', range: at(one, '["1"]') }]);
    const primary = json({ stage: 'STO', op: 'Merge', target: ids('1', '2'), args: { primary_id: '3' } });
    expect(diags(primary)).toEqual([{ code: 'merge-primary-not-in-ids', range: at(primary, '"3"') }]);
  });
  it('passes a primary among the ids, and auto', () => {
    ok({ stage: 'STO', op: 'Merge', target: ids('1', '2'), args: { strategy: 'merge_into_primary', primary_id: '1' } });
    ok({ stage: 'STO', op: 'Merge', target: { filter: { has_tags: ['m'], limit: 10 } }, args: { primary_id: 'auto' } });
  });
});

describe('LockPolicyRule', () => {
  it('reports an op both allowed and denied', () => {
    const src = json({ stage: 'STO', op: 'Lock', target: ids('1'), args: { policy: { allow: ['Retrieve', 'Delete'], deny: ['Delete'] } } });
    expect(diags(src)).toEqual([{ code: 'policy-conflict', range: at(src, '"Delete"', 1) }]);
    ok({ stage: 'STO', op: 'Lock', target: ids('1'), args: { mode: 'read_only', policy: { allow: ['Retrieve'], deny: ['Delete'] } } });
  });
});

describe('DateTimeRule', () => {
  it.each(['2025-04-10', '2025-04-10T15:30:00', '2025-02-30T00:00:00Z', '2025-04-10 15:30:00Z', 'yesterday', '2025-04-10T25:00:00Z'])(
    'rejects %s',
    (bad) => {
      const src = json({ stage: 'STO', op: 'Expire', target: ids('1'), args: { until: bad } });
      expect(diags(src)).toEqual([{ code: 'invalid-datetime', range: at(src, JSON.stringify(bad)) }]);
    },
  );
  it('checks nested datetime fields and leaves free-form facet keys alone', () => {
    const src = json({ stage: 'ENC', op: 'Encode', args: { payload: { text: 't' }, facets: { time: '2025-13-01T00:00:00Z', launch_date: '2025-09-15' } } });
    expect(diags(src)).toEqual([{ code: 'invalid-datetime', range: at(src, '"2025-13-01T00:00:00Z"') }]);
  });
  it.each(['2025-04-10T15:30:00+08:00', '2025-04-10T15:30:00Z', '2025-04-10T15:30Z', '2024-02-29T23:59:59.123-05:00'])('accepts %s', (good) =>
    ok({ stage: 'STO', op: 'Expire', target: ids('1'), args: { until: good } }),
  );
});

describe('DurationRule', () => {
  it.each(['7D', 'P', '-P1D', 'P0D', 'one week'])('rejects %s', (bad) => {
    const src = json({ stage: 'STO', op: 'Expire', target: ids('1'), args: { ttl: bad } });
    expect(diags(src)).toEqual([{ code: 'invalid-duration', range: at(src, JSON.stringify(bad)) }]);
  });
  it.each(['P7D', 'PT1H30M', 'P1Y2M', 'P2W'])('accepts %s', (good) => {
    ok({ stage: 'STO', op: 'Expire', target: ids('1'), args: { ttl: good } });
    ok({ stage: 'STO', op: 'Delete', target: { filter: { limit: 5 } }, args: { older_than: good } });
  });
});

describe('RRuleRule', () => {
  it.each(['FREQ=DAYLY', 'BYDAY=MO', 'FREQ=WEEKLY;BYDAY=XX', 'FREQ=DAILY;COUNT=abc', 'garbage', 'FREQ=DAILY;FOO=1'])('rejects %s', (bad) => {
    const src = json({ stage: 'STO', op: 'Promote', target: ids('1'), args: { remind: { rrule: bad } } });
    expect(diags(src)).toEqual([{ code: 'invalid-rrule', range: at(src, JSON.stringify(bad)) }]);
  });
  it('suggests the frequency a typo meant', () => {
    const [d] = diagnoseJson(json({ stage: 'STO', op: 'Promote', target: ids('1'), args: { remind: { rrule: 'FREQ=DAYLY' } } }));
    expect(d.message).toContain("did you mean 'DAILY'?");
  });
  it.each(['FREQ=DAILY;COUNT=7', 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0', 'RRULE:FREQ=MONTHLY;INTERVAL=2'])('accepts %s', (good) =>
    ok({ stage: 'STO', op: 'Promote', target: ids('1'), args: { remind: { rrule: good } } }),
  );
});

describe('check()', () => {
  it('runs without source maps and reports IR paths and statement indexes', () => {
    const out = check([
      { stage: 'STO', op: 'Promote', target: { ids: ['1'] }, args: { weight: 0.5 } },
      { stage: 'STO', op: 'Promote', target: { ids: ['1'] }, args: { weight: 3 } },
    ]);
    expect(out).toEqual([expect.objectContaining({ code: 'out-of-range', path: 'args.weight', statement: 1, severity: 'error' })]);
    expect(out[0].range).toBeUndefined();
  });
  it('declares every reported code once across the rules', () => {
    const all = RULES.flatMap((r) => Object.keys(r.codes));
    expect(new Set(all).size).toBe(all.length);
    expect(ruleCodes().get('write-without-limit')).toEqual({ rule: 'WriteLimitRule', severity: 'warning' });
  });
});
