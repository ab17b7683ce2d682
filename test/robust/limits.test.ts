/**
 * Issue 8, findings 9 and 10: hostile input sizes and shapes give diagnostics, never a crash, and
 * recovery from thousands of broken statements stays linear (counted as work, not timed).
 */
import { describe, expect, it } from 'vitest';
import { readJson, readJsonlRecords } from '../../src/ir/json.js';
import { validateIr } from '../../src/ir/validate.js';
import { MAX_NESTING } from '../../src/language/index.js';
import { formatText, readInput, textToIr } from '../../src/pipeline.js';
import { parse } from '../../src/syntax/index.js';
import { recoveryWork } from '../../src/syntax/recover.js';
import { run } from '../../src/engine/index.js';
import { freshStore, NOW } from '../engine/harness.js';

const codes = (ds: readonly { code: string }[]) => ds.map((d) => d.code);
const nested = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;

describe('nesting limit (too-deep)', () => {
  it('DSL nested 1,000 deep is too-deep at the bracket that passes the limit; the next statement is read', () => {
    const src = `ENCODE "x" FACETS { a: ${nested(1000)} };\nENCODE "y";`;
    const r = parse(src);
    expect(codes(r.diagnostics)).toEqual(['too-deep']);
    expect(r.diagnostics[0].range!.start.offset).toBe(src.indexOf('[') + MAX_NESTING - 1);
    expect(r.script.statements.map((s) => s.text?.value)).toEqual(['y']);
    expect(codes(textToIr(src).diagnostics)).toEqual(['too-deep']);
  });

  it('a dotted path of 50,000 segments is too-deep too, and the formatter does not overflow (found by probing WITH)', () => {
    const path = Array.from({ length: 50_000 }, (_, i) => `k${i}`).join('.');
    for (const src of [`ENCODE "x" WITH ${path} = 1;`, `UPDATE ID 1 SET ${path} = 1;`]) {
      expect(codes(parse(src).diagnostics)).toEqual(['too-deep']);
      expect(codes(formatText(src).diagnostics)).toEqual(['too-deep']);
    }
    expect(codes(textToIr(`ENCODE "x" WITH args.facets.${Array.from({ length: 60 }, (_, i) => `k${i}`).join('.')} = 1;`).diagnostics)).toEqual([]);
  });

  it('DSL up to the limit is read and printed', () => {
    const src = `ENCODE "x" FACETS { a: ${nested(MAX_NESTING - 1)} };`;
    expect(codes(textToIr(src).diagnostics)).toEqual([]);
    expect(codes(formatText(src).diagnostics ?? [])).toEqual([]);
  });

  it('JSON nested 5,000+ deep is too-deep with its location (document and JSONL line)', () => {
    const doc = `{"stage":"ENC","op":"Encode","args":{"payload":{"text":"x"},"facets":{"a":${nested(6000)}}}}`;
    const r = readJson(doc);
    expect(codes(r.diagnostics)).toEqual(['too-deep']);
    expect(r.diagnostics[0].range!.start.offset).toBe(doc.indexOf('[') + MAX_NESTING - 3);
    expect(codes(readInput(doc).diagnostics)).toEqual(['too-deep']);
    const lines = readJsonlRecords(`{"stage":"ENC","op":"Encode","args":{"payload":{"text":"ok"}}}\n${doc}\n`);
    expect(lines.map((l) => codes(l.diagnostics))).toEqual([[], ['too-deep']]);
    expect(lines[1].diagnostics[0].range!.start.line).toBe(2);
  });

  it('a deep value built in memory is too-deep for validateIr and run', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20000; i++) deep = [deep];
    const ir = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, facets: { deep } } };
    expect(codes(validateIr(ir).diagnostics)).toEqual(['too-deep']);
    const res = run(await freshStore(), [ir], { now: NOW });
    expect(res.ok).toBe(false);
    expect(codes(res.diagnostics)).toEqual(['too-deep']);
  });
});

describe('huge tokens', () => {
  it('an 8 MB string and a million \\u escapes lex without overflowing the stack', () => {
    expect(codes(parse(`ENCODE "${'a'.repeat(8_000_000)}";`).diagnostics)).toEqual([]);
    const escapes = parse(`ENCODE "${'\\u0041'.repeat(1_400_000)}";`);
    expect(codes(escapes.diagnostics)).toEqual([]);
    expect(codes(parse(`ENCODE "${'\\q'.repeat(1_000_000)}";`).diagnostics)).toEqual(['invalid-escape']);
    expect(codes(parse(`ENCODE "${'a\\n'.repeat(1_000_000)}`).diagnostics)).toEqual(['unterminated-string']);
  });

  it('an 8 MB bare word is one diagnostic (no keyword suggestion is measured against it)', () => {
    expect(codes(parse(`ENCODE ${'a'.repeat(8_000_000)}`).diagnostics)).toEqual(['unexpected-token']);
  });
});

describe('recovery stays linear', () => {
  const missingSemicolons = (n: number) => Array.from({ length: n }, (_, i) => `ENCODE "m${i}" TAGS "a"`).join('\n');
  const unterminated = (n: number) => Array.from({ length: n }, (_, i) => `ENCODE "m${i}`).join('\n');

  it.each([['missing ;', missingSemicolons], ['unterminated strings', unterminated]] as const)('%s: tokens handed to the parser grow linearly with the statements', (_, make) => {
    const work = (n: number) => {
      recoveryWork.tokensFed = 0;
      recoveryWork.parses = 0;
      const r = parse(make(n));
      expect(r.script.statements).toHaveLength(n);
      return { tokens: recoveryWork.tokensFed, parses: recoveryWork.parses };
    };
    const small = work(2000);
    const large = work(8000);
    // Four times the statements: four times the work (it was sixteen times before the windows).
    expect(large.tokens / small.tokens).toBeLessThan(4.2);
    expect(large.parses / small.parses).toBeLessThan(4.2);
    // Each statement is parsed about once.
    expect(large.parses).toBeLessThan(8000 * 1.1);
  });

  it('a statement longer than the first window is parsed whole, as before', () => {
    const tags = Array.from({ length: 300 }, (_, i) => `"t${i}"`).join(', ');
    const r = textToIr(`ENCODE "x" TAGS ${tags}\nENCODE "y" TAGS ${tags};`);
    expect(codes(r.diagnostics)).toEqual(['missing-semicolon']);
    expect(r.irs.map((ir: any) => ir.args.tags.length)).toEqual([300, 300]);
  });
});

describe('values past what a date can hold', () => {
  it('a relative range or TTL reaching past ±275,000 years is out-of-range, not a thrown RangeError (found by npm run fuzz)', async () => {
    const store = await freshStore();
    const r = run(store, [{ stage: 'RET', op: 'Summarize', target: { filter: { time_range: { relative: 'last', amount: 200_000_000, unit: 'days' } } }, args: { max_tokens: 150 } }], { now: NOW });
    expect(r.diagnostics).toMatchObject([{ code: 'out-of-range', path: 'target.filter.time_range.amount' }]);
    const e = run(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, ttl: 'P999999999D' } }], { now: NOW });
    expect(codes(e.diagnostics)).toContain('out-of-range');
  });
});
