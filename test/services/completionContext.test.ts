import { describe, expect, it } from 'vitest';
import { getCompletions } from '../../src/services/completion.js';

/**
 * Completion from the grammar's "what may come next" at the cursor (`|`): the first items
 * expected, in order, and items that must not be offered there.
 */
const TARGETS = ['ID', 'IDS', 'ALL', 'WHERE'];
const CASES: ReadonlyArray<readonly [text: string, first: readonly string[], absent: readonly string[]]> = [
  // DELETE
  ['DELETE WHERE tags HAS "a" LIMIT 3 |', ['SOFT', 'HARD', 'OLDER THAN', 'WITHIN', 'REASON'], [...TARGETS, 'TYPE', 'MODE', 'LIMIT']],
  ['DELETE WHERE tags HAS "a" |', ['AND', 'LIMIT', 'SOFT', 'HARD', 'OLDER THAN'], [...TARGETS, 'MODE']],
  ['DELETE |', ['ID', 'IDS', 'ALL', 'WHERE', 'SOFT', 'HARD'], ['TYPE', 'MODE', 'LIMIT', 'AND']],
  ['DELETE IDS "1" SOFT |', ['OLDER THAN', 'WITHIN', 'REASON'], [...TARGETS, 'SOFT', 'HARD']],
  ['DELETE ALL CONFIRM |', ['SOFT', 'HARD', 'OLDER THAN'], [...TARGETS, 'CONFIRM']],
  ['DELETE IDS "1" S|', ['SOFT', 'SET', 'STAGE'], ['search']],
  // ENCODE
  ['ENCODE "x" |', ['LEVEL', 'OF', 'TYPE', 'TAGS', 'TIME', 'SOURCE', 'SUBJECT'], ['ID', 'IDS', 'ALL', 'MODE', 'SOFT', 'LIMIT']],
  ['ENCODE "x" TYPE note |', ['LEVEL', 'OF', 'TAGS', 'TIME', 'SOURCE'], ['TYPE', 'SOFT']],
  ['ENCODE "x" TAGS "a" |', ['LEVEL', 'OF', 'TYPE', 'TIME'], ['TAGS', 'MODE']],
  // VALUE is an ENCODE clause (an experience record's stored value, spec/syntax.md §12.2).
  ['ENCODE "x" VA|', ['VALID FROM', 'VALUE'], ['VALIDATE']],
  // UPDATE
  ['UPDATE ID "1" |', ['SET', 'WITH'], [...TARGETS, 'TYPE', 'SOFT', 'MODE']],
  ['UPDATE |', ['ID', 'IDS', 'ALL', 'WHERE'], ['TYPE', 'SOFT']],
  // LABEL
  ['LABEL IDS "1" |', ['TAGS', 'FACETS', 'MODE'], [...TARGETS, 'SOFT', 'TYPE']],
  ['LABEL IDS "1" TAGS "x" |', ['FACETS', 'MODE'], [...TARGETS, 'TAGS']],
  // PROMOTE
  ['PROMOTE IDS "1" |', ['REWARD', 'BY', 'REMIND', 'UNTIL', 'REASON'], [...TARGETS, 'SOFT', 'TYPE']],
  ['PROMOTE WHERE type = note |', ['AND', 'LIMIT', 'REWARD', 'BY'], [...TARGETS, 'SOFT']],
  ['PROMOTE IDS "1" SET weight 0.9 |', ['REWARD', 'BY'], [...TARGETS, 'SOFT']],
  // DEMOTE
  ['DEMOTE IDS "1" |', ['BY', 'ARCHIVE', 'REASON'], [...TARGETS, 'SOFT', 'REWARD']],
  ['DEMOTE WHERE weight <= 0.2 ARCHIVE |', ['BY', 'REASON'], [...TARGETS, 'ARCHIVE']],
  // MERGE
  ['MERGE IDS "1", "2" |', ['INTO', 'STRATEGY'], [...TARGETS, 'SOFT', 'TYPE']],
  ['MERGE IDS "1", "2" INTO "1" |', ['STRATEGY'], [...TARGETS, 'INTO']],
  // SPLIT
  ['SPLIT ID "1" |', ['LEVEL', 'STRATEGY', 'INSTRUCTION'], [...TARGETS, 'SOFT', 'INTO']],
  // LOCK
  ['LOCK WHERE tags HAS "a" |', ['AND', 'LIMIT', 'MODE', 'REASON', 'POLICY'], [...TARGETS, 'SOFT']],
  ['LOCK ALL CONFIRM MODE read_only |', ['REASON', 'POLICY'], [...TARGETS, 'MODE', 'CONFIRM']],
  // EXPIRE
  ['EXPIRE IDS "1" |', ['TTL', 'UNTIL', 'THEN', 'REASON'], [...TARGETS, 'SOFT']],
  ['EXPIRE IDS "1" TTL P7D |', ['UNTIL', 'THEN', 'REASON'], [...TARGETS, 'TTL']],
  // RETRIEVE
  ['RETRIEVE WHERE search "x" |', ['K', 'ALPHA', 'LIMIT', 'CONTEXT', 'VECTOR', 'ORDER BY', 'AND'], ['ID', 'IDS', 'ALL', 'SOFT', 'MODE']],
  ['RETRIEVE WHERE search "x" K 5 |', ['K', 'ALPHA'], ['ID', 'IDS', 'SOFT']],
  ['RETRIEVE ALL |', ['LEVEL', 'PICK', 'EXPAND', 'AS OF', 'KNOWN AT', 'HISTORY', 'INCLUDE'], [...TARGETS, 'SOFT', 'LIMIT']],
  ['RETRIEVE WHERE time IN LAST 7 DAYS |', ['FROM', 'TO', 'AND', 'LIMIT'], ['ID', 'IDS', 'ALL', 'SOFT']],
  ['RETRIEVE WHERE search "x" ORDER |', ['BY'], ['ID', 'SOFT', 'K']],
  // SUMMARIZE
  ['SUMMARIZE WHERE tags HAS "a" |', ['AND', 'LIMIT', 'AS OF', 'KNOWN AT', 'FOCUS', 'MAX'], [...TARGETS, 'SOFT']],
  ['SUMMARIZE ALL MAX 100 |', ['TOKENS'], ['FOCUS', 'SOFT', 'ALL']],
  ['SUMMARIZE ALL FOCUS "x" |', ['AS OF', 'KNOWN AT', 'MAX'], [...TARGETS, 'FOCUS']],
  // LET and the meta clauses
  ['LET $a = DELETE IDS "1" |', ['SOFT', 'HARD'], [...TARGETS]],
  ['DELETE IDS "1" DRY RUN |', ['SOFT', 'HARD'], [...TARGETS, 'DRY RUN']],
  // The statement before has lost its `;`: the cursor's statement starts at the verb on its line.
  ['DELETE ALL CONFIRM\nPROMOTE IDS "1" |', ['REWARD', 'BY', 'REMIND'], [...TARGETS, 'SOFT']],
  ['DELETE WHERE tags HAS "a" LIMIT 3 SOFT REASON "x" |', ['OLDER THAN', 'WITHIN', 'SET'], [...TARGETS, 'SOFT', 'HARD', 'REASON']],
];

const labels = (text: string) => {
  const at = text.indexOf('|');
  return getCompletions(text.slice(0, at) + text.slice(at + 1), at).map((i) => i.label);
};

describe('completion knows where it is (≥ 30 positions, every verb)', () => {
  it.each(CASES)('%s', (text, first, absent) => {
    const got = labels(text);
    expect(got.slice(0, first.length)).toEqual(first);
    for (const a of absent) expect(got).not.toContain(a);
  });

  it('offers the any-verb clauses after the verb\'s own, and `;` last where the statement may end', () => {
    const got = labels('DELETE WHERE tags HAS "a" LIMIT 3 |');
    for (const meta of ['CONFIRM', 'DRY RUN', 'AS', 'SET']) expect(got.indexOf(meta)).toBeGreaterThan(got.indexOf('WITHIN'));
    expect(got[got.length - 1]).toBe(';');
    expect(labels('RETRIEVE ALL AS |')).not.toContain(';');
  });

  it('covers all twelve verbs', () => {
    const verbs = new Set(CASES.map(([t]) => t.replace(/^LET \$\w+ = /, '').split(/[ \n]/)[0]));
    expect(verbs.size).toBe(12);
  });
});
