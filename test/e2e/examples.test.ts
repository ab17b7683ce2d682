/** Every example in the playground's menu is fresh, checks clean and runs on the engine. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createStore, run } from '../../src/engine/index.ts';
import { textToIr } from '../../src/pipeline.ts';
import { examples } from '../../scripts/playground-examples.ts';

const DIR = fileURLToPath(new URL('../../playground/examples/', import.meta.url));
/**
 * Upstream scenarios our engine refuses on purpose, with the refusal: the last step of the merge
 * workflow merges again after everything was merged into one record.
 */
const EXPECTED_REFUSALS: Readonly<Record<string, { statement: number; code: string }>> = {
  '20-op-merge.t2m': { statement: 4, code: 'merge-needs-two' },
};

const files = readdirSync(DIR).filter((f) => f.endsWith('.t2m')).sort();

describe('playground examples', () => {
  it('are the generator\'s output (run `npx tsx scripts/playground-examples.ts` when this fails)', () => {
    const expected = examples();
    expect(files).toEqual([...expected.keys()].sort());
    for (const f of files) expect(readFileSync(join(DIR, f), 'utf8'), f).toBe(expected.get(f));
  });

  it('include the paper workflows and the upstream scenarios', () => {
    expect(files.filter((f) => f.includes('paper'))).toHaveLength(2);
    expect(files.filter((f) => f.startsWith('10-workflow'))).toHaveLength(3);
  });

  it.each(files)('%s checks without errors and runs', async (file) => {
    const { irs, sourceMaps, diagnostics } = textToIr(readFileSync(join(DIR, file), 'utf8'));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const store = await createStore();
    const result = run(store, irs, { sourceMaps, now: '2025-10-01T00:00:00Z' });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    const refusal = EXPECTED_REFUSALS[file];
    if (refusal) {
      expect(errors.map((d) => ({ statement: d.statement, code: d.code }))).toEqual([refusal]);
      return;
    }
    expect(errors).toEqual([]);
    expect(result.ok).toBe(true);
    store.close();
  });
});
