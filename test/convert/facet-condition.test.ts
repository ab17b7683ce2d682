/** `facets.status = "open"`: a condition on one facet, the same IR as `facets = { status: "open" }`. */
import { describe, expect, it } from 'vitest';
import { irsToText, textToIr } from '../../src/pipeline.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';

const codes = (text: string) => textToIr(text).diagnostics.map((d) => d.code);

describe('facet conditions', () => {
  it('reads facets.key = value as filter.facets, merged with other facet conditions', () => {
    const one = textToIr('RETRIEVE WHERE facets.status = "open" AND facets.owner = "bo" LIMIT 5;');
    expect(one.diagnostics).toEqual([]);
    const literal = textToIr('RETRIEVE WHERE facets = { status: "open", owner: "bo" } LIMIT 5;');
    expect(one.irs).toEqual(literal.irs);
    expect(one.sourceMaps[0]!.get('target.filter.facets.status')).toBeDefined();
  });

  it('prints in the canonical facets = {…} form, which reads back to the same IR', () => {
    const { irs } = textToIr('DELETE WHERE facets.status = "done" LIMIT 10 SOFT;');
    const text = irsToText(irs);
    expect(text).toContain('facets = { status: "done" }');
    expect(textToIr(text).irs).toEqual(irs);
  });

  it('refuses a dotted field other than facets, an operator other than =, and a facet set twice', () => {
    expect(codes('RETRIEVE WHERE meta.status = "x" LIMIT 5;')).toEqual(['invalid-condition']);
    expect(codes('RETRIEVE WHERE facets.status HAS "x" LIMIT 5;')).toEqual(['invalid-condition']);
    expect(codes('RETRIEVE WHERE facets.status = "x" AND facets.status = "y" LIMIT 5;')).toEqual(['duplicate-field']);
  });

  it('selects by the facet on the engine', async () => {
    const store = await createStore();
    const seed = textToIr('ENCODE "a" FACETS { status: "open" }; ENCODE "b" FACETS { status: "done" }; RETRIEVE WHERE facets.status = "open" LIMIT 5;');
    const result = run(store, seed.irs, { now: '2025-05-01T00:00:00Z' });
    expect(result.ok).toBe(true);
    expect(result.results[2]!.ids).toEqual([1]);
  });
});
