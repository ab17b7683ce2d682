/**
 * The happy-path parser (no recovery, no CST locations; src/syntax/recover.ts) changes nothing:
 * on any input `parse` gives the tree and the diagnostics the recovering parser alone gives.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { irsToText } from '../../src/pipeline.js';
import { parse } from '../../src/syntax/index.js';
import { parsing } from '../../src/syntax/recover.js';
import { validateIr } from '../../src/ir/validate.js';
import type { IR } from '../../src/ir/schema.js';
import { corpusIrs } from '../ir-corpus.js';

function both(text: string): void {
  parsing.happyPath = true;
  const fast = parse(text);
  parsing.happyPath = false;
  const recovering = parse(text);
  parsing.happyPath = true;
  expect(fast).toEqual(recovering);
}

const statements = irsToText(corpusIrs().slice(0, 400).map(({ ir }) => validateIr(ir).ir as IR)).split(';\n').filter(Boolean).map((s) => `${s};`);

describe('the happy-path parser', () => {
  afterEach(() => {
    parsing.happyPath = true;
  });

  it('reads the upstream IRs, printed, as the recovering parser does', () => {
    both(statements.join('\n'));
  });

  it('leaves stray words, missing semicolons and cut statements to the recovering parser', () => {
    for (const text of ['ENCODE "x" TAGS "a" foo bar;', 'ENCODE "x" TAGS "a" foo;', 'ENCODE "x" TAGS "a"\nRETRIEVE ID "1";', 'LABEL ID "1" TAGS "a" LIMIT 5 tags;', 'RETRIEVE WHERE search "x" AND foo bar LIMIT 2;', 'RETRIEVE WHERE tags HAS']) both(text);
  });

  it('changes no tree and no diagnostic on broken statements', () => {
    const noise = fc.constantFrom('foo', 'bar', ';', ',', '=', '[', ']', '{', '}', 'LIMIT', 'AND', 'WHERE', 'TAGS', 'ENCODE', '"x"', '5', 'ORDER BY', 'search', 'HAS', 'NOT', 'P7D', 'DRY', '$n', 'LET');
    fc.assert(fc.property(fc.integer({ min: 0, max: statements.length - 1 }), fc.integer({ min: 0, max: statements.length - 1 }), fc.nat(), fc.nat(), noise, fc.boolean(), (a, b, at, cut, word, drop) => {
      const words = `${statements[a]}\n${statements[b]}`.split(' ');
      const k = at % words.length;
      if (drop) words.splice(k, 1);
      else words.splice(k, 0, word);
      const text = words.join(' ');
      both(cut % 4 === 0 ? text.slice(0, cut % text.length) : text);
    }), { numRuns: 300 });
  });
});
