/** Every example of the playground's menu (generated at build time from IR) checks clean and runs on the engine. */
import { describe, expect, it } from 'vitest';
import { createStore, run } from '../../src/engine/index.ts';
import { textToIr } from '../../src/pipeline.ts';
import { EXPECTED_REFUSALS, examples } from '../../scripts/playground-examples.ts';

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
    const result = run(store, irs, { sourceMaps, now: '2025-10-01T00:00:00Z' });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    const refusal = EXPECTED_REFUSALS[name];
    if (refusal) {
      // The refusal happens at the statement the example's header names, and its note sits right above that statement.
      const text = all.get(name)!;
      const said = Number(/^# Statement (\d+) is refused on purpose/m.exec(text)?.[1]);
      expect(errors.map((d) => ({ statement: d.statement, code: d.code }))).toEqual([{ statement: said - 1, code: refusal.code }]);
      const lines = text.split('\n');
      const start = sourceMaps[said - 1].get('')!.start.line;
      expect(lines[start - 2]).toBe(`# ${refusal.note.at(-1)}`);
      expect(lines[start - 1 - refusal.note.length]).toBe(`# ${refusal.note[0]}`);
      expect(result.ok).toBe(false);
      return;
    }
    expect(errors).toEqual([]);
    expect(result.ok).toBe(true);
    store.close();
  });
});
