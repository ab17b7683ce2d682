/** The language card's fact section (src/agents/card.ts): its statements parse, check and do what the card says. */
import { describe, expect, it } from 'vitest';
import { CARD_EXAMPLES, FACT_STATEMENTS, languageCard } from '../../src/agents/card.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { textToIr } from '../../src/pipeline.js';

describe('the card\'s facts', () => {
  it('write, correct (the worked example), read now, AS OF, KNOWN AT and HISTORY', async () => {
    const store = await createStore();
    const exec = (text: string, now: string) => {
      const parsed = textToIr(text);
      expect(parsed.diagnostics).toEqual([]);
      const r = run(store, parsed.irs, { now, sourceMaps: parsed.sourceMaps });
      expect(r.diagnostics).toEqual([]);
      return r.results.map((x) => (x.rows ?? []).map((row) => [row.text, row.believed_to ?? null]));
    };
    const correction = CARD_EXAMPLES.find((e) => e.dsl.includes('ATTRIBUTE'))!;
    exec(correction.dsl.replace('2026-06-30', '2026-07-15'), '2026-06-01T00:00:00Z');
    exec(correction.dsl, '2026-06-05T00:00:00Z');
    const read = FACT_STATEMENTS.read;
    expect(exec(`${read} INCLUDE text; ${read} AS OF 2026-06-02T00:00:00Z KNOWN AT 2026-06-03T00:00:00Z INCLUDE text; ${read} ${FACT_STATEMENTS.history};`, '2026-06-10T00:00:00Z')).toEqual([
      [['2026-06-30', null]], [['2026-07-15', null]], [[undefined, '2026-06-05T00:00:00Z'], [undefined, null]],
    ]);
  });

  it('both cards name KNOWN AT / known_at and HISTORY', () => {
    expect(languageCard()).toContain('## Facts');
    expect(languageCard()).toContain('KNOWN AT t (believed then)');
    expect(languageCard({ ir: true })).toContain('`known_at` (believed then)');
  });
});
