import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';

describe('Split custom with explicit delimiters', () => {
  it('cuts at them (trimmed, empty pieces dropped) and folds past max_splits', async () => {
    const store = await createStore();
    const now = '2025-10-21T00:00:00Z';
    run(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'a | b || c. d' }, time: now } }], { now });
    const split = (custom: Record<string, unknown>) => ({ stage: 'STO', op: 'Split', target: { ids: ['1'] }, args: { strategy: 'custom', params: { custom }, keep_source: true } });
    const r = run(store, [split({ delimiters: ['|'] })], { now });
    expect(r.ok).toBe(true);
    const texts = store.query('SELECT text FROM memory WHERE id > 1 ORDER BY id').map((x) => x.text);
    expect(texts).toEqual(['a', 'b', 'c. d']);
  });
});
