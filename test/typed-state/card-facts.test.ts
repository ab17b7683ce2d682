/** The language card's fact section (src/agents/card.ts): its statements parse, check and do what the card says. */
import { describe, expect, it } from 'vitest';
import { CARD_EXAMPLES, FACT_STATEMENTS, languageCard } from '../../src/agents/card.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { textToIr } from '../../src/pipeline.js';

async function runner() {
  const store = await createStore();
  const exec = (text: string, now: string) => {
    const parsed = textToIr(text);
    expect(parsed.diagnostics).toEqual([]);
    return run(store, parsed.irs, { now, sourceMaps: parsed.sourceMaps });
  };
  const ok = (text: string, now: string) => {
    const r = exec(text, now);
    expect(r.diagnostics).toEqual([]);
    return r.results;
  };
  return { exec, ok };
}

describe('the card\'s facts', () => {
  it('write, correct (the worked example), read now, AS OF, KNOWN AT and HISTORY', async () => {
    const { ok } = await runner();
    const correction = CARD_EXAMPLES.find((e) => e.dsl.includes('ATTRIBUTE'))!;
    const onCard = (text: string) => text.replaceAll('"mira"', 's').replaceAll('"deadline"', 'a');
    ok(onCard(correction.dsl.replace('2026-06-30', '2026-07-15')), '2026-06-01T00:00:00Z');
    ok(onCard(correction.dsl), '2026-06-05T00:00:00Z');
    const read = FACT_STATEMENTS.read;
    const results = ok(`${read} INCLUDE text; ${read} AS OF 2026-06-02T00:00:00Z KNOWN AT 2026-06-03T00:00:00Z INCLUDE text; ${read} HISTORY INCLUDE believed_to;`, '2026-06-10T00:00:00Z');
    expect(results.map((x) => (x.rows ?? []).map((row) => [row.text, row.believed_to ?? null]))).toEqual([
      [['2026-06-30', null]], [['2026-07-15', null]], [[undefined, '2026-06-05T00:00:00Z'], [undefined, null]],
    ]);
  });

  it('the schema declared as on the card: types checked, subjects trimmed, a different value needs CONFIRM; reads show confidence and source', async () => {
    const { exec, ok } = await runner();
    const NOW = '2026-06-10T00:00:00Z';
    ok(FACT_STATEMENTS.schema, NOW);
    ok('ENCODE "2026-07-15" SUBJECT " s" ATTRIBUTE a CONFIDENCE 0.9 SOURCE "email";', NOW);
    expect(exec('ENCODE "soon" SUBJECT s ATTRIBUTE a;', NOW).diagnostics.map((d) => d.code)).toEqual(['fact-type-mismatch']);
    expect(exec('ENCODE "2026-06-30" SUBJECT s ATTRIBUTE a CONFIDENCE 0.95;', NOW).diagnostics.map((d) => d.code)).toEqual(['fact-conflict']);
    ok('ENCODE "2026-06-30" SUBJECT s ATTRIBUTE a CONFIDENCE 0.95 SOURCE "call" CONFIRM;', NOW);
    const [rows] = ok(`${FACT_STATEMENTS.read};`, NOW).map((r) => r.rows);
    expect(rows).toMatchObject([{ text: '2026-06-30', subject: 's', attribute: 'a', confidence: 0.95, source: 'call' }]);
  });

  it('the confidence policy the card names: a lower CONFIDENCE fails', async () => {
    const { exec, ok } = await runner();
    const NOW = '2026-06-10T00:00:00Z';
    ok(FACT_STATEMENTS.schema.replace('"confirm"', '"confidence"'), NOW);
    ok('ENCODE "2026-07-15" SUBJECT s ATTRIBUTE a CONFIDENCE 0.9;', NOW);
    expect(exec('ENCODE "2026-06-30" SUBJECT s ATTRIBUTE a CONFIDENCE 0.5;', NOW).diagnostics.map((d) => d.code)).toEqual(['fact-conflict']);
    ok('ENCODE "2026-06-30" SUBJECT s ATTRIBUTE a CONFIDENCE 0.9;', NOW);
  });

  it('both cards name the schema, KNOWN AT / known_at and HISTORY', () => {
    const dsl = languageCard();
    const ir = languageCard({ ir: true });
    expect(dsl).toContain('## Facts');
    expect(dsl).toContain('KNOWN AT t (believed then)');
    expect(dsl).toContain(FACT_STATEMENTS.schema);
    expect(dsl).toContain(FACT_STATEMENTS.read);
    expect(ir).toContain('`known_at` (believed then)');
    // The IR card's declaration is the DSL's args, keys unquoted.
    const { args } = textToIr(FACT_STATEMENTS.schema).irs[0] as { args: { attribute: string; schema: unknown } };
    expect(args.attribute).toBe('a');
    expect(ir).toContain(`{attribute, schema: ${JSON.stringify(args.schema).replace(/"(\w+)":/g, '$1: ').replace(/,/g, ', ')}}`);
  });
});
