import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { readInput } from '../../src/pipeline.js';
import { validateIr } from '../../src/ir/validate.js';

const codes = (ds: readonly { code: string; severity: string }[]) => ds.map((d) => `${d.code}:${d.severity}`);

describe('recurring slips read with a warning (spec/checks.md#stage-inferred, #misplaced-field)', () => {
  it("a statement without stage, or with an unknown one, takes its op's stage; the caller's value is untouched", () => {
    const json = { op: 'Retrieve', target: { ids: ['1'] } };
    const v = validateIr(json);
    expect(v.ir?.stage).toBe('RET');
    expect(codes(v.diagnostics)).toEqual(['stage-inferred:warning']);
    expect(json).not.toHaveProperty('stage');
    const bad = validateIr({ stage: 'STORE', op: 'Label', target: { ids: ['1'] }, args: { tags: ['a'] } });
    expect(bad.ir?.stage).toBe('STO');
    expect(codes(bad.diagnostics)).toEqual(['stage-inferred:warning']);
    // A known stage that is not the op's stays the checker's error.
    expect(codes(readInput('{"stage": "RET", "op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["a"]}}').diagnostics)).toContain('stage-mismatch:error');
  });

  it('gives the fix for an unknown stage and for filter.tags', () => {
    const r = readInput('{"stage": "STOR", "op": "Label", "target": {"filter": {"tags": ["x"]}, "limit": 5}, "args": {"tags": ["a"]}}');
    const fixes = r.diagnostics.filter((d) => d.code === 'stage-inferred' || d.code === 'misplaced-field').map((d) => d.fix?.edits[0]?.newText);
    // The third slip, the limit beside the filter, is moved with no text fix.
    expect(fixes).toEqual(['"STO"', '"has_tags"', undefined]);
  });

  it('reads filter.tags as has_tags and a time_range beside the filter inside it', () => {
    const v = validateIr({ stage: 'STO', op: 'Label', target: { filter: { tags: ['x'] }, time_range: { relative: 'last', amount: 7, unit: 'days' } }, args: { tags: ['a'] } });
    expect(v.ir?.target).toEqual({ filter: { has_tags: ['x'], time_range: { relative: 'last', amount: 7, unit: 'days' } } });
    expect(codes(v.diagnostics)).toEqual(['misplaced-field:warning', 'misplaced-field:warning']);
    // Both in place: nothing is moved.
    const both = validateIr({ stage: 'STO', op: 'Label', target: { filter: { tags: ['x'], has_tags: ['y'] } }, args: { tags: ['a'] } });
    expect(both.ir?.target).toEqual({ filter: { tags: ['x'], has_tags: ['y'] } });
    expect(codes(both.diagnostics)).toEqual([]);
  });

  it('refuses them under --strict', () => {
    const text = '{"op": "Retrieve", "target": {"filter": {"tags": ["x"]}}}';
    expect(codes(readInput(text, { policy: 'strict' }).diagnostics).filter((c) => c.endsWith(':error'))).toEqual(['stage-inferred:error', 'misplaced-field:error']);
  });

  it('runs them as read', async () => {
    const store = await createStore();
    const now = '2025-10-21T00:00:00Z';
    run(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'a' }, tags: ['x'], time: '2025-10-20T00:00:00Z' } }, { stage: 'ENC', op: 'Encode', args: { payload: { text: 'b' }, tags: ['y'], time: '2025-10-20T00:00:00Z' } }], { now });
    const r = run(store, [{ op: 'Retrieve', target: { filter: { tags: ['x'] } } }], { now });
    expect(r.ok).toBe(true);
    expect(r.results[0].ids.map(String)).toEqual(['1']);
    expect(codes(r.diagnostics)).toEqual(expect.arrayContaining(['stage-inferred:warning', 'misplaced-field:warning']));
  });
});
