/**
 * The run's clock and trace id (src/engine/index.ts): a clock text read once is not read again
 * (but every run gets its own Date), and a run makes its random trace id only when it first writes.
 */
import { describe, expect, it } from 'vitest';
import { auditLog, run, why } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';

const enc = (text: string) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text }, tags: ['t'], time: '2025-03-01T00:00:00Z' } });
const ret = { stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['t'], limit: 5 } }, args: { include: ['id', 'text'] } };

describe('the run clock', () => {
  it('reads the same clock text to the same instant run after run, and a bad one is still refused', async () => {
    const store = await createStore();
    for (const now of ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T01:00:00+01:00', '2026-02-01T00:00:00Z', '2026-02-01T00:00:00Z']) {
      const r = run(store, [enc(now)], { now });
      expect(r.ok).toBe(true);
      const [entry] = auditLog(store).slice(-1);
      expect(entry.at).toBe(new Date(Date.parse(now)).toISOString().replace('.000Z', 'Z'));
    }
    const bad = run(store, [enc('x')], { now: 'yesterday' });
    expect(bad.ok).toBe(false);
    expect(bad.diagnostics[0].code).toBe('invalid-datetime');
    // And the text read before it still reads as it did.
    expect(run(store, [enc('y')], { now: '2026-02-01T00:00:00Z' }).ok).toBe(true);
    expect(auditLog(store).slice(-1)[0].at).toBe('2026-02-01T00:00:00Z');
  });

  it('a lock set under one clock is in force under that clock text again (the instant, not a shared Date)', async () => {
    const store = await createStore();
    const now = '2026-01-01T00:00:00Z';
    expect(run(store, [enc('a')], { now }).ok).toBe(true);
    expect(run(store, [{ stage: 'STO', op: 'Lock', target: { ids: ['1'] }, args: { mode: 'read_only', lock_expires: '2026-01-02T00:00:00Z' } }], { now }).ok).toBe(true);
    const upd = { stage: 'STO', op: 'Update', target: { ids: ['1'] }, args: { set: { type: 'x' } } };
    expect(run(store, [upd], { now }).diagnostics[0]?.code).toBe('record-locked');
    expect(run(store, [upd], { now: '2026-01-03T00:00:00Z' }).ok).toBe(true);
  });
});

describe('the run trace id', () => {
  it('a writing run stores one random trace id on its records and audit entries; each run its own', async () => {
    const store = await createStore();
    run(store, [ret, enc('a'), enc('b')], { now: '2026-01-01T00:00:00Z' });
    run(store, [enc('c')], { now: '2026-01-01T00:00:00Z' });
    const traces = auditLog(store).map((e) => e.traceId);
    expect(traces[0]).toMatch(/^run-[0-9a-f-]{36}$/);
    expect(traces[1]).toBe(traces[0]);
    expect(traces[2]).toMatch(/^run-[0-9a-f-]{36}$/);
    expect(traces[2]).not.toBe(traces[0]);
    const w = why(store, 2);
    expect(w.ok && w.chain[0].traceId).toBe(traces[0]);
  });

  it('is a version 4 UUID, a new one per run, past the 64 ids drawn at a time', async () => {
    const store = await createStore();
    for (let i = 0; i < 150; i++) run(store, [enc(`t${i}`)], { now: '2026-01-01T00:00:00Z' });
    const traces = auditLog(store).map((e) => e.traceId);
    expect(traces).toHaveLength(150);
    for (const t of traces) expect(t).toMatch(/^run-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(traces).size).toBe(150);
    // Every hex digit of the random part turns up (a constant or stuck byte would not).
    const digits = new Set(traces.flatMap((t) => [...String(t).slice(4).replace(/-/g, '')]));
    expect(digits.size).toBe(16);
  });

  it("the caller's trace id is used as given, by reads and writes alike", async () => {
    const store = await createStore();
    const r = run(store, [ret, enc('a')], { now: '2026-01-01T00:00:00Z', traceId: 'trace-7' });
    expect(r.ok).toBe(true);
    expect(auditLog(store).map((e) => e.traceId)).toEqual(['trace-7']);
  });

  it('a script of reads writes nothing, with or without a trace id', async () => {
    const store = await createStore();
    run(store, [enc('a')], { now: '2026-01-01T00:00:00Z' });
    const before = auditLog(store).length;
    const r = run(store, [ret, ret], { now: '2026-01-01T00:00:00Z' });
    expect(r.ok).toBe(true);
    expect(r.results[0].ids).toEqual([1]);
    expect(auditLog(store).length).toBe(before);
  });
});

describe('the text limit, measured on the walk of validation', () => {
  it('refuses the same strings as a walk of every statement would: in args only, at their paths, the first ten', async () => {
    const store = await createStore();
    const limits = { maxTextLength: 10 };
    const long = 'x'.repeat(11);
    const enc = (text: string) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text }, tags: ['t'] } });
    // A long string outside args (a filter's subject) is not the limit's business; at the limit is within it.
    const outside = run(store, [{ ...ret, target: { filter: { subject: long, limit: 5 } } }, enc('x'.repeat(10))], { now: '2026-01-01T00:00:00Z', limits });
    expect(outside.diagnostics).toEqual([]);
    expect(outside.ok).toBe(true);
    // In args: a conforming statement, one that validation reads with a warning (no stage), and one it refuses.
    const script = [enc('ok'), enc(long), { op: 'Encode', args: { payload: { text: 'a' }, facets: { k: long, j: ['y', long] } } }, { stage: 'ENC', op: 'Encode', args: { payload: { text: long }, bogus: 1 } }];
    const r = run(store, script, { now: '2026-01-01T00:00:00Z', limits });
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => `${d.statement} ${d.code} ${d.path}`)).toEqual([
      '1 limit-exceeded args.payload.text',
      '2 limit-exceeded args.facets.j.1',
      '2 limit-exceeded args.facets.k',
      '3 limit-exceeded args.payload.text',
    ]);
    // Eleven long strings: the first ten are reported.
    const many = run(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'a' }, tags: Array.from({ length: 11 }, () => long) } }], { now: '2026-01-01T00:00:00Z', limits });
    expect(many.diagnostics).toHaveLength(10);
  });
});
