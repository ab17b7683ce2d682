import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/diagnostics/position.js';
import { readJson, readJsonl, readJsonlRecords } from '../../src/ir/json.js';
import { validateIr } from '../../src/ir/validate.js';
import { at, showRange } from '../check/harness.js';

/** Validate one JSON IR text with positions. */
function validateText(text: string) {
  const read = readJson(text);
  expect(read.diagnostics).toEqual([]);
  const [item] = read.items;
  return validateIr(item.value, item.sourceMap, 0);
}

const summary = (text: string) =>
  validateText(text).diagnostics.map((d) => ({ code: d.code, severity: d.severity, range: showRange(d.range), fix: d.fix?.edits[0]?.newText }));

describe('validateIr', () => {
  it('returns the typed IR, keeping unknown keys', () => {
    const ir = { stage: 'ENC', op: 'Encode', args: { payload: { text: 't', knowledge_type: 'k' }, facets: { launch: '2025' } } };
    expect(validateIr(ir)).toEqual({ ir, diagnostics: [] });
  });

  it('suggests the verb a misspelt op meant, with a fix keeping the quotes', () => {
    const src = '{"stage":"STO","op":"Promot","target":{"ids":"1"}}';
    expect(summary(src)).toEqual([{ code: 'unknown-op', severity: 'error', range: at(src, '"Promot"'), fix: '"Promote"' }]);
    expect(validateText(src).ir).toBeUndefined();
    expect(validateText(src).diagnostics[0].message).toContain("did you mean 'Promote'?");
  });

  it('accepts an op in the wrong case only as a suggestion', () => {
    const d = validateIr({ stage: 'STO', op: 'promote', target: { ids: '1' } }).diagnostics;
    expect(d.map((x) => [x.code, x.path, x.message])).toEqual([['unknown-op', 'op', "unknown op 'promote'; did you mean 'Promote'?"]]);
  });

  it('reports a missing op and a non-object instruction', () => {
    expect(validateIr({ stage: 'STO' }).diagnostics.map((d) => d.code)).toEqual(['missing-field']);
    expect(validateIr([1]).diagnostics.map((d) => d.code)).toEqual(['invalid-type']);
    expect(validateIr({ stage: 'STO', op: 7 }).diagnostics.map((d) => d.code)).toEqual(['invalid-type']);
  });

  it('names the expected and received type', () => {
    const src = '{"stage":"STO","op":"Promote","target":{"ids":"1"},"args":{"weight":"high"}}';
    expect(summary(src)).toEqual([{ code: 'invalid-type', severity: 'error', range: at(src, '"high"'), fix: undefined }]);
    expect(validateText(src).diagnostics[0].message).toBe(`'args.weight' must be a number, got the string "high"`);
  });

  it('reports a non-integer limit', () => {
    const d = validateIr({ stage: 'RET', op: 'Retrieve', target: { filter: { limit: 2.5 } } }).diagnostics;
    expect(d.map((x) => [x.code, x.path])).toEqual([['invalid-type', 'target.filter.limit']]);
    expect(d[0].message).toMatch(/integer/);
  });

  it('suggests an enum value', () => {
    const src = '{"stage":"STO","op":"Lock","target":{"ids":"1"},"args":{"mode":"readonly"}}';
    expect(summary(src)).toEqual([{ code: 'invalid-enum', severity: 'error', range: at(src, '"readonly"'), fix: '"read_only"' }]);
    const stage = '{"stage":"STX","op":"Lock","target":{"ids":"1"}}';
    expect(summary(stage)).toEqual([{ code: 'stage-inferred', severity: 'warning', range: at(stage, '"STX"'), fix: '"STO"' }]);
  });

  it('suggests an op inside a lock policy list', () => {
    const src = '{"stage":"STO","op":"Lock","target":{"ids":"1"},"args":{"policy":{"allow":["Retrive"]}}}';
    expect(summary(src)).toEqual([{ code: 'invalid-enum', severity: 'error', range: at(src, '"Retrive"'), fix: '"Retrieve"' }]);
  });

  it('follows the alternative of a union that got furthest', () => {
    const src = '{"stage":"STO","op":"Delete","target":{"ids":["1",true]}}';
    expect(summary(src)).toEqual([{ code: 'invalid-type', severity: 'error', range: at(src, 'true'), fix: undefined }]);
    const obj = '{"stage":"STO","op":"Delete","target":{"ids":{"a":1}}}';
    expect(summary(obj)).toEqual([{ code: 'invalid-type', severity: 'error', range: at(obj, '{"a":1}'), fix: undefined }]);
  });

  it('rejects unknown keys where the IR is strict, suggesting the near one', () => {
    const src = '{"stage":"STO","op":"Delete","target":{"ids":"1"},"meta":{"actr":"me"},"argz":{}}';
    expect(summary(src)).toEqual([
      { code: 'unknown-field', severity: 'error', range: at(src, '"actr"'), fix: '"actor"' },
      { code: 'unknown-field', severity: 'error', range: at(src, '"argz"'), fix: '"args"' },
    ]);
  });

  it('warns about near misses of known fields in loose objects, and allows other extra keys', () => {
    const src = '{"stage":"STO","op":"Promote","target":{"ids":"1"},"args":{"weigth":0.9,"weight":0.5,"note":"x"}}';
    expect(summary(src)).toEqual([{ code: 'unknown-field', severity: 'warning', range: at(src, '"weigth"'), fix: '"weight"' }]);
    expect(validateText(src).ir).toBeDefined();
  });

  it('reports a missing required nested field at its parent', () => {
    const src = '{"stage":"RET","op":"Retrieve","target":{"search":{"limit":3}}}';
    expect(summary(src)).toEqual([{ code: 'missing-field', severity: 'error', range: at(src, '{"limit":3}'), fix: undefined }]);
  });

  it('gives no fix when the source map has no exact span (in-memory IR)', () => {
    const [d] = validateIr({ stage: 'STO', op: 'Promot' }).diagnostics;
    expect(d.fix).toBeUndefined();
    expect(d.range).toBeUndefined();
  });
});

describe('JSON readers', () => {
  it('reads an array with per-item source maps and lines', () => {
    const text = '[\n  {"stage":"ENC","op":"Encode"},\n  {"stage":"RET","op":"Retrieve"}\n]';
    const r = readJson(text);
    expect(r.layout).toBe('array');
    expect(r.items.map((i) => i.line)).toEqual([2, 3]);
    expect(showRange(r.items[1].sourceMap.get('op'))).toBe('3:23-3:33');
    expect(showRange(r.items[1].sourceMap.get('op#key'))).toBe('3:18-3:22');
  });

  it('reads a plan object {"schema_list": [...]} as its list (the planner\'s IR answer, the benchmark\'s plans)', () => {
    const text = '{"schema_list": [\n  {"stage":"ENC","op":"Encode"},\n  {"stage":"RET","op":"Retrieve"}\n]}';
    const r = readJson(text);
    expect(r.layout).toBe('array');
    expect(r.records).toBe(2);
    expect(r.items.map((i) => (i.value as { op: string }).op)).toEqual(['Encode', 'Retrieve']);
    expect(showRange(r.items[1].sourceMap.get('op'))).toBe('3:23-3:33');
    // An instruction that happens to carry a schema_list key stays one instruction.
    expect(readJson('{"op":"Encode","schema_list":[]}').layout).toBe('object');
  });

  it('reports JSON syntax errors with positions', () => {
    const r = readJson('{"stage": "STO",\n "op": }');
    expect(r.items).toEqual([]);
    expect(r.diagnostics.map((d) => [d.code, showRange(d.range)])).toEqual([['json-syntax', '2:8-2:9']]);
  });

  it('reads JSONL line by line; a broken line does not stop the others', () => {
    const text = '{"stage":"ENC","op":"Encode"}\n{"stage": \n\n{"stage":"RET","op":"Retrieve"}\n';
    const records = readJsonlRecords(text);
    expect(records.map((r) => [r.line, !!r.item, r.diagnostics.map((d) => d.code)])).toEqual([
      [1, true, []],
      [2, false, ['json-syntax']],
      [4, true, []],
    ]);
    expect(showRange(records[2].item!.sourceMap.get('op'))).toBe('4:21-4:31');
    const batch = readJsonl(text);
    expect(batch.items.length).toBe(2);
    expect(batch.diagnostics.length).toBe(1);
  });

  it('gives a truncated line one json-syntax diagnostic, not one per brace left open', () => {
    const text = '{"stage":"STO","op":"Delete","target":{"ids":\n{"stage":"RET","op":"Retrieve","target":{"ids":"1"}}\n';
    const [broken, ok] = readJsonlRecords(text);
    expect(broken.diagnostics.map((d) => [d.code, d.message, showRange(d.range)])).toEqual([['json-syntax', 'invalid JSON: value expected', '1:46-2:1']]);
    expect(ok.item).toBeDefined();
    expect(readJson('{"stage":"STO","op":"Delete","target":{"ids":').diagnostics).toHaveLength(1);
  });

  it('keeps __proto__ keys as plain data', () => {
    const r = readJson('{"stage":"ENC","op":"Encode","args":{"facets":{"__proto__":{"x":1}}}}');
    const facets = (r.items[0].value as any).args.facets;
    expect(Object.keys(facets)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(facets)).toBe(Object.prototype);
  });

  it('maps offsets to 1-based lines and columns', () => {
    const lines = new LineIndex('ab\ncd\r\nef');
    expect(lines.position(4)).toEqual({ line: 2, column: 2, offset: 4 });
    expect(lines.lineText(2)).toBe('cd');
    expect(lines.position(99)).toEqual({ line: 3, column: 3, offset: 9 });
  });
});
