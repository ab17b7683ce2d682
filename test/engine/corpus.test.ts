/** Every upstream IR (`fixtures/upstream/`) runs on a seeded store or returns diagnostics: the engine never throws on input. */
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { corpusIrs } from '../ir-corpus.js';

const SEED = Array.from({ length: 5 }, (_, i) => ({
  stage: 'ENC', op: 'Encode',
  args: { payload: { text: `Seed note ${i + 1}. Project meeting about budget and roadmap.` }, tags: ['seed', 'meeting', 'project'], time: `2025-10-1${i}T09:00:00Z` },
}));

describe('corpus through the engine', () => {
  it('runs or diagnoses every upstream IR without throwing', async () => {
    const store = await createStore();
    expect(run(store, SEED, { now: '2025-10-21T00:00:00Z' }).ok).toBe(true);
    const codes = new Map<string, number>();
    let ok = 0;
    const irs = corpusIrs();
    for (const { ir } of irs) {
      // Each IR alone, rolled back, so one IR's effects do not change the next one's outcome.
      const r = run(store, [ir], { now: '2025-10-21T00:00:00Z', dryRun: true });
      if (r.ok) ok++;
      else for (const d of r.diagnostics) codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
    }
    expect(irs.length).toBe(3276);
    // The failures are refusals and value errors the engine reports, never crashes.
    expect([...codes.keys()].every((c) => /^[a-z]+(-[a-z]+)*$/.test(c))).toBe(true);
    expect(ok / irs.length).toBeGreaterThan(0.95);
  }, 60_000);
});
