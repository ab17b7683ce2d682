/**
 * One word, several meanings (issue 11 item 2): a value that belongs to another verb's use of the
 * same clause names that verb; PROMOTE's UNTIL without REMIND points at EXPIRE's; a condition on an
 * invented field offers the facets rewrite.
 */
import { describe, expect, it } from 'vitest';
import { readInput, textToIr } from '../../src/pipeline.js';

const diags = (text: string) => textToIr(text).diagnostics.map((d) => `${d.code}: ${d.message}`);

describe('checker wording where one word means several things', () => {
  it('MODE add in LOCK is LABEL\'s', () => {
    expect(diags('LOCK ID "1" MODE add;')).toEqual(["invalid-enum: 'add' is LABEL's MODE (args.mode), not LOCK's: LOCK takes read_only, append_only"]);
    expect(diags('LABEL ID "1" TAGS "a" MODE read_only;')).toEqual(["invalid-enum: 'read_only' is LOCK's MODE (args.mode), not LABEL's: LABEL takes add, replace, remove"]);
  });
  it('STRATEGY by_sentences in MERGE is SPLIT\'s', () => {
    expect(diags('MERGE IDS "1", "2" STRATEGY by_sentences;')).toEqual(["invalid-enum: 'by_sentences' is SPLIT's STRATEGY (args.strategy), not MERGE's: MERGE takes merge_into_primary"]);
  });
  it('IR input names the ops and paths', () => {
    const r = readInput('{"stage": "STO", "op": "Lock", "target": {"ids": "1"}, "args": {"mode": "add"}}');
    expect(r.diagnostics.map((d) => d.message)).toEqual(["'add' is Label's 'args.mode', not Lock's: Lock takes read_only, append_only"]);
  });
  it('a near miss keeps its did-you-mean fix', () => {
    const [d] = textToIr('LOCK ID "1" MODE readonly;').diagnostics;
    expect(d.message).toBe("'readonly' is not a valid MODE (args.mode); did you mean 'read_only'?");
    expect(d.fix).toBeDefined();
  });
  it("PROMOTE's UNTIL without REMIND points at EXPIRE … UNTIL", () => {
    expect(diags('PROMOTE ID "1" UNTIL 2025-12-31T00:00:00Z;')).toEqual([
      'missing-field: UNTIL in PROMOTE ends a reminder, which needs its rule: REMIND "FREQ=WEEKLY;BYDAY=MO" UNTIL t. To make memories expire at a time, write EXPIRE … UNTIL t',
    ]);
  });
  it('status = "x" on a write is refused with the facets rewrite as a fix', () => {
    const [d] = textToIr('DELETE WHERE status = "x" LIMIT 5 SOFT;').diagnostics;
    expect(d.code).toBe('unknown-condition');
    expect(d.message).toContain('facets = { status: … }');
    expect(d.fix?.edits.map((e) => e.newText)).toEqual(['facets = { status: ', ' }']);
  });
});
