import { describe, expect, it } from 'vitest';
import { IR } from '../../src/ir/schema.js';
import { lowerIr, type Operation } from '../../src/lower/index.js';
import { DEFAULT_WEIGHT_STEP } from '../../src/lower/defaults.js';

const now = new Date('2025-10-21T12:34:56Z');

function lower(json: unknown): Operation {
  const r = lowerIr(IR.parse(json), { now });
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  return r.operation;
}

function errors(json: unknown): { code: string; path?: string }[] {
  const r = lowerIr(IR.parse(json), { now });
  return r.ok ? [] : r.diagnostics.map((d) => ({ code: d.code, path: d.path }));
}

describe('lowerIr', () => {
  it('normalises times to UTC YYYY-MM-DDTHH:MM:SSZ', () => {
    const op = lower({ stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, time: '2025-10-20T10:00:00+08:00', facets: { time: '2025-10-20' } } });
    expect(op.kind === 'Encode' && op.values.time).toBe('2025-10-20T02:00:00Z');
    const op2 = lower({ stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, facets: { time: '2025-10-20' } } });
    expect(op2.kind === 'Encode' && op2.values.time).toBe('2025-10-20T00:00:00Z');
  });

  it('fills subject/time/location/topic columns from facets and keeps facets as written', () => {
    const op = lower({ stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, facets: { subject: 's', location: 'l', topic: 't', priority: 'high' } } });
    expect(op.kind === 'Encode' && op.values).toMatchObject({ subject: 's', location: 'l', topic: 't', facets: { subject: 's', priority: 'high' } });
  });

  it('makes relative ranges concrete against the clock; "last N days" runs to the end of today', () => {
    const op = lower({ stage: 'STO', op: 'Delete', target: { filter: { time_range: { relative: 'last', amount: 7, unit: 'days' } } } });
    expect(op.kind !== 'Encode' && op.selection.filter?.time).toEqual({ from: '2025-10-14T12:34:56Z', to: '2025-10-21T23:59:59Z' });
    const hours = lower({ stage: 'STO', op: 'Delete', target: { filter: { time_range: { relative: 'last', amount: 2, unit: 'hours' } } } });
    expect(hours.kind !== 'Encode' && hours.selection.filter?.time).toEqual({ from: '2025-10-21T10:34:56Z', to: '2025-10-21T12:34:56Z' });
    const next = lower({ stage: 'RET', op: 'Retrieve', target: { filter: { time_range: { relative: 'next', amount: 1, unit: 'months' } } } });
    expect(next.kind !== 'Encode' && next.selection.filter?.time).toEqual({ from: '2025-10-21T12:34:56Z', to: '2025-11-21T12:34:56Z' });
  });

  it('moves months on the calendar, clamping the day', () => {
    const op = lowerIr(IR.parse({ stage: 'STO', op: 'Expire', target: { ids: '1' }, args: { ttl: 'P1M' } }), { now: new Date('2025-01-31T00:00:00Z') });
    expect(op.ok && op.operation.kind === 'Expire' && op.operation.expireAt).toBe('2025-02-28T00:00:00Z');
  });

  it('turns TTLs and older_than into instants', () => {
    const exp = lower({ stage: 'STO', op: 'Expire', target: { ids: ['3'] }, args: { ttl: 'P90D', on_expire: 'demote' } });
    expect(exp).toMatchObject({ kind: 'Expire', expireAt: '2026-01-19T12:34:56Z', action: 'demote' });
    const del = lower({ stage: 'STO', op: 'Delete', target: { filter: { has_tags: ['a'] } }, args: { older_than: '30d' } });
    expect(del.kind === 'Delete' && del.selection.filter?.time).toEqual({ from: undefined, to: '2025-09-21T12:34:56Z' });
  });

  it('parses ids and rejects non-numeric ones with their path', () => {
    expect(lower({ stage: 'STO', op: 'Delete', target: { ids: ['001', 2, '2'] } })).toMatchObject({ selection: { ids: [1, 2] } });
    expect(errors({ stage: 'STO', op: 'Delete', target: { ids: ['1', 'abc'] } })).toEqual([{ code: 'bad-id', path: 'target.ids.1' }]);
  });

  it('applies defaults: soft delete, add mode, archive, order, include, max_tokens', () => {
    expect(lower({ stage: 'STO', op: 'Delete', target: { ids: '1' } })).toMatchObject({ soft: true });
    expect(lower({ stage: 'STO', op: 'Label', target: { ids: '1' }, args: { tags: ['a', 'a', ' b '] } })).toMatchObject({ mode: 'add', tags: ['a', ' b '] });
    expect(lower({ stage: 'STO', op: 'Demote', target: { ids: '1' }, args: { archive: true } })).toMatchObject({ change: { kind: 'archive' } });
    expect(lower({ stage: 'STO', op: 'Demote', target: { ids: '1' }, args: {} })).toMatchObject({ change: { kind: 'shift', delta: -0.2 } });
    expect(lower({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'q' } } } })).toMatchObject({ selection: { orderBy: 'relevance' } });
    expect(lower({ stage: 'RET', op: 'Retrieve', target: { ids: '1' }, args: { include: ['text'] } })).toMatchObject({ include: ['id', 'text'] });
    expect(lower({ stage: 'RET', op: 'Summarize', target: { ids: '1' } })).toMatchObject({ maxTokens: 256 });
  });

  it('reads a Demote with a positive delta as a decrease, with a warning', () => {
    const r = lowerIr(IR.parse({ stage: 'STO', op: 'Demote', target: { ids: '1' }, args: { weight_delta: 0.3 } }), { now });
    expect(r.ok && r.operation).toMatchObject({ change: { kind: 'shift', delta: -0.3 } });
    expect(r.ok && r.warnings.map((w) => w.code)).toEqual(['demote-positive-delta']);
  });

  it('computes the next reminder with RRULE', () => {
    const op = lower({ stage: 'STO', op: 'Promote', target: { ids: '1' }, args: { remind: { rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0' } } });
    // 2025-10-21 is a Tuesday: the next Monday 09:00 is 2025-10-27.
    expect(op).toMatchObject({ remind: { rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0', next: '2025-10-27T09:00:00Z' }, change: { kind: 'shift', delta: DEFAULT_WEIGHT_STEP } });
    expect(errors({ stage: 'STO', op: 'Promote', target: { ids: '1' }, args: { remind: { rrule: 'EVERY TUESDAY' } } })[0].code).toBe('invalid-rrule');
  });

  it('reports bad values as diagnostics with paths instead of throwing', () => {
    expect(errors({ stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, time: '2025-13-40' } })).toEqual([{ code: 'invalid-datetime', path: 'args.time' }]);
    expect(errors({ stage: 'STO', op: 'Expire', target: { ids: '1' }, args: { ttl: 'forever' } })).toEqual([{ code: 'invalid-duration', path: 'args.ttl' }]);
    expect(errors({ stage: 'STO', op: 'Update', target: { ids: '1' }, args: { set: {} } })).toEqual([{ code: 'missing-field', path: 'args.set' }]);
    expect(errors({ stage: 'STO', op: 'Delete', args: {} })).toEqual([{ code: 'target-required', path: 'target' }]);
    expect(errors({ stage: 'ENC', op: 'Encode', args: { payload: {} } })).toEqual([{ code: 'missing-field', path: 'args.payload' }]);
    expect(errors({ stage: 'RET', op: 'Retrieve', target: { filter: { time_range: { start: '2025-10-21', end: '2025-10-01' } } } })[0].code).toBe('time-range-order');
  });

  it('freezes the operation but not the caller\'s IR', () => {
    const ir = IR.parse({ stage: 'STO', op: 'Label', target: { ids: '1' }, args: { tags: ['a'] } });
    const r = lowerIr(ir, { now });
    expect(r.ok && Object.isFrozen(r.operation)).toBe(true);
    expect(r.ok && r.operation.kind === 'Label' && Object.isFrozen(r.operation.tags)).toBe(true);
    expect(Object.isFrozen(ir)).toBe(false);
  });

  it('takes the actor from meta, else from the context', () => {
    const ir = IR.parse({ stage: 'STO', op: 'Delete', target: { ids: '1' }, meta: { actor: 'ann' } });
    expect(lowerIr(ir, { now, actor: 'bob' })).toMatchObject({ operation: { actor: 'ann' } });
    expect(lowerIr(IR.parse({ stage: 'STO', op: 'Delete', target: { ids: '1' } }), { now, actor: 'bob' })).toMatchObject({ operation: { actor: 'bob' } });
  });

  it('lowers every IR of the shared corpus without throwing', async () => {
    const { corpusIrs } = await import('../ir-corpus.js');
    let lowered = 0;
    for (const { ir } of corpusIrs()) {
      const parsed = IR.safeParse(ir);
      if (!parsed.success) continue;
      const r = lowerIr(parsed.data, { now });
      if (r.ok) lowered++;
    }
    expect(lowered).toBeGreaterThan(3000);
  });

  it('reads search.overrides.limit (upstream examples) as overrides.k', () => {
    const op = lower({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'q' }, overrides: { limit: 2 }, limit: 9 } } });
    expect(op.kind !== 'Encode' && op.selection.limit).toBe(2);
  });

  it('gives Encode an explicit expire_at over a ttl (warning) and reads on_expire as expire_action', () => {
    const r = lowerIr(IR.parse({ stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, expire_at: '2026-01-01T00:00:00Z', ttl: 'P1D', on_expire: 'anonymize' } }), { now });
    expect(r.ok && r.operation.kind === 'Encode' && r.operation.values).toMatchObject({ expire_at: '2026-01-01T00:00:00Z', expire_action: 'anonymize' });
    expect(r.ok && r.warnings.map((w) => [w.code, w.path])).toEqual([['ignored-arg', 'args.ttl']]);
  });
});

describe('lowerIr reads a filter however the caller built it', () => {
  it('a spread filter, one with inherited conditions and one with a `__proto__` key lower as the plain one', () => {
    const plain = { has_tags: ['a'], time_range: { start: '2025-01-01T00:00:00Z', end: '2025-03-01T00:00:00Z' }, type: 'note', limit: 10 };
    const { limit, ...rest } = plain;
    const inherited = Object.assign(Object.create({ type: 'note', limit }), { has_tags: plain.has_tags, time_range: plain.time_range });
    const withProto = JSON.parse(`{"__proto__": {"type": "other"}, ${JSON.stringify(plain).slice(1)}`);
    expect(Object.hasOwn(withProto, '__proto__')).toBe(true);
    const op = (f: unknown) => {
      const r = lowerIr({ stage: 'RET', op: 'Retrieve', target: { filter: f } } as IR, { now });
      if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
      // What lowering read of the filter (the operation also carries the IR as given).
      return r.operation.kind === 'Retrieve' ? { selection: r.operation.selection } : undefined;
    };
    const expected = op(plain)!;
    expect(expected.selection.filter?.type).toBe('note');
    expect(expected.selection.limit).toBe(10);
    for (const f of [{ ...rest, limit: 10 }, inherited, withProto]) expect(op(f)!.selection).toEqual(expected.selection);
    // A `__proto__` key is data: it gives the filter no inherited condition.
    expect(op(JSON.parse('{"__proto__": {"type": "other"}, "has_tags": ["a"]}'))!.selection.filter?.type).toBeUndefined();
  });
});
