/** The rules seen from the DSL: each diagnostic points at the exact span of the offending source. */
import { describe, expect, it } from 'vitest';
import { textToIr } from '../../src/pipeline.js';
import { at, diagnoseJson, expectDiagnostics as diags } from './harness.js';

describe('check rules on DSL source', () => {
  it('passes the card statement with no diagnostics', () => {
    expect(diags('PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9')).toEqual([]);
  });

  it.each<[string, string, string, number?]>([
    ['PROMOTE ID "1" SET weight 0.9 STAGE RET', 'stage-mismatch', 'RET'],
    ['ENCODE "x" ID "1"', 'target-forbidden', 'ID "1"'],
    ['DELETE ID "1" WHERE type = note LIMIT 5', 'target-exclusive', 'WHERE type = note LIMIT 5'],
    ['DELETE IDS "7", "8", "7"', 'duplicate-id', '"7"', 1],
    ['DELETE ALL SOFT', 'all-requires-confirmation', 'ALL'],
    ['RETRIEVE ALL DRY RUN', 'all-requires-confirmation', 'ALL'],
    ['PROMOTE WHERE search "q" SET weight 1', 'write-without-limit', 'search "q"'],
    ['PROMOTE ID "1" SET weight 0.9, weight_delta 0.1', 'exclusive-args', '0.1'],
    ['EXPIRE ID "1" TTL P7D UNTIL 2026-01-01T00:00:00Z', 'exclusive-args', '2026-01-01T00:00:00Z'],
    ['RETRIEVE WHERE time FROM 2025-02-01T00:00:00Z TO 2025-01-01T00:00:00Z', 'time-range-order', '2025-01-01T00:00:00Z'],
    ['PROMOTE ID "1" SET weight 1.5', 'out-of-range', '1.5'],
    ['SUMMARIZE IDS "1", "2" MAX 0 TOKENS', 'out-of-range', '0'],
    ['RETRIEVE WHERE search "q" K 0', 'out-of-range', '0'],
    ['RETRIEVE WHERE weight >= 0.8 AND weight <= 0.2', 'empty-weight-range', '0.2'],
    ['MERGE IDS "1", "2" INTO "3"', 'merge-primary-not-in-ids', '"3"'],
    ['LOCK ID "1" POLICY { allow: [Retrieve, Delete], deny: [Delete] }', 'policy-conflict', 'Delete', 1],
    ['EXPIRE ID "1" UNTIL 2025-04-10', 'invalid-datetime', '2025-04-10'],
    ['EXPIRE ID "1" TTL "7D"', 'invalid-duration', '"7D"'],
    ['PROMOTE ID "1" REMIND "FREQ=DAYLY"', 'invalid-rrule', '"FREQ=DAYLY"'],
    ['LOCK ID "1" MODE readonly', 'invalid-enum', 'readonly'],
  ])('%s → %s', (src, code, needle, nth = 0) => {
    expect(diags(src)).toEqual([{ code, range: at(src, needle, nth) }]);
  });

  it('reports a missing field at the statement when there is nothing more specific', () => {
    const src = 'DELETE SOFT';
    expect(diags(src)).toEqual([{ code: 'target-required', range: at(src, src) }]);
  });

  it('offers a fix for a misspelt enum value that keeps the DSL bare word', () => {
    const [d] = textToIr('LOCK ID "1" MODE readonly').diagnostics;
    expect(d.fix?.edits).toEqual([{ range: d.range, newText: 'read_only' }]);
  });

  it('warns about a near-miss field name, pointing at the name', () => {
    const src = 'UPDATE ID "1" SET weigth = 0.5, weight = 0.4';
    expect(diags(src)).toEqual([{ code: 'unknown-field', range: at(src, 'weigth') }]);
    const [d] = textToIr(src).diagnostics;
    expect(d.fix?.edits[0].newText).toBe('weight');
  });

  it('strict policy turns warnings into errors', () => {
    const src = 'LABEL WHERE tags HAS "inbox" TAGS "triaged"';
    expect(textToIr(src).diagnostics.map((d) => d.severity)).toEqual(['warning']);
    expect(textToIr(src, { policy: 'strict' }).diagnostics.map((d) => d.severity)).toEqual(['error']);
  });

  it('still checks the values a shape error leaves alone', () => {
    const src = 'EXPIRE ID "1" TTL P7X THEN soft_delet';
    expect(diags(src)).toEqual([
      { code: 'invalid-duration', range: at(src, 'P7X') },
      { code: 'invalid-enum', range: at(src, 'soft_delet') },
    ]);
    const more = 'PROMOTE ID "1" SET weight 1.5 AS 5';
    expect(diags(more)).toEqual([
      { code: 'out-of-range', range: at(more, '1.5') },
      { code: 'invalid-type', range: at(more, '5', 1) },
    ]);
    // The rejected value itself is not judged again, and cross-field rules wait for a valid shape.
    const bad = 'RETRIEVE ALL AT 5 INCLUDE id, txt';
    expect(diags(bad).map((d) => d.code)).toEqual(['invalid-type', 'invalid-enum']);
  });

  it('reports a misspelt condition field once, with did-you-mean and a fix', () => {
    const src = 'RETRIEVE WHERE tgas HAS "x"';
    expect(diags(src)).toEqual([{ code: 'invalid-condition', range: at(src, 'tgas') }]);
    const [d] = textToIr(src).diagnostics;
    expect(d.message).toBe("HAS applies to 'tags', not 'tgas'; did you mean 'tags'?");
    expect(d.fix?.edits[0].newText).toBe('tags');
    const other = 'RETRIEVE WHERE type HAS "x"';
    expect(textToIr(other).diagnostics.map((x) => [x.code, x.message])).toEqual([
      ['invalid-condition', "HAS applies to 'tags', not 'type'. Write `type = value` to match a field exactly."],
    ]);
  });

  it('numbers statements in script order', () => {
    const out = textToIr('RETRIEVE WHERE type = note;\nPROMOTE ID "1" SET weight 2;\nRETRIEVE ALL').diagnostics;
    expect(out.map((d) => [d.code, d.statement])).toEqual([
      ['out-of-range', 1],
      ['all-requires-confirmation', 2],
    ]);
  });
});

describe('messages speak the language the person wrote', () => {
  const message = (src: string, code: string) => textToIr(src).diagnostics.find((d) => d.code === code)?.message;
  const jsonMessage = (ir: unknown, code: string) => diagnoseJson(JSON.stringify(ir)).find((d) => d.code === code)?.message;

  it('names DSL clauses (with the IR path) for DSL input', () => {
    expect(message('DELETE ALL SOFT', 'all-requires-confirmation')).toBe(
      'Delete on all memories changes everything: add CONFIRM (meta.confirmation), or DRY RUN (meta.dry_run) to see what it would do',
    );
    expect(message('RETRIEVE ALL', 'all-requires-confirmation')).toBe('Retrieve over all memories needs confirmation: add CONFIRM (meta.confirmation)');
    expect(message('PROMOTE ID "1"', 'missing-field')).toBe(
      'Promote needs to know how: give one of SET weight (args.weight), BY (args.weight_delta), REMIND "rule" (args.remind), REWARD (args.reward)',
    );
    expect(message('PROMOTE ID "1" SET weight 0.9 BY 0.1', 'exclusive-args')).toContain('BY (args.weight_delta) cannot be combined with SET weight (args.weight)');
    expect(message('RETRIEVE WHERE search "x" ORDER BY newest', 'invalid-enum')).toContain("'newest' is not a valid ORDER BY (target.search.overrides.order_by)");
    expect(message('DELETE SOFT', 'target-required')).toBe('Delete needs a target: ID, IDS, WHERE or ALL');
    expect(message('LABEL WHERE tags HAS "x" TAGS "y"', 'write-without-limit')).toContain('add LIMIT n after the last condition');
    expect(message('DELETE WHERE status = "done" LIMIT 5', 'unknown-condition')).toContain('status = … (target.filter.status)');
  });

  it('keeps IR wording, and offers no DSL fix, for JSON input', () => {
    const all = { stage: 'STO', op: 'Delete', target: { all: true }, args: { soft: true } };
    expect(jsonMessage(all, 'all-requires-confirmation')).toBe(
      'Delete on all memories changes everything: confirm it (meta.confirmation) or make it a dry run (meta.dry_run)',
    );
    expect(diagnoseJson(JSON.stringify(all))[0].fix).toBeUndefined();
    expect(jsonMessage({ stage: 'STO', op: 'Promote', target: { ids: ['1'] } }, 'missing-field')).toBe('Promote needs to know how: give one of weight, weight_delta, remind, reward in args');
    expect(jsonMessage({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'x' }, overrides: { order_by: 'newest' } } } }, 'invalid-enum')).toContain(
      "is not a valid 'target.search.overrides.order_by'",
    );
  });

  it('offers no CONFIRM when the statement says confirmation is false', () => {
    const d = textToIr('DELETE ALL SOFT WITH meta.confirmation = false').diagnostics.find((x) => x.code === 'all-requires-confirmation');
    expect(d?.fix).toBeUndefined();
  });
});

describe('mechanical fixes', () => {
  /** Applies a diagnostic's fix edits to the source (edits do not overlap). */
  function applyFix(src: string, code: string): string {
    const d = textToIr(src).diagnostics.find((x) => x.code === code);
    const edits = [...(d?.fix?.edits ?? [])].sort((a, b) => b.range.start.offset - a.range.start.offset);
    return edits.reduce((text, e) => text.slice(0, e.range.start.offset) + e.newText + text.slice(e.range.end.offset), src);
  }

  it.each([
    ['RETRIEVE WHERE time FROM 2025-02-01T00:00:00Z TO 2025-01-01T00:00:00Z', 'time-range-order', 'RETRIEVE WHERE time FROM 2025-01-01T00:00:00Z TO 2025-02-01T00:00:00Z'],
    ['RETRIEVE WHERE weight >= 0.8 AND weight <= 0.2', 'empty-weight-range', 'RETRIEVE WHERE weight >= 0.2 AND weight <= 0.8'],
    ['PROMOTE ID "1" SET weight 0.9 STAGE RET', 'stage-mismatch', 'PROMOTE ID "1" SET weight 0.9 STAGE STO'],
    ['LOCK ID "1" MODE readonly', 'invalid-enum', 'LOCK ID "1" MODE read_only'],
    ['DELETE ALL SOFT;', 'all-requires-confirmation', 'DELETE ALL SOFT CONFIRM;'],
    ['RETRIEVE ALL INCLUDE id, text  # every memory', 'all-requires-confirmation', 'RETRIEVE ALL INCLUDE id, text CONFIRM  # every memory'],
    ['DELETE WHERE status = "done" LIMIT 5 SOFT;', 'unknown-condition', 'DELETE WHERE facets = { status: "done" } LIMIT 5 SOFT;'],
  ])('%s (%s) is fixed to a clean statement', (src, code, fixed) => {
    expect(applyFix(src, code)).toBe(fixed);
    expect(textToIr(fixed).diagnostics).toEqual([]);
  });

  it('swaps quoted JSON values too', () => {
    const src = '{"stage":"RET","op":"Retrieve","target":{"filter":{"time_range":{"start":"2025-02-01T00:00:00Z","end":"2025-01-01T00:00:00Z"}}}}';
    const d = diagnoseJson(src).find((x) => x.code === 'time-range-order');
    expect(d?.fix?.edits.map((e) => e.newText)).toEqual(['"2025-01-01T00:00:00Z"', '"2025-02-01T00:00:00Z"']);
  });
});
