/**
 * `lexer` reads words as identifiers and turns those that are keywords into keyword tokens by a
 * table: it must read exactly what Chevrotain's lexer with one case-insensitive token per keyword
 * (each giving way to a longer identifier, the grammar's definition) reads.
 */
import { Lexer, type IToken } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import * as T from '../../src/syntax/tokens.js';
import type { IR } from '../../src/ir/schema.js';
import { validateIr } from '../../src/ir/validate.js';
import { irsToText } from '../../src/pipeline.js';
import { corpusIrs } from '../ir-corpus.js';

const byKeywordTokens = new Lexer(T.allTokens, { positionTracking: 'full' });

const show = (ts: readonly IToken[]) => ts.map((t) => `${t.tokenType.name}:${t.tokenTypeIdx}:${t.image}@${t.startOffset}:${t.startLine}:${t.startColumn}-${t.endOffset}:${t.endLine}:${t.endColumn}`);

function expectSame(text: string): void {
  const a = byKeywordTokens.tokenize(text);
  const b = T.lexer.tokenize(text);
  expect(show(b.tokens)).toEqual(show(a.tokens));
  expect(show((b.groups.comments as IToken[] | undefined) ?? [])).toEqual(show((a.groups.comments as IToken[] | undefined) ?? []));
  expect(b.errors).toEqual(a.errors);
}

/** A deterministic pseudo-random sequence (no flaky tests). */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('lexer (identifiers, then keywords by table)', () => {
  const dsl = irsToText(corpusIrs().map(({ ir }) => validateIr(ir).ir as IR));

  it('reads the upstream IRs printed as DSL as the keyword tokens do', () => {
    expectSame(dsl);
  });

  it('reads every keyword in any case, glued to letters, digits or _, and the literals, as the keyword tokens do', () => {
    const words = [...T.KEYWORDS, 'true', 'false', 'null'];
    const spellings = words.flatMap((w) => [w, w.toLowerCase(), w[0] + w.slice(1).toLowerCase(), `${w}x`, `${w}_1`, `x${w}`, `${w}9`, w.slice(0, -1)]);
    expectSame(spellings.join(' '));
    expectSame(spellings.join(','));
    expectSame(`${spellings.join('\n')} # ${words.join(' ')}\n"${words.join(' ')}" P7D TOPIC tags_x TRUEly nullable`);
  });

  it('reads the upstream DSL with words re-cased at random and characters dropped as the keyword tokens do', () => {
    const next = random(7);
    for (let round = 0; round < 20; round++) {
      const start = Math.floor(next() * (dsl.length - 4000));
      const chars = [...dsl.slice(start, start + 4000)].flatMap((c) => {
        const r = next();
        if (r < 0.01) return [];
        if (r < 0.3) return [c.toLowerCase()];
        if (r < 0.4) return [c.toUpperCase()];
        return [c];
      });
      expectSame(chars.join(''));
    }
  });
});
