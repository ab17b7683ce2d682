/**
 * The language card (src/agents/card.ts): generated from src/language's tables, so it names every
 * verb, keyword and enum value; small enough for a system prompt; its snapshots (spec/card.md,
 * spec/card-ir.md) and spec/syntax.md's "Meanings, answered" are current; and every DSL example
 * on it parses, checks clean, converts to the IR the card shows and runs on a store.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CARD_EXAMPLES, CARD_MAX_CHARS, EXAMPLE_SEED, languageCard, SPEC_END, SPEC_START, syntaxSection,
} from '../../src/agents/card.js';
import { createStore, run } from '../../src/engine/index.js';
import { ENUMS, KEYWORDS, OPS, VERB_NAMES } from '../../src/language/index.js';
import { textToIr } from '../../src/pipeline.js';

const NOW = '2025-04-20T12:00:00Z';
const spec = (name: string) => readFileSync(new URL(`../../spec/${name}`, import.meta.url), 'utf8');
const dsl = languageCard();
const ir = languageCard({ ir: true });

describe('language card', () => {
  it(`stays under ${CARD_MAX_CHARS} characters`, () => {
    expect(dsl.length).toBeLessThanOrEqual(CARD_MAX_CHARS);
    expect(ir.length).toBeLessThanOrEqual(CARD_MAX_CHARS);
  });

  it('names every verb and every keyword (DSL), every op (IR)', () => {
    for (const v of VERB_NAMES) expect(dsl).toContain(`**${v}**`);
    for (const k of KEYWORDS) expect(dsl, k).toMatch(new RegExp(`\\b${k}\\b`));
    for (const op of OPS) expect(ir).toContain(`**${op}**`);
  });

  it('lists every enum value with its doc, and its default', () => {
    for (const [name, e] of Object.entries(ENUMS)) {
      for (const card of [dsl, ir]) {
        const line = card.split('\n').find((l) => l.startsWith(`- ${name} (`));
        expect(line, name).toBeDefined();
        for (const v of e.values) expect(line, `${name}.${v}`).toContain(`\`${v}\``);
        if (e.default) expect(line).toContain(`default ${e.default}`);
      }
    }
  });

  it('is the snapshot in spec/card.md and spec/card-ir.md (npx tsx scripts/gen-card.ts)', () => {
    expect(spec('card.md')).toBe(dsl);
    expect(spec('card-ir.md')).toBe(ir);
  });

  it("spec/syntax.md carries the card's meanings and enum table (npx tsx scripts/gen-card.ts)", () => {
    const text = spec('syntax.md');
    const at = text.indexOf(SPEC_START);
    const end = text.indexOf(SPEC_END);
    expect(at).toBeGreaterThan(0);
    expect(text.slice(at + SPEC_START.length, end)).toBe(`\n${syntaxSection()}\n`);
  });

  it('shows every worked example, DSL on the DSL card and IR on the IR card', () => {
    for (const e of CARD_EXAMPLES) {
      expect(dsl).toContain(e.dsl);
      expect(ir).toContain(JSON.stringify(e.ir));
    }
    expect(CARD_EXAMPLES.length).toBeGreaterThanOrEqual(6);
    expect(CARD_EXAMPLES.length).toBeLessThanOrEqual(10);
  });

  it('seeds a store with three memories', async () => {
    const seed = textToIr(EXAMPLE_SEED);
    expect(seed.diagnostics).toEqual([]);
    const result = run(await createStore(), seed.irs, { now: NOW });
    expect(result.ok).toBe(true);
    expect(result.results.map((r) => r.ids)).toEqual([[1], [2], [3]]);
  });

  for (const e of CARD_EXAMPLES) {
    it(`example "${e.request}" checks clean, is the IR shown, and runs`, async () => {
      const front = textToIr(e.dsl);
      expect(front.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
      expect(front.irs).toEqual([e.ir]);
      const store = await createStore();
      const seeded = run(store, textToIr(EXAMPLE_SEED).irs, { now: NOW });
      expect(seeded.ok).toBe(true);
      const result = run(store, front.irs, { now: NOW });
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.diagnostics.filter((d) => d.code === 'no-match')).toEqual([]);
    });
  }
});
