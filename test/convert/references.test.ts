/**
 * Statement references (`LET $n = …`, `$n`): the IR extension (`_let`, `{"$ref": "n"}`) round-trips
 * both ways, no upstream IR uses it, the schema takes it only where documented, and the checker
 * reports references out of scope with exact spans.
 */
import { describe, expect, it } from 'vitest';
import { corpusIrs } from '../ir-corpus.js';
import { parse } from '../../src/syntax/index.js';
import { astToIr, irsToScript } from '../../src/convert/index.js';
import { print } from '../../src/convert/index.js';
import { textToIr } from '../../src/pipeline.js';
import { validateIr } from '../../src/ir/validate.js';
import type { IR } from '../../src/ir/schema.js';

const SCRIPT = [
  'LET $n = ENCODE "Sprint plan. Ship filters." TAGS "sprint";',
  'EXPIRE ID $n TTL P7D;',
  'LET $parts = SPLIT ID $n STRATEGY by_sentences;',
  'LABEL IDS $parts, "7" TAGS "piece";',
  'LET $m = MERGE IDS $parts INTO $n;',
  'LET $found = RETRIEVE IDS [$m] INCLUDE id;',
  '',
].join('\n');

function toIr(text: string): unknown[] {
  const parsed = parse(text);
  const converted = astToIr(parsed.script);
  expect([...parsed.diagnostics, ...converted.diagnostics]).toEqual([]);
  return converted.irs;
}

function usesExtension(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(usesExtension);
  if (v === null || typeof v !== 'object') return false;
  return Object.entries(v).some(([k, x]) => k === '_let' || k === '$ref' || usesExtension(x));
}

describe('the IR extension', () => {
  it('writes LET as _let and $n as {"$ref": "n"} in target.ids and args.primary_id', () => {
    const irs = toIr(SCRIPT);
    expect(irs[0]).toEqual({ stage: 'ENC', op: 'Encode', args: { payload: { text: 'Sprint plan. Ship filters.' }, tags: ['sprint'] }, _let: 'n' });
    expect(irs[1]).toEqual({ stage: 'STO', op: 'Expire', target: { ids: { $ref: 'n' } }, args: { ttl: 'P7D' } });
    expect(irs[3]).toMatchObject({ target: { ids: [{ $ref: 'parts' }, '7'] } });
    expect(irs[4]).toEqual({ stage: 'STO', op: 'Merge', target: { ids: [{ $ref: 'parts' }] }, args: { primary_id: { $ref: 'n' } }, _let: 'm' });
    for (const ir of irs) expect(validateIr(ir).diagnostics).toEqual([]);
  });

  it('round-trips DSL → IR → DSL and IR → DSL → IR', () => {
    const irs = toIr(SCRIPT);
    const printed = print(irsToScript(irs as IR[]));
    expect(printed).toBe(SCRIPT.replace('IDS [$m]', 'IDS $m'));
    expect(print(parse(SCRIPT).script)).toBe(printed);
    expect(toIr(printed)).toStrictEqual(irs);
  });

  it('writes a reference object where refs do not go as plain JSON, which reads back the same', () => {
    const ir = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'x', parent: { $ref: 'n' } } } } as unknown as IR;
    const printed = print(irsToScript([ir]));
    expect(printed).toBe('ENCODE "x" PAYLOAD { parent: { "$ref": "n" } };\n');
    expect(toIr(printed)).toStrictEqual([ir]);
    // A malformed binding name is not a LET: it stays a WITH.
    const odd = { stage: 'ENC', op: 'Encode', _let: 'not a name' } as unknown as IR;
    expect(print(irsToScript([odd]))).toBe('ENCODE WITH _let = "not a name";\n');
  });

  it('is used by no upstream IR, so the upstream round trip cannot change', () => {
    const used = corpusIrs().filter(({ ir }) => usesExtension(ir)).map(({ where }) => where);
    expect(used).toEqual([]);
  });

  it('is accepted by the schema only where documented', () => {
    const ok = { stage: 'STO', op: 'Merge', target: { ids: [{ $ref: 'a' }, '2'] }, args: { primary_id: { $ref: 'a' } }, _let: 'b' };
    expect(validateIr(ok).diagnostics).toEqual([]);
    const bad = (ir: unknown) => validateIr(ir).diagnostics.map((d) => d.code);
    expect(bad({ stage: 'STO', op: 'Delete', target: { ids: { $ref: 'a b' } } })).not.toEqual([]);
    expect(bad({ stage: 'STO', op: 'Delete', target: { ids: [{ $ref: 'a', x: 1 }] } })).not.toEqual([]);
    expect(bad({ stage: 'STO', op: 'Delete', target: { ids: '1' }, _let: 5 })).not.toEqual([]);
    expect(bad({ stage: 'STO', op: 'Delete', target: { ids: '1' }, meta: { let: 'a' } })).not.toEqual([]);
  });
});

describe('the checker on references', () => {
  const diags = (text: string) => textToIr(text).diagnostics.map((d) => ({ code: d.code, statement: d.statement, at: d.range && `${d.range.start.line}:${d.range.start.column}-${d.range.end.line}:${d.range.end.column}` }));

  it('accepts a well-scoped script', () => {
    expect(diags(SCRIPT)).toEqual([]);
  });

  it('reports an undefined name at the reference, with the closest bound name', () => {
    const r = textToIr('LET $note = ENCODE "a";\nEXPIRE ID $note2 TTL P7D;');
    expect(diags('LET $note = ENCODE "a";\nEXPIRE ID $note2 TTL P7D;')).toEqual([{ code: 'ref-undefined', statement: 1, at: '2:11-2:17' }]);
    expect(r.diagnostics[0].message).toContain('did you mean $note?');
  });

  it('reports use before binding, and a statement referring to its own binding', () => {
    expect(diags('EXPIRE IDS "1", $n TTL P7D;\nLET $n = ENCODE "a";')).toEqual([{ code: 'ref-before-let', statement: 0, at: '1:17-1:19' }]);
    expect(diags('LET $n = DELETE ID $n;')).toEqual([{ code: 'ref-before-let', statement: 0, at: '1:20-1:22' }]);
  });

  it('reports a name bound twice at the second binding', () => {
    expect(diags('LET $n = ENCODE "a";\nLET $n = ENCODE "b";')).toEqual([{ code: 'let-duplicate', statement: 1, at: '2:5-2:7' }]);
  });

  it('reports LET on a statement whose result is not ids', () => {
    expect(diags('LET $s = SUMMARIZE IDS "1", "2";')).toEqual([{ code: 'let-not-ids', statement: 0, at: '1:5-1:7' }]);
    expect(diags('LET $d = DELETE ID "1" DRY RUN;')).toEqual([{ code: 'let-not-ids', statement: 0, at: '1:5-1:7' }]);
  });

  it('reports a reference where ids do not go', () => {
    expect(diags('LET $n = ENCODE "a";\nENCODE "b" PAYLOAD { parent: $n };')).toEqual([{ code: 'ref-misplaced', statement: 1, at: '2:30-2:32' }]);
    expect(diags('LET $n = ENCODE "a";\nLABEL ID "1" INTO $n TAGS "x";').map((d) => d.code)).toEqual(['clause-not-allowed']);
  });

  it('a script may start a statement with LET after a broken one', () => {
    const r = textToIr('ENCODE "a" TYPO;\nLET $n = ENCODE "b";\nEXPIRE ID $n TTL P1D;');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unknown-keyword']);
  });
});
