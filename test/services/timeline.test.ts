import { describe, expect, it } from 'vitest';
import { diffRows, isEmptyDiff } from '../../src/services/timeline.js';

describe('diffRows', () => {
  it('reports added, removed and changed rows with the changed columns', () => {
    const before = [
      { id: 1, text: 'a', weight: 0.5 },
      { id: 2, text: 'b', weight: 0.5 },
    ];
    const after = [
      { id: 1, text: 'a', weight: 0.9 },
      { id: 3, text: 'c', weight: 0.5 },
    ];
    const diff = diffRows(before, after);
    expect(diff.added).toEqual([{ id: 3, text: 'c', weight: 0.5 }]);
    expect(diff.removed).toEqual([{ id: 2, text: 'b', weight: 0.5 }]);
    expect(diff.changed).toEqual([{ id: '1', before: before[0], after: after[0], fields: ['weight'] }]);
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it('treats equal blobs as unchanged and a column that appears as changed', () => {
    const diff = diffRows([{ id: 'x', v: new Uint8Array([1, 2]) }], [{ id: 'x', v: new Uint8Array([1, 2]), extra: null }]);
    expect(diff.changed.map((c) => c.fields)).toEqual([['extra']]);
    expect(isEmptyDiff(diffRows([{ id: 'x', v: 1 }], [{ id: 'x', v: 1 }]))).toBe(true);
  });
});
