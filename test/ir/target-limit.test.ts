/** A `target.limit` beside the filter or the search: one warning, and the read stays bounded (spec/checks.md#misplaced-field). */
import { describe, expect, it } from 'vitest';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { run } from '../../src/engine/index.js';
import { validateIr } from '../../src/ir/validate.js';
import { readInput } from '../../src/pipeline.js';

const NOW = '2025-10-21T00:00:00Z';

describe('target.limit read where it belongs', () => {
  it('is the filter\'s limit, or the search\'s, with one misplaced-field warning', () => {
    const byFilter = validateIr({ stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['x'] }, limit: 2 } });
    expect(byFilter.ir?.target).toEqual({ filter: { has_tags: ['x'], limit: 2 } });
    expect(byFilter.diagnostics.map((d) => [d.code, d.path])).toEqual([['misplaced-field', 'target.limit']]);
    const bySearch = validateIr({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'x' } }, filter: { type: 'note' }, limit: 2 } });
    expect(bySearch.ir?.target).toEqual({ search: { intent: { query: 'x' }, limit: 2 }, filter: { type: 'note' } });
    // The selection's own limit wins: nothing is moved.
    const own = validateIr({ stage: 'RET', op: 'Retrieve', target: { filter: { limit: 3 }, limit: 2 } });
    expect(own.ir?.target).toEqual({ filter: { limit: 3 }, limit: 2 });
    expect(readInput('{"stage":"RET","op":"Retrieve","target":{"filter":{"has_tags":["x"]},"limit":2}}', { policy: 'strict' }).diagnostics.map((d) => `${d.code}:${d.severity}`))
      .toEqual(['misplaced-field:error']);
  });

  it('bounds the read, with one warning in the run\'s diagnostics', async () => {
    const store = await createStore();
    run(store, [1, 2, 3, 4].map((i) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: `note ${i}` }, tags: ['x'] } })), { now: NOW });
    const r = run(store, [{ stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['x'] }, limit: 2 } }], { now: NOW });
    expect(r.ok).toBe(true);
    expect(r.results[0].ids).toHaveLength(2);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['misplaced-field']);
  });
});
