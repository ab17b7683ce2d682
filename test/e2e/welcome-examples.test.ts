/** The welcome panel's examples (one per verb) parse, check and run on a fresh store without errors. */
import { describe, expect, it } from 'vitest';
import { VERB_NAMES as VERBS } from '../../src/language/index.js';
import { run } from '../../src/engine/index.js';
import { openStore } from '../../src/dialect/sqlite/store.js';
import { textToIr } from '../../src/pipeline.js';
import { VERB_EXAMPLES } from '../../playground/src/welcome-examples.js';

describe('welcome examples', () => {
  it('has one example per verb, each showing that verb', () => {
    expect(VERB_EXAMPLES.map((e) => e.verb)).toEqual([...VERBS]);
    for (const e of VERB_EXAMPLES) expect(e.statement.startsWith(e.verb), e.verb).toBe(true);
  });

  it.each(VERB_EXAMPLES.map((e) => [e.verb, e.script]))('%s runs on a fresh store', async (_verb, script) => {
    const { irs, sourceMaps, diagnostics } = textToIr(script);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const opened = await openStore({});
    if (!opened.ok) throw new Error(JSON.stringify(opened.diagnostics));
    const result = run(opened.store, irs, { now: new Date('2025-05-10T00:00:00Z'), sourceMaps });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.ok).toBe(true);
    opened.store.close();
  });
});
