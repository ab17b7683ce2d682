import { describe, expect, it } from 'vitest';
import * as t2m from '../src/index.js';

describe('library entry point', () => {
  it('chains text → IR → engine through the public API', async () => {
    const front = t2m.textToIr('ENCODE "Q2 OKR review" TAGS "OKR";\nPROMOTE WHERE search "OKR" LIMIT 5 SET weight 0.9;');
    expect(front.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const store = await t2m.createStore();
    const result = t2m.run(store, front.irs, { now: '2025-05-01T00:00:00Z', sourceMaps: front.sourceMaps });
    expect(result.ok).toBe(true);
    expect(result.results.map((r) => r.ids)).toEqual([[1], [1]]);
    expect(t2m.irsToText(front.irs)).toBe(t2m.formatText(t2m.irsToText(front.irs)).text);
  });
});
