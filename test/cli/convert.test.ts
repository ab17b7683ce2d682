import { describe, expect, it } from 'vitest';
import { files, t2m } from './run-cli.js';

const CARD = 'PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9';
const CARD_IR = { stage: 'STO', op: 'Promote', target: { search: { intent: { query: 'OKR progress' }, limit: 5 } }, args: { weight: 0.9 } };
const ENCODE_IR = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'Q2 OKR review' }, tags: ['OKR'] } };

describe('t2m convert', () => {
  it('converts DSL from stdin to a JSON array of IRs', () => {
    const r = t2m(['convert', '-', '--to', 'json'], CARD);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([CARD_IR]);
  });

  it('auto-detects a JSON IR object and prints canonical DSL that converts back', () => {
    const f = files({ 'ir.json': JSON.stringify(CARD_IR, null, 2) });
    const dsl = t2m(['convert', f['ir.json']]);
    expect(dsl.status).toBe(0);
    expect(dsl.stdout).toMatch(/^PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight/);
    expect(JSON.parse(t2m(['convert', '-', '--to', 'json'], dsl.stdout).stdout)).toEqual([CARD_IR]);
  });

  it('keeps the layout of JSON input: object, array, JSONL', () => {
    const f = files({
      'one.json': JSON.stringify(CARD_IR),
      'many.json': JSON.stringify([ENCODE_IR, CARD_IR]),
      'lines.jsonl': `${JSON.stringify(ENCODE_IR)}\n${JSON.stringify(CARD_IR)}\n`,
    });
    expect(JSON.parse(t2m(['convert', f['one.json'], '--to', 'json']).stdout)).toEqual(CARD_IR);
    expect(JSON.parse(t2m(['convert', f['many.json'], '--to', 'json']).stdout)).toEqual([ENCODE_IR, CARD_IR]);
    const jsonl = t2m(['convert', f['lines.jsonl'], '--to', 'json']).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(jsonl).toEqual([ENCODE_IR, CARD_IR]);
    const dsl = t2m(['convert', f['lines.jsonl'], '--to', 'dsl']);
    expect(dsl.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('prints diagnostics with code frames and no output on errors (exit 1)', () => {
    const f = files({ 'bad.t2m': 'PROMOTE ID "1" SET weight 1.5\n' });
    const r = t2m(['convert', f['bad.t2m'], '--to', 'json']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${f['bad.t2m']}:1:27: error out-of-range`);
    expect(r.stderr).toContain('^^^');
  });

  it('converts a dataset line by line; one bad line never stops the others', () => {
    const lines = [JSON.stringify(ENCODE_IR), '{"stage": broken', JSON.stringify({ ...CARD_IR, args: { weight: 7 } }), JSON.stringify(CARD_IR)];
    const f = files({ 'in.jsonl': `${lines.join('\n')}\n` });
    const r = t2m(['convert', f['in.jsonl'], '--to', 'dsl', '--jsonl']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('2 of 4 lines failed');
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(4);
    expect(Object.keys(out[0])).toEqual(['dsl']);
    expect(out[1].diagnostics[0]).toMatchObject({ code: 'json-syntax', range: { start: { line: 2 } } });
    expect(out[2].diagnostics).toEqual([expect.objectContaining({ code: 'out-of-range', path: 'args.weight', range: expect.objectContaining({ start: expect.objectContaining({ line: 3 }) }) })]);
    expect(out[3].dsl.split('\n')).toHaveLength(1);

    // ...and back: {"dsl"} lines to one IR per line.
    const back = files({ 'dsl.jsonl': `${r.stdout}{"dsl": "PROMOTE WHERE"}\n{"text": "no dsl"}\n` });
    const b = t2m(['convert', back['dsl.jsonl'], '--to', 'json', '--jsonl']);
    expect(b.status).toBe(1);
    const irs = b.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(irs[0]).toEqual(ENCODE_IR);
    expect(irs[1].diagnostics).toBeDefined();
    expect(irs[3]).toEqual(CARD_IR);
    expect(irs[4].diagnostics.map((d: { code: string }) => d.code)).toEqual(['unexpected-end']);
    expect(irs[5].diagnostics[0].code).toBe('invalid-record');
  });

  it('gives output line n for input line n: a blank line gets an empty-line record', () => {
    const f = files({ 'gap.jsonl': `${JSON.stringify(ENCODE_IR)}\n\n  \n${JSON.stringify(CARD_IR)}\n` });
    const r = t2m(['convert', f['gap.jsonl'], '--to', 'dsl', '--jsonl']);
    expect(r.status).toBe(1);
    const out = r.stdout.split('\n').slice(0, -1).map((l) => JSON.parse(l));
    expect(out).toHaveLength(4);
    expect(out[1].diagnostics).toEqual([expect.objectContaining({ code: 'empty-line', range: expect.objectContaining({ start: { line: 2, column: 1, offset: JSON.stringify(ENCODE_IR).length + 1 } }) })]);
    expect(out[2].diagnostics[0].code).toBe('empty-line');
    expect(out[3]).toHaveProperty('dsl');
    const dsl = files({ 'gap.jsonl': '{"dsl": "RETRIEVE ID \\"1\\""}\n\n{"dsl": "RETRIEVE ID \\"2\\""}' });
    const back = t2m(['convert', dsl['gap.jsonl'], '--to', 'json', '--jsonl']).stdout.split('\n').slice(0, -1).map((l) => JSON.parse(l));
    expect(back.map((l) => l.diagnostics?.[0].code ?? l.target.ids)).toEqual(['1', 'empty-line', '2']);
  });

  it('takes one IR per line: a JSON array, or a "dsl" with no statement or several, gives diagnostics', () => {
    const f = files({ 'arr.jsonl': `${JSON.stringify([ENCODE_IR, CARD_IR])}\n` });
    const r = t2m(['convert', f['arr.jsonl'], '--to', 'dsl', '--jsonl']);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).diagnostics).toEqual([expect.objectContaining({ code: 'expected-one-statement', severity: 'error' })]);
    const two = 'RETRIEVE ID "1"; RETRIEVE ID "2"';
    const d = files({ 'dsl.jsonl': [JSON.stringify({ dsl: two }), '{"dsl": ""}', '{"dsl": "# a comment"}'].join('\n') });
    const b = t2m(['convert', d['dsl.jsonl'], '--to', 'json', '--jsonl']);
    expect(b.status).toBe(1);
    const out = b.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out.map((l) => l.diagnostics.map((x: { code: string }) => x.code))).toEqual([['expected-one-statement'], ['expected-one-statement'], ['expected-one-statement']]);
    expect(out[0].diagnostics[0].message).toContain('2 statements');
    expect(out[0].diagnostics[0].range.start.offset).toBe(two.indexOf('RETRIEVE ID "2"'));
  });

  it('rejects bad options and unreadable files with exit 2', () => {
    expect(t2m(['convert', '-', '--to', 'yaml'], CARD)).toMatchObject({ status: 2, stderr: expect.stringContaining('--to must be dsl or json') });
    expect(t2m(['convert', '-', '--jsonl'], CARD).status).toBe(2);
    expect(t2m(['convert', '/nonexistent/x.t2m'])).toMatchObject({ status: 2, stderr: expect.stringContaining('no such file') });
  });

  it('has --help', () => {
    const r = t2m(['convert', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--jsonl');
    expect(r.stdout).toContain('output line n answers input line n');
    expect(r.stdout).toContain('empty-line');
  });
});
