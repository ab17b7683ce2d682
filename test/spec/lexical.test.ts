/**
 * The lexical table of spec/syntax.md §1 says what the lexer really does: each example of the
 * `datetime`, `duration` and `enum value` rows is one token of that kind, and the case rules it
 * states hold (keywords case-insensitive; enum values case-sensitive, with a did-you-mean fix).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textToIr } from '../../src/pipeline.js';
import { tokenize } from '../../src/syntax/index.js';
import { SPEC_DIR } from './blocks.js';

const syntax = readFileSync(join(SPEC_DIR, 'syntax.md'), 'utf8');

/** The backticked examples in the `syntax` column of the §1 table row named `item`. */
function rowExamples(item: string): string[] {
  const row = syntax.split('\n').find((l) => l.startsWith(`| ${item} |`));
  expect(row, `spec/syntax.md §1 has no '${item}' row`).toBeDefined();
  const cells = row!.split(' | ');
  return [...cells[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}

/** The kinds of the tokens of one piece of text. */
function kinds(text: string): string[] {
  return tokenize(text).tokens.map((t) => t.kind);
}

describe('spec/syntax.md lexical table', () => {
  it.each([
    ['datetime', 'datetime'],
    ['duration', 'duration'],
    ['enum value', 'identifier'],
  ])('every %s example lexes as one %s token', (item, kind) => {
    const examples = rowExamples(item);
    expect(examples.length).toBeGreaterThan(1);
    for (const ex of examples) expect(kinds(ex), ex).toEqual([kind]);
  });

  it('lists date-only and offset-less datetimes, which the checker rejects in datetime fields', () => {
    expect(rowExamples('datetime')).toEqual(expect.arrayContaining(['2025-04-10', '2025-04-10T15:30']));
    for (const ex of ['2025-04-10', '2025-04-10T15:30']) {
      expect(textToIr(`EXPIRE ID "1" UNTIL ${ex}`).diagnostics.map((d) => d.code)).toEqual(['invalid-datetime']);
      expect(textToIr(`ENCODE "x" FACETS { launch: ${ex} }`).diagnostics).toEqual([]);
    }
  });

  it('says enum values are case-sensitive, and they are: the fix is the lower-case value', () => {
    expect(syntax).toMatch(/\| enum value \|.*\*\*case-sensitive\*\*/);
    for (const written of ['READ_ONLY', 'Read_Only']) {
      const [d, ...rest] = textToIr(`LOCK ID "1" MODE ${written}`).diagnostics;
      expect(rest).toEqual([]);
      expect(d.code).toBe('invalid-enum');
      expect(d.message).toContain("did you mean 'read_only'?");
      expect(d.fix?.edits[0].newText).toBe('read_only');
    }
    expect(textToIr('LOCK ID "1" MODE read_only').diagnostics).toEqual([]);
    // Keywords are not values: any case reads the same.
    expect(textToIr('lock id "1" mode read_only').diagnostics).toEqual([]);
  });
});
