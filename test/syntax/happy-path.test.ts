/**
 * The happy-path parser (no recovery, no CST: its actions build the AST; src/syntax/recover.ts,
 * src/syntax/grammar.ts) changes nothing: on any input `parse` gives the tree and the diagnostics the
 * recovering parser and cstToAst alone give, and `textToIr` the same IRs, source maps and diagnostics.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { irsToText, textToIr } from '../../src/pipeline.js';
import { parse } from '../../src/syntax/index.js';
import { parsing, recoveryWork } from '../../src/syntax/recover.js';
import { validateIr } from '../../src/ir/validate.js';
import type { IR } from '../../src/ir/schema.js';
import { corpusIrs } from '../ir-corpus.js';

function both(text: string): void {
  parsing.happyPath = true;
  const fast = parse(text);
  parsing.happyPath = false;
  const recovering = parse(text);
  parsing.happyPath = true;
  // Strict: the same keys (an absent part is `undefined` in both), not only the same values.
  expect(fast).toStrictEqual(recovering);
}

/** The same through the whole front end: IRs, source maps and diagnostics. */
function bothToIr(text: string): void {
  parsing.happyPath = true;
  const fast = textToIr(text);
  parsing.happyPath = false;
  const recovering = textToIr(text);
  parsing.happyPath = true;
  expect(fast).toStrictEqual(recovering);
}

const everyStatement = irsToText(corpusIrs().map(({ ir }) => validateIr(ir).ir as IR)).split(';\n').filter(Boolean).map((s) => `${s};`);
const statements = everyStatement.slice(0, 400);

describe('the happy-path parser', () => {
  afterEach(() => {
    parsing.happyPath = true;
  });

  it('reads the upstream IRs, printed, as the recovering parser does', () => {
    both(everyStatement.join('\n'));
  });

  it('gives the same IRs, source maps and diagnostics for every upstream IR', () => {
    bothToIr(everyStatement.join('\n'));
  });

  it('reads the spellings the printer does not write as the recovering parser does', () => {
    // Keywords as field names and values, soft keywords, two-word keywords, time ranges, facets,
    // references, nested lists and objects, escapes: the parts whose AST the actions build.
    const text = [
      'LET $a = ENCODE "x\\n\\u0041" TYPE note TAGS ["a", "b"] TIME 2025-01-01 VALID FROM 2025-01-02T00:00:00Z PAYLOAD { context: "c", "k": [1, -2.5e3, true, null, { type: Retrieve }] };',
      'RETRIEVE WHERE search "q" K 5 ALPHA 0.5 ORDER BY relevance LIMIT 3 AND TAGS HAS "a", "b" AND tags NOT HAS ["c"] AND type = note AND time IN LAST 7 DAYS FROM 2025-01-01 TO 2025-02-01 AND facets.status = "open" AND "x" >= 1 AND y <= 2 AND z BEFORE 2025-01-01 AND w AFTER 2025-01-01 LIMIT 10 AS OF 2025-01-01 INCLUDE id, type, [text] DRY RUN;',
      'DELETE WHERE time FROM 2025-01-01 TO 2025-03-01 OLDER THAN P30D WITHIN NEXT 2 WEEKS SOFT CONFIRM REASON "r";',
      'expire ids $a, "m2" THEN demote TTL P7D;',
      'SUMMARIZE ALL MAX 200 TOKENS FOCUS "f" AS "json";',
      'UPDATE ID "m1" SET text = "t", tags ["a"], weight 0.5 WITH meta.x.y = { a: [] } COMMENT "c"',
    ].join('\n');
    // All of it is read by the happy path: one parse per statement, none again with recovery.
    recoveryWork.parses = 0;
    expect(parse(text).diagnostics).toEqual([]);
    expect(recoveryWork.parses).toBe(6);
    both(text);
    bothToIr(text);
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
      const input = cut % 4 === 0 ? text.slice(0, cut % text.length) : text;
      both(input);
      bothToIr(input);
    }), { numRuns: 300 });
  });
});
