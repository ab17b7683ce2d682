/**
 * Source maps built lazily (src/diagnostics/sourceMap.ts LazySourceMap, src/convert/astToIr.ts):
 * the happy path converts a statement without its map and builds the map from the AST when it is
 * first read. The lazy maps must give exactly what the one-pass eager build gives (same entries in
 * the same order), and the IRs and diagnostics must not depend on the mode.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { astToIr } from '../../src/convert/index.js';
import { LazySourceMap, materialize } from '../../src/diagnostics/sourceMap.js';
import { validateIr } from '../../src/ir/validate.js';
import type { IR } from '../../src/ir/schema.js';
import { irsToText, textToIr } from '../../src/pipeline.js';
import { parse } from '../../src/syntax/index.js';
import { corpusIrs } from '../ir-corpus.js';

const everyStatement = irsToText(corpusIrs().map(({ ir }) => validateIr(ir).ir as IR)).split(';\n').filter(Boolean).map((s) => `${s};`);

/** Lazy and eager conversion of one text agree on IRs, diagnostics and every map entry, in order. */
function same(text: string): void {
  const { script } = parse(text);
  const lazy = astToIr(script);
  const eager = astToIr(script, { eager: true });
  expect(lazy.irs).toStrictEqual(eager.irs);
  expect(lazy.diagnostics).toStrictEqual(eager.diagnostics);
  expect(lazy.sourceMaps.length).toBe(eager.sourceMaps.length);
  lazy.sourceMaps.forEach((m, i) => expect([...m]).toStrictEqual([...eager.sourceMaps[i]]));
}

describe('lazy source maps', () => {
  it('give the eager entries for every upstream IR, and are built only when read', () => {
    const { script } = parse(everyStatement.join('\n'));
    const lazy = astToIr(script);
    expect(lazy.diagnostics).toEqual([]);
    for (const m of lazy.sourceMaps) expect(m instanceof LazySourceMap && !m.built).toBe(true);
    same(everyStatement.join('\n'));
  });

  it('agree with the eager build on statements astToIr reports on', () => {
    const texts = [
      'ENCODE "a" TYPE note TYPE fact;',
      'ENCODE "a" PAYLOAD { k: 1, k: 2 };',
      'ENCODE "a" WITH args.payload = 1 WITH args.payload.x = 2;',
      'DELETE WHERE time FROM 2025-01-01 TO 2025-02-01 AND time IN LAST 2 DAYS CONFIRM;',
      'DELETE WITHIN LAST 2 DAYS WITHIN NEXT 1 DAYS ALL CONFIRM;',
      'RETRIEVE WHERE tags HAS "a" AND tags HAS "b", "c" AND foo.bar = 1 AND tag HAS "x" LIMIT 2;',
      'RETRIEVE WHERE facets.status > 1 AND facets.a = 1 AND facets.a = 2;',
      'SUMMARIZE "text" ALL STAGE RET STAGE ENC;',
      'UPDATE ID "m" SET text = "t", text = "u" MAX 3 TOKENS;',
    ];
    for (const t of texts) same(t);
    same(texts.join('\n'));
  });

  it('agree with the eager build on cut and spliced statements', () => {
    const words = everyStatement.slice(0, 300).map((s) => s.split(' '));
    fc.assert(
      fc.property(fc.nat(words.length - 1), fc.nat(words.length - 1), fc.nat(40), fc.nat(40), (a, b, cut, from) => {
        // The head of one statement with the tail of another: clauses set twice, clauses a verb
        // does not take, conflicting paths.
        const head = words[a].slice(0, Math.max(1, cut % words[a].length + 1));
        const tail = words[b].slice(1 + (from % Math.max(1, words[b].length - 1)));
        same(`${[...head, ...tail].join(' ')}\n${everyStatement[a]}`);
      }),
      { numRuns: 300, seed: 14 },
    );
  });

  it('are not built on the happy path, and give ranges when a diagnostic needs one', () => {
    const ok = textToIr('RETRIEVE WHERE tags HAS "a" LIMIT 3;');
    expect(ok.diagnostics).toEqual([]);
    expect((ok.sourceMaps[0] as LazySourceMap).built).toBe(false);
    expect(ok.sourceMaps[0].get('target.filter.limit')).toEqual({ start: { offset: 34, line: 1, column: 35 }, end: { offset: 35, line: 1, column: 36 } });
    expect((ok.sourceMaps[0] as LazySourceMap).built).toBe(true);
    // A checker diagnostic (a write without a limit or confirmation) reads the lazy map.
    const text = 'RETRIEVE ALL;\nDELETE WHERE type = note;';
    const bad = textToIr(text);
    const d = bad.diagnostics.find((x) => x.statement === 1);
    expect(d?.range?.start.line).toBe(2);
  });

  it('copy as plain maps with the same entries (structured clone, postMessage)', () => {
    const r = textToIr('ENCODE "a" TAGS ["x", "y"];');
    const eager = astToIr(parse('ENCODE "a" TAGS ["x", "y"];').script, { eager: true }).sourceMaps[0];
    const plain = materialize(r.sourceMaps[0]);
    expect(plain instanceof LazySourceMap).toBe(false);
    expect([...structuredClone(plain)]).toStrictEqual([...eager]);
    expect(r.sourceMaps[0].size).toBe(eager.size);
  });
});
