import { describe, expect, it } from 'vitest';
import { hasErrors } from '../src/diagnostics/diagnostic.js';
import { detectInput, formatText, irsToText, readInput, textToIr } from '../src/pipeline.js';
import { at, showRange } from './check/harness.js';
import { corpusIrs } from './ir-corpus.js';

const CARD = 'PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9';

describe('textToIr', () => {
  it('turns the card statement into its IR with a source map', () => {
    const r = textToIr(CARD);
    expect(r.diagnostics).toEqual([]);
    expect(r.irs).toEqual([
      { stage: 'STO', op: 'Promote', target: { search: { intent: { query: 'OKR progress' }, limit: 5 } }, args: { weight: 0.9 } },
    ]);
    expect(showRange(r.sourceMaps[0].get('args.weight'))).toBe(at(CARD, '0.9'));
    expect(r.script?.statements).toHaveLength(1);
  });

  it('still checks the statements a syntax error does not touch', () => {
    const src = 'PROMOTE ID "1" SET weight 1.5;\nLOCK ID "1" MODE = ;\nDELETE ALL';
    const r = textToIr(src);
    const codes = r.diagnostics.map((d) => d.code);
    expect(codes).toContain('out-of-range');
    expect(codes).toContain('all-requires-confirmation');
    expect(r.diagnostics.filter((d) => d.statement === 1 && d.code !== 'unexpected-token')).toEqual([]);
    expect(hasErrors(r.diagnostics)).toBe(true);
  });

  it('charges a misspelt verb to no statement, so the statement before it is still checked', () => {
    const src = 'EXPIRE ID "1" TTL P7D THEN soft_delet;\nRETRIVE ID "1";\n';
    const r = textToIr(src);
    expect(r.diagnostics.map((d) => [d.code, showRange(d.range)])).toEqual([
      ['invalid-enum', at(src, 'soft_delet')],
      ['unknown-verb', at(src, 'RETRIVE')],
    ]);
    const junk = 'EXPIRE ID "1" TTL P7X;\nfoo bar baz;\nDELETE ALL;';
    expect(textToIr(junk).diagnostics.map((d) => d.code)).toEqual(['invalid-duration', 'expected-statement', 'all-requires-confirmation']);
  });

  it('still spoils the statement an error falls in, even when recovery ended it early', () => {
    // The parser's statement ends before the bad word; the error is still inside it (no `;` yet).
    expect(textToIr('EXPIRE ID "1" TTL P7D TPYE note;').diagnostics.map((d) => d.code)).toEqual(['unknown-keyword']);
    expect(textToIr('PROMOTE WHERE').diagnostics.map((d) => d.code)).toEqual(['unexpected-end']);
  });

  it('checks both statements around a missing semicolon', () => {
    const src = 'DELETE ALL SOFT\nPROMOTE ID "1" SET weight 1.5';
    expect(textToIr(src).diagnostics.map((d) => d.code)).toEqual(['all-requires-confirmation', 'missing-semicolon', 'out-of-range']);
  });

  it('never throws on garbage', () => {
    for (const junk of ['', ';;;', '{{{', 'PROMOTE WHERE', '"unterminated', 'ENCODE "x" FACETS { a: [1, }', '\u0000\uffff']) {
      expect(() => textToIr(junk)).not.toThrow();
    }
    expect(textToIr('').diagnostics).toEqual([]);
  });
});

describe('detectInput and readInput', () => {
  it.each([
    [CARD, 'dsl'],
    ['# a comment\nRETRIEVE ALL CONFIRM', 'dsl'],
    ['{"stage":"RET","op":"Retrieve","target":{"all":true},"meta":{"confirmation":true}}', 'json-object'],
    ['{\n  "stage": "RET",\n  "op": "Retrieve"\n}', 'json-object'],
    ['[{"stage":"ENC","op":"Encode","args":{"payload":{"text":"x"}}}]', 'json-array'],
    ['{"stage":"ENC","op":"Encode","args":{"payload":{"text":"x"}}}\n{"stage":"ENC","op":"Encode","args":{"payload":{"text":"y"}}}\n', 'jsonl'],
  ])('detects %j as %s', (text, kind) => {
    expect(detectInput(text)).toBe(kind);
  });

  it('reads JSON with line:column diagnostics', () => {
    const text = '[\n  {"stage":"STO","op":"Promote","target":{"ids":"1"},"args":{"weight":1.5}}\n]';
    const r = readInput(text);
    expect(r.kind).toBe('json-array');
    expect(r.diagnostics.map((d) => [d.code, showRange(d.range)])).toEqual([['out-of-range', at(text, '1.5')]]);
  });

  it('reads JSONL and keeps going past a broken line', () => {
    const text = '{"stage":"ENC","op":"Encode","args":{"payload":{"text":"x"}}}\n{"stage":\n{"stage":"RET","op":"Retrieve","target":{"ids":"1"}}\n';
    const r = readInput(text);
    expect(r.kind).toBe('jsonl');
    expect(r.irs.map((ir) => ir.op)).toEqual(['Encode', 'Retrieve']);
    expect(r.diagnostics.every((d) => d.code === 'json-syntax' && d.range?.start.line === 2)).toBe(true);
  });

  it('reports a JSON syntax error with its position and returns no IR', () => {
    const r = readInput('{"stage": "STO", "op": }');
    expect(r.irs).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['json-syntax']);
  });
});

describe('irsToText and formatText', () => {
  it('formatText keeps number literals as written (an integer above 2^53 included)', () => {
    const src = 'ENCODE "big" SET n = 12345678901234567890, f = 1.50, e = 1E3;\n';
    expect(formatText(src).text).toBe(src);
    // The IR holds the values as JSON numbers, read by JavaScript: the limit spec/syntax.md §7 states.
    expect(textToIr(src).irs[0].args).toMatchObject({ n: 12345678901234567000, f: 1.5, e: 1000 });
  });

  it('prints IRs as canonical DSL that reads back to the same IRs (upstream corpus)', () => {
    const irs = corpusIrs().map((c) => c.ir) as any[];
    const text = irsToText(irs);
    const back = textToIr(text);
    expect(back.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(back.irs).toEqual(irs);
  });

  it('formats DSL idempotently and refuses to format broken text', () => {
    const once = formatText('promote   where search "OKR progress" limit 5 set weight 0.9');
    expect(once.diagnostics).toEqual([]);
    expect(formatText(once.text!).text).toBe(once.text);
    const broken = formatText('PROMOTE WHERE');
    expect(broken.text).toBeUndefined();
    expect(hasErrors(broken.diagnostics)).toBe(true);
  });
});
