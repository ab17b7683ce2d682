/** Every example of the playground's menu (generated at build time from IR) checks clean and runs on the engine. */
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { textToIr } from '../../src/pipeline.js';
import { examples } from '../../scripts/playground-examples.js';

const all = examples();

describe('playground examples', () => {
  it('include the paper workflows, the upstream scenarios and op workflows, in menu order', () => {
    const names = [...all.keys()];
    expect(names.filter((n) => n.includes('paper'))).toEqual(['01-paper-semantic-promotion', '02-paper-incident-postmortem-archive']);
    expect(names.filter((n) => n.startsWith('10-workflow'))).toHaveLength(3);
    expect(names.filter((n) => n.startsWith('20-op'))).toHaveLength(19);
    expect(names).toEqual([...names].sort());
    for (const [name, text] of all) expect(text, name).toMatch(/^# \S/);
  });

  it.each([...all.keys()])('%s checks without errors and runs', async (name) => {
    const { irs, sourceMaps, diagnostics } = textToIr(all.get(name)!);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const store = await createStore();
    // As the playground runs them: the user is the caller, so AS acts (playground/src/library.ts).
    const result = run(store, irs, { sourceMaps, now: '2025-10-01T00:00:00Z', impersonate: true });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([]);
    expect(result.ok).toBe(true);
    store.close();
  });
});
