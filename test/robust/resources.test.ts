/**
 * Issue 8, finding 13: configurable limits with clear errors, RETRIEVE capped with a `truncated`
 * warning, the audit log storing a long text once (undo and auditLog unchanged), and the CLI's
 * input reading (size limit, strict UTF-8).
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditLog, DEFAULT_LIMITS, run, undo } from '../../src/engine/index.js';
import { files, t2m } from '../cli/run-cli.js';
import { encode, freshStore, NOW, op, rows, runOk } from '../engine/harness.js';

const codes = (ds: readonly { code: string }[]) => ds.map((d) => d.code);

describe('engine limits', () => {
  it('too many statements: limit-exceeded, nothing runs', async () => {
    const store = await freshStore();
    const r = run(store, [encode('a'), encode('b'), encode('c')], { now: NOW, limits: { maxStatements: 2 } });
    expect(r.ok).toBe(false);
    expect(codes(r.diagnostics)).toEqual(['limit-exceeded']);
    expect(rows(store)).toEqual([]);
  });

  it('a text over maxTextLength: limit-exceeded at its path and statement', async () => {
    const r = run(await freshStore(), [encode('short'), encode('x'.repeat(101))], { now: NOW, limits: { maxTextLength: 100 } });
    expect(r.ok).toBe(false);
    expect(r.diagnostics).toMatchObject([{ code: 'limit-exceeded', path: 'args.payload.text', statement: 1 }]);
  });

  it('RETRIEVE returns at most maxRows rows, with a truncated warning; LIMIT under the cap is untouched', async () => {
    const store = await freshStore();
    runOk(store, Array.from({ length: 30 }, (_, i) => encode(`m${i}`, { tags: ['t'] })));
    const all = run(store, [op('Retrieve', { all: true }, {}, { confirmation: true })], { now: NOW, limits: { maxRows: 10 } });
    expect(all.results[0].rows).toHaveLength(10);
    expect(codes(all.diagnostics)).toEqual(['truncated']);
    // The store was asked for one row more than the cap, not for all 30.
    expect(all.results[0].sql[0].sql).toMatch(/LIMIT/);
    const limited = run(store, [op('Retrieve', { filter: { has_tags: ['t'], limit: 5 } })], { now: NOW, limits: { maxRows: 10 } });
    expect(limited.results[0].rows).toHaveLength(5);
    expect(codes(limited.diagnostics)).toEqual([]);
    const search = run(store, [op('Retrieve', { search: { intent: { query: 't' }, overrides: { k: 20 } } })], { now: NOW, limits: { maxRows: 3 } });
    expect(search.results[0].rows).toHaveLength(3);
    expect(codes(search.diagnostics)).toEqual(['truncated']);
    expect(DEFAULT_LIMITS.maxRows).toBe(10_000);
  });

  it('the audit log stores a long text once; auditLog gives the IR back whole; undo works', async () => {
    const store = await freshStore();
    const big = '长'.repeat(5000) + 'x'.repeat(100_000);
    runOk(store, [encode(big, { facets: { __proto__: 1 } as never }), op('Update', { ids: '1' }, { set: { text: `${big}!` } }), op('Delete', { ids: '1' })]);
    const stored = rows(store, 'SELECT id, ir, before, after FROM audit_log ORDER BY id');
    // Encode: the text is in the after image only; Update: the new text likewise.
    expect(stored[0].ir.length).toBeLessThan(1000);
    expect(stored[0].after.length).toBeGreaterThan(big.length);
    expect(stored[1].ir.length).toBeLessThan(1000);
    const log = auditLog(store);
    expect((log[0].ir as any).args.payload.text).toBe(big);
    expect((log[1].ir as any).args.set.text).toBe(`${big}!`);
    expect(Object.hasOwn(log[0].ir as object, '$refs')).toBe(false);
    const u = undo(store, log[2].id, { now: NOW });
    expect(u.ok).toBe(true);
    expect(rows(store)[0]).toMatchObject({ deleted: 0, text: `${big}!` });
  });
});

describe('CLI input and limit flags', () => {
  it('invalid UTF-8 (a CESU-8 lone surrogate) is refused with its line and column, exit 2', () => {
    const f = files({ 'a.t2m': '' });
    writeFileSync(f['a.t2m'], Buffer.concat([Buffer.from('ENCODE "ok";\nENCODE "a'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('b";\n')]));
    const r = t2m(['check', f['a.t2m']]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/a\.t2m:2:10: error invalid-text: not valid UTF-8 \(byte 0xED/);
  });

  it('a leading byte order mark is the encoding signature: a JSON file with one reads', () => {
    const f = files({ 'a.json': '\ufeff{"stage":"ENC","op":"Encode","args":{"payload":{"text":"x"}}}' });
    const r = t2m(['check', f['a.json']]);
    expect(r.status, r.stderr).toBe(0);
  });

  it('prototype-named keys through t2m convert and t2m run: no stack trace, kept as data', () => {
    const f = files({ 'a.json': '{"stage":"ENC","op":"Encode","args":{"payload":{"text":"x"},"facets":{"__proto__":{"a":1},"constructor":2,"toString":"s"}},"__proto__":1}\n' });
    const dsl = t2m(['convert', f['a.json'], '--to', 'dsl']);
    expect(dsl.stderr).not.toMatch(/TypeError|at .*\.ts/);
    const ok = files({ 'b.json': '{"stage":"ENC","op":"Encode","args":{"payload":{"text":"x"},"facets":{"__proto__":{"a":1},"constructor":2,"hasOwnProperty":"s"}}}\n' });
    const out = t2m(['convert', ok['b.json'], '--to', 'dsl']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/FACETS \{ __proto__: \{ a: 1 \}, constructor: 2, hasOwnProperty: "s" \}/);
    const back = t2m(['convert', '-', '--to', 'json'], out.stdout);
    expect(JSON.stringify(JSON.parse(back.stdout))).toBe(JSON.stringify(JSON.parse('[{"stage":"ENC","op":"Encode","args":{"payload":{"text":"x"},"facets":{"__proto__":{"a":1},"constructor":2,"hasOwnProperty":"s"}}}]')));
    const run = t2m(['run', ok['b.json'], '--now', NOW]);
    expect(run.status, run.stderr).toBe(0);
  });

  it('t2m run --max-statements, --max-rows and --max-input', () => {
    const f = files({ 'a.t2m': 'ENCODE "a";\nENCODE "b";\nRETRIEVE ALL CONFIRM;\n' });
    const over = t2m(['run', f['a.t2m'], '--now', NOW, '--max-statements', '2']);
    expect(over.status).toBe(1);
    expect(over.stderr).toMatch(/limit-exceeded/);
    const capped = t2m(['run', f['a.t2m'], '--now', NOW, '--max-rows', '1', '--json']);
    expect(capped.status, capped.stderr).toBe(0);
    const out = JSON.parse(capped.stdout);
    expect(out.results[2].rows).toHaveLength(1);
    expect(out.diagnostics.map((d: { code: string }) => d.code)).toContain('truncated');
    const big = t2m(['run', f['a.t2m'], '--max-input', '10']);
    expect(big.status).toBe(2);
    expect(big.stderr).toMatch(/over the limit of 10 \(--max-input\)/);
    expect(t2m(['run', f['a.t2m'], '--max-rows', '0']).status).not.toBe(0);
  });
});
