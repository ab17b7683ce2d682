/**
 * Two DSL forms over upstream fields (spec/syntax.md §12.0): `SPLIT … INSTRUCTION "…"` writes
 * `args.params.custom.instruction`, and `REMIND <date-time>` writes the rule that fires once then.
 * Each converts to the IR shown, prints back to itself, and leaves every other IR as it was.
 */
import { describe, expect, it } from 'vitest';
import { irsToText, textToIr } from '../../src/pipeline.js';
import { oneOffRule, oneOffTime } from '../../src/language/index.js';
import { corpusIrs } from '../ir-corpus.js';
import type { IR } from '../../src/ir/schema.js';

function clean(text: string): unknown[] {
  const front = textToIr(text);
  expect(front.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  return front.irs;
}

/** IR → DSL → IR gives the same IR, and the DSL printed. */
function roundTrip(irs: readonly unknown[]): string {
  const text = irsToText(irs as IR[]);
  expect(textToIr(text).irs).toEqual(irs);
  return text.trim();
}

describe('SPLIT … INSTRUCTION', () => {
  it('writes params.custom.instruction and prints back with the clause', () => {
    const irs = clean('SPLIT ID 1 STRATEGY custom INSTRUCTION "one piece per topic";');
    expect(irs).toEqual([{ stage: 'STO', op: 'Split', target: { ids: 1 }, args: { strategy: 'custom', params: { custom: { instruction: 'one piece per topic' } } } }]);
    expect(roundTrip(irs)).toBe('SPLIT ID 1 STRATEGY custom INSTRUCTION "one piece per topic";');
  });
  it('params with fields of no clause print as SET params, and round-trip', () => {
    const ir = { stage: 'STO', op: 'Split', target: { ids: '1' }, args: { strategy: 'custom', params: { custom: { instruction: 'by heading', max_splits: 3 } } } };
    expect(roundTrip([ir])).toContain('SET params = { custom: { instruction: "by heading", max_splits: 3 } }');
  });
  it('is refused on another verb', () => {
    expect(textToIr('MERGE IDS 1, 2 INSTRUCTION "x";').diagnostics.map((d) => d.code)).toContain('clause-not-allowed');
  });
});

describe('REMIND <date-time>', () => {
  it('is the rule that fires once at that instant (UTC), and prints back as the date-time', () => {
    const irs = clean('PROMOTE ID 1 REMIND 2025-05-01T09:00:00+08:00;');
    expect(irs).toEqual([{ stage: 'STO', op: 'Promote', target: { ids: 1 }, args: { remind: { rrule: 'FREQ=DAILY;COUNT=1;DTSTART=20250501T010000Z' } } }]);
    expect(roundTrip(irs)).toBe('PROMOTE ID 1 REMIND 2025-05-01T01:00:00Z;');
  });
  it('a rule of that form, written as a rule, reads as the same IR', () => {
    const irs = clean('PROMOTE ID 1 REMIND "FREQ=DAILY;COUNT=1;DTSTART=20250501T010000Z";');
    expect(irs).toEqual(clean('PROMOTE ID 1 REMIND 2025-05-01T01:00:00Z;'));
  });
  it('a quoted date-time is not a rule; the message names the bare form', () => {
    const d = textToIr('PROMOTE ID 1 REMIND "2025-05-01T09:00:00+08:00";').diagnostics;
    expect(d.map((x) => x.code)).toEqual(['invalid-rrule']);
    expect(d[0].message).toContain('REMIND 2025-05-01T09:00:00+08:00 (unquoted');
  });
  it('other rules are untouched', () => {
    expect(roundTrip(clean('PROMOTE ID 1 REMIND "FREQ=DAILY;COUNT=1";'))).toBe('PROMOTE ID 1 REMIND "FREQ=DAILY;COUNT=1";');
    expect(oneOffTime('FREQ=DAILY;COUNT=2;DTSTART=20250501T010000Z')).toBeUndefined();
    expect(oneOffRule('next monday')).toBeUndefined();
    expect(oneOffRule('2025-05-01')).toBe('FREQ=DAILY;COUNT=1;DTSTART=20250501T000000Z');
  });
  it('no upstream IR holds a one-off rule, so none prints differently', () => {
    for (const { ir } of corpusIrs()) {
      const rule = (ir as { args?: { remind?: { rrule?: unknown } } }).args?.remind?.rrule;
      if (typeof rule === 'string') expect(oneOffTime(rule), rule).toBeUndefined();
    }
  });
});
