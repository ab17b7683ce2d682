/**
 * Issue 8, findings 9 and 11: user keys named like Object.prototype members are data everywhere
 * (DSL, JSON IR, lowering, the store) and round-trip; text is kept exactly as written or refused
 * with a diagnostic (lone surrogates, a leading U+FEFF, blank tags), never changed silently.
 */
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { readJson } from '../../src/ir/json.js';
import { validateIr } from '../../src/ir/validate.js';
import { irsToText, readInput, textToIr } from '../../src/pipeline.js';
import { encode, freshStore, NOW, op, rows, runOk } from '../engine/harness.js';

const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
const codes = (ds: readonly { code: string }[]) => ds.map((d) => d.code);

describe('prototype-named keys are data', () => {
  it.each(PROTO_KEYS)('%s as a facet key, an arg and a payload key: validated, stored, read back, round-tripped', async (key) => {
    const json = `{"stage":"ENC","op":"Encode","args":{"payload":{"text":"x","${key}":1},"facets":{"${key}":{"a":1},"b":2},"${key}":3}}`;
    const read = readJson(json);
    const ir = read.items[0].value as any;
    expect(Object.hasOwn(ir.args.facets, key)).toBe(true);
    const input = readInput(json);
    expect(input.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // IR → DSL → IR keeps the key as an own property.
    const back = textToIr(irsToText(input.irs));
    // `valueOf` is one letter from Encode's `value` (experience memory): a near miss, warned, still kept as written.
    expect(codes(back.diagnostics)).toEqual(key === 'valueOf' ? ['unknown-field'] : []);
    expect(back.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
    expect(JSON.stringify(back.irs[0])).toBe(JSON.stringify(ir));
    // Stored and read back: an arg that is no column is a facet, and explicit facets win.
    const store = await freshStore();
    runOk(store, input.irs);
    const facets = JSON.parse(rows(store)[0].facets);
    expect(Object.hasOwn(facets, key)).toBe(true);
    expect(facets[key]).toEqual({ a: 1 });
    expect(facets.b).toBe(2);
  });

  it.each(PROTO_KEYS)('%s in every object of a DSL statement and in UPDATE/LABEL facets', async (key) => {
    const store = await freshStore();
    const t = textToIr(`ENCODE "x" FACETS { ${key}: "a", n: { ${key}: 1 } }; UPDATE ID 1 SET ${key} = "u"; LABEL ID 1 FACETS { ${key}: "l" };`);
    expect(codes(t.diagnostics)).toEqual([]);
    runOk(store, t.irs);
    const facets = JSON.parse(rows(store)[0].facets);
    expect(facets[key]).toBe('l');
    expect(facets.n).toEqual(JSON.parse(`{"${key}":1}`));
  });

  it('a prototype-named key where the IR is closed is an unknown field, not a crash', () => {
    for (const key of PROTO_KEYS) {
      const v = validateIr(JSON.parse(`{"stage":"RET","op":"Retrieve","target":{"ids":"1","${key}":1},"meta":{"${key}":2},"${key}":3}`));
      expect(v.diagnostics.length).toBeGreaterThan(0);
      expect(v.diagnostics.every((d) => typeof d.message === 'string')).toBe(true);
    }
  });

  it('non-string time bounds and lock expiries are diagnostics', async () => {
    const store = await freshStore();
    for (const ir of [
      op('Retrieve', { ids: '1', time_from: 5, time_to: {} }),
      op('Lock', { ids: '1' }, { mode: 'read_only', lock_expires: 7 }),
      encode('x', { lock_mode: 'read_only', lock_expires: [] }),
    ]) {
      const r = run(store, [ir], { now: NOW });
      expect(r.diagnostics.every((d) => typeof d.code === 'string')).toBe(true);
    }
  });
});

describe('text fidelity', () => {
  it('a lone surrogate is refused with invalid-text at the string (escaped or raw)', () => {
    for (const src of ['ENCODE "a\\ud800b";', 'ENCODE "a\ud800b";', 'ENCODE "x" TAGS "\\udc00";', 'ENCODE "x" FACETS { "k\\ud800": 1 };']) {
      const t = textToIr(src);
      const d = t.diagnostics.find((x) => x.code === 'invalid-text');
      expect(d, src).toBeDefined();
      expect(d!.severity).toBe('error');
      expect(d!.range!.start.offset).toBeGreaterThan(6);
      expect(t.irs).toEqual([]);
    }
    // A proper pair is fine, and comes back as written.
    expect(codes(textToIr('ENCODE "\\ud83d\\ude00 🙂";').diagnostics)).toEqual([]);
  });

  it('the engine refuses a lone surrogate in an IR built in memory', async () => {
    const r = run(await freshStore(), [encode('a\udfffb')], { now: NOW });
    expect(r.ok).toBe(false);
    expect(codes(r.diagnostics)).toEqual(['invalid-text']);
  });

  it('U+FEFF: kept inside text, refused at the start of a stored string (the store would drop it)', async () => {
    const store = await freshStore();
    runOk(store, [encode('a\ufeffb')]);
    expect(rows(store)[0].text).toBe('a\ufeffb');
    const r = run(store, [encode('\ufeffab')], { now: NOW });
    expect(r.ok).toBe(false);
    expect(r.diagnostics[0]).toMatchObject({ code: 'invalid-text', path: 'args.payload.text' });
  });

  it('stored tags and permission lists keep what was written; blank entries are refused', async () => {
    const store = await freshStore();
    runOk(store, [encode('x', { tags: [' a ', 'b', 'b'], read_whitelist: [' alice '] })]);
    expect(JSON.parse(rows(store)[0].tags)).toEqual([' a ', 'b']);
    expect(JSON.parse(rows(store)[0].read_whitelist)).toEqual([' alice ']);
    runOk(store, [op('Label', { ids: '1' }, { tags: [' c '] })]);
    expect(JSON.parse(rows(store)[0].tags)).toEqual([' a ', 'b', ' c ']);
    // The filter compares exactly: the padded tag is found by its padded spelling.
    const found = runOk(store, [op('Retrieve', { filter: { has_tags: [' a '] } })]);
    expect(found.results[0].ids).toEqual([1]);
    for (const ir of [encode('y', { tags: ['ok', ''] }), op('Label', { ids: '1' }, { tags: ['  '] }), op('Update', { ids: '1' }, { set: { tags: [''] } }), encode('z', { write_whitelist: [''] })]) {
      const r = run(store, [ir], { now: NOW });
      expect(r.ok, JSON.stringify(ir)).toBe(false);
      expect(codes(r.diagnostics)).toContain('empty-value');
    }
    const d = textToIr('ENCODE "x" TAGS "a", "";');
    const r = run(store, d.irs, { now: NOW, sourceMaps: d.sourceMaps });
    expect(r.diagnostics[0]).toMatchObject({ code: 'empty-value', path: 'args.tags.1' });
    expect(r.diagnostics[0].range!.start.column).toBe(22);
  });
});

describe('values JSON does not have', () => {
  it('NaN, ±Infinity and bigints in an IR built in memory are refused, not stored as null (found by npm run fuzz)', async () => {
    for (const bad of [Number.NEGATIVE_INFINITY, Number.NaN, 10n]) {
      const ir = encode('x', { facets: { n: bad } });
      expect(codes(validateIr(ir).diagnostics)).toEqual(['invalid-value']);
      const r = run(await freshStore(), [ir], { now: NOW });
      expect(r.ok).toBe(false);
    }
    const proto = encode('x');
    Object.defineProperty(proto.args as object, '__proto__', { value: Number.NEGATIVE_INFINITY, enumerable: true });
    expect(validateIr(proto).diagnostics[0]).toMatchObject({ code: 'invalid-value', path: 'args.__proto__' });
  });
});
