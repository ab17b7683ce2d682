/**
 * DSL → IR → DSL is the identity on canonically printed DSL, starting from hand-written scripts:
 * for a script `x` written with its clauses and WHERE conditions in any order (and with the
 * spellings a person might use: `tags HAS` twice, two SETs, `limit = n`), `formatText(x)` is
 * exactly what IR → DSL prints for the IR of `formatText(x)`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Filter } from '../../src/ir/schema.js';
import { CONDITION_ORDER } from '../../src/convert/index.js';
import { formatText, irsToText, textToIr } from '../../src/pipeline.js';

/** One statement to write: a head, WHERE conditions (shuffled) and clauses (shuffled). */
interface Template {
  readonly head: string;
  readonly conditions?: readonly string[];
  /** The filter LIMIT, written after the last condition. */
  readonly limit?: string;
  readonly clauses: readonly string[];
}

const TEMPLATES: readonly Template[] = [
  {
    head: 'LOCK',
    conditions: ['tags HAS "incident:p1-network"', 'time IN LAST 7 DAYS'],
    limit: 'LIMIT 200',
    clauses: ['MODE read_only', 'REASON "audit"', 'POLICY { allow: [Retrieve, Summarize], deny: [Delete] }', 'AS "sre-ling"', 'AT 2025-09-29T00:05:00+08:00'],
  },
  {
    head: 'RETRIEVE',
    conditions: [
      'tags HAS "budget", "Q4"', 'tags NOT HAS "draft"', 'time FROM 2025-10-01T00:00:00Z TO 2025-10-31T23:59:59Z', 'type = note',
      'weight >= 0.5', 'weight <= 0.9', 'subject = "okr"', 'topic = "growth"', 'location = "office"',
      'expires AFTER 2025-01-01T00:00:00Z', 'expires BEFORE 2026-01-01T00:00:00+08:00', 'team = "core"', 'priority = 2',
    ],
    limit: 'LIMIT 20',
    clauses: ['INCLUDE id, text, tags', 'AS "bot"', 'LANG en', 'TRACE "t-1"'],
  },
  {
    head: 'SUMMARIZE',
    // The filter's limit as a condition, so it can move: a LIMIT right after a search is the search's.
    conditions: ['search "API outage" K 8 ORDER BY time_desc CONTEXT "executive briefing" LIMIT 8', 'tags HAS "incident"', 'limit = 200'],
    clauses: ['FOCUS "root cause, owners"', 'MAX 300 TOKENS'],
  },
  { head: 'UPDATE', clauses: ['ID "42"', 'SET text = "Budget raised to $3M"', 'SET tags = ["budget", "update"]', 'SET weight = 0.8', 'AS "ann"'] },
  {
    head: 'ENCODE "Q2 OKR review: reach +25%"',
    clauses: [
      'TYPE note', 'TAGS "OKR", "review"', 'TIME 2025-04-10T15:30:00+08:00', 'SOURCE "meeting_minutes"',
      'FACETS { subject: "Q2 performance", topic: "OKR progress" }', 'PAYLOAD { context: "weekly review" }', 'COMMENT "from the paper"',
    ],
  },
  { head: 'PROMOTE', conditions: ['tags HAS "OKR"', 'weight <= 0.5'], limit: 'LIMIT 5', clauses: ['BY 0.1', 'REASON "weekly review"'] },
  { head: 'DEMOTE', conditions: ['tags HAS "meeting"', 'time IN LAST 90 DAYS'], limit: 'LIMIT 100', clauses: ['ARCHIVE', 'REASON "old meetings"'] },
  {
    head: 'DELETE',
    conditions: ['tags HAS "tmp"', 'type = log'],
    limit: 'LIMIT 500',
    clauses: ['HARD', 'OLDER THAN P90D', 'WITHIN LAST 1 YEARS', 'REASON "cleanup"', 'DRY RUN'],
  },
  { head: 'EXPIRE', clauses: ['IDS "9", "10"', 'TTL P30D', 'THEN soft_delete'] },
  { head: 'LABEL', clauses: ['IDS "1", "2"', 'TAGS "urgent"', 'FACETS { priority: "high" }', 'MODE add'] },
  { head: 'MERGE', clauses: ['IDS "1", "2", "3"', 'INTO "1"', 'STRATEGY merge_into_primary', 'SET soft_delete_children = true'] },
  { head: 'SPLIT', clauses: ['ID "7"', 'STRATEGY by_sentences', 'SET params = { by_sentences: { lang: "en", max_sentences: 3 } }', 'SET inherit_all = true'] },
];

/** `tags HAS "a", "b"` may be written as `tags HAS "a" AND tags HAS "b"`. */
function splitTags(condition: string): string[] {
  const m = /^tags HAS (.*)$/.exec(condition);
  return m ? m[1].split(', ').map((v) => `tags HAS ${v}`) : [condition];
}

const separator = fc.constantFrom(' ', '\n  ', '   ', '\n');

/** One statement written by hand: conditions and clauses shuffled, some written split. */
const statement: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: TEMPLATES.length - 1 })
  .chain((i) => {
    const t = TEMPLATES[i];
    const conditions = t.conditions ?? [];
    return fc.record({
      t: fc.constant(t),
      conditions: fc.shuffledSubarray([...conditions], { minLength: Math.min(1, conditions.length), maxLength: conditions.length }),
      split: fc.boolean(),
      clauses: fc.shuffledSubarray([...t.clauses], { minLength: t.clauses.length, maxLength: t.clauses.length }),
      lowerVerb: fc.boolean(),
      separators: fc.array(separator, { minLength: 20, maxLength: 20 }),
    });
  })
  .map(({ t, conditions, split, clauses, lowerVerb, separators }) => {
    const sep = (i: number) => separators[i % separators.length];
    const head = lowerVerb ? t.head.replace(/^[A-Z]+/, (v) => v.toLowerCase()) : t.head;
    const conds = split ? conditions.flatMap(splitTags) : conditions;
    const parts = [...clauses];
    if (conds.length) {
      const where = `WHERE ${conds.join(`${sep(0)}AND `)}${t.limit ? ` ${t.limit}` : ''}`;
      parts.splice(clauses.length ? separators.length % (clauses.length + 1) : 0, 0, where);
    }
    return `${head}${parts.map((p, i) => `${sep(i + 1)}${p}`).join('')};`;
  });

const script = fc.array(statement, { minLength: 1, maxLength: 4 }).map((s) => `${s.join('\n')}\n`);

describe('DSL → IR → DSL on canonically printed hand-written DSL', () => {
  it('orders every filter field but limit', () => {
    expect([...CONDITION_ORDER].sort()).toEqual(Object.keys(Filter.shape).filter((k) => k !== 'limit').sort());
  });

  it('formats the reviewer\'s scripts to text that survives IR → DSL', () => {
    for (const x of [
      'LOCK WHERE time IN LAST 7 DAYS AND tags HAS "x" LIMIT 2 MODE read_only;',
      'LOCK WHERE tags HAS "x" AND time IN LAST 7 DAYS LIMIT 2 MODE read_only;',
      'RETRIEVE WHERE tags NOT HAS "b" AND tags HAS "a" LIMIT 3;',
      'RETRIEVE WHERE weight >= 0.5 AND type = note LIMIT 3;',
    ]) {
      const canonical = formatText(x).text!;
      expect(irsToText(textToIr(canonical).irs)).toBe(canonical);
    }
    expect(formatText('LOCK WHERE time IN LAST 7 DAYS AND tags HAS "x" LIMIT 2 MODE read_only;').text).toBe(
      'LOCK WHERE tags HAS "x" AND time IN LAST 7 DAYS LIMIT 2 MODE read_only;\n',
    );
    expect(formatText('RETRIEVE WHERE weight >= 0.5 AND type = note LIMIT 3;').text).toBe('RETRIEVE WHERE type = note AND weight >= 0.5 LIMIT 3;\n');
  });

  it('writes each IR field in one spelling', () => {
    expect(formatText('RETRIEVE WHERE tags HAS "a" AND type = note AND tags HAS "b" AND limit = 3;').text).toBe(
      'RETRIEVE WHERE tags HAS "a", "b" AND type = note LIMIT 3;\n',
    );
    expect(formatText('UPDATE SET weight = 0.8 ID "42" SET text = "x";').text).toBe('UPDATE ID "42" SET weight = 0.8, text = "x";\n');
    expect(formatText('RETRIEVE ALL STAGE RET WITH meta.actor = "bot";').text).toBe('RETRIEVE ALL AS "bot";\n');
    expect(formatText('ENCODE PAYLOAD { text: "hi", url: "https://x" };').text).toBe('ENCODE "hi" URL "https://x";\n');
  });

  it('keeps comments inside a statement, and still sorts its conditions', () => {
    const x = 'LOCK WHERE time IN LAST 7 DAYS AND tags HAS "x" LIMIT 2 # the outage\n  MODE read_only;\n';
    expect(formatText(x).text).toBe('LOCK WHERE tags HAS "x" AND time IN LAST 7 DAYS LIMIT 2 # the outage\n  MODE read_only;\n');
  });

  it('holds for generated hand-written scripts (shuffled clauses and conditions)', () => {
    fc.assert(
      fc.property(script, (x) => {
        const written = textToIr(x);
        expect(written.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const canonical = formatText(x).text!;
        const read = textToIr(canonical);
        expect(read.irs).toStrictEqual(written.irs);
        expect(irsToText(read.irs)).toBe(canonical);
        expect(formatText(canonical).text).toBe(canonical);
      }),
      { numRuns: 300 },
    );
  });
});
