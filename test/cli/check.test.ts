import { describe, expect, it } from 'vitest';
import { files, t2m } from './run-cli.js';

describe('t2m check', () => {
  it('prints path:line:col: severity code message with a code frame and exits 1 on errors', () => {
    const f = files({ 'notes.t2m': 'RETRIEVE WHERE tags HAS "a";\nLOCK ID "1" MODE readonly;\n' });
    const r = t2m(['check', f['notes.t2m']]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${f['notes.t2m']}:2:18: error invalid-enum 'readonly' is not a valid MODE (args.mode); did you mean 'read_only'?`);
    expect(r.stdout).toContain('> 2 | LOCK ID "1" MODE readonly;');
    expect(r.stdout).toContain("fix: replace 'readonly' with 'read_only'");
    expect(r.stdout).toContain('1 error, 0 warnings');
  });

  it('passes warnings under the default policy and fails them under --strict', () => {
    const f = files({ 'w.t2m': 'LABEL WHERE tags HAS "inbox" TAGS "triaged"\n' });
    const loose = t2m(['check', f['w.t2m']]);
    expect(loose.status).toBe(0);
    expect(loose.stdout).toContain('warning write-without-limit');
    const strict = t2m(['check', f['w.t2m'], '--strict']);
    expect(strict.status).toBe(1);
    expect(strict.stdout).toContain('error write-without-limit');
  });

  it('checks IR JSON with line:column positions', () => {
    const f = files({ 'ir.json': '[\n  {"stage": "STO", "op": "Promot", "target": {"ids": "1"}}\n]\n' });
    const r = t2m(['check', f['ir.json']]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${f['ir.json']}:2:26: error unknown-op unknown op 'Promot'; did you mean 'Promote'?`);
  });

  it('says ok for a clean script, reads stdin, and prints JSON with --json', () => {
    const ok = t2m(['check', '-'], 'PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9');
    expect(ok).toMatchObject({ status: 0, stdout: '<stdin>: ok (1 statement checked, dsl)\n' });
    const json = t2m(['check', '-', '--json'], 'DELETE ALL');
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).map((d: { code: string }) => d.code)).toEqual(['all-requires-confirmation']);
  });

  it('counts every statement of the input in its summary, the ones with errors too', () => {
    const dsl = t2m(['check', '-'], 'EXPIRE ID "1" TTL P7D THEN soft_delet;\nLOCK ID "1" MODE readonly;\n');
    expect(dsl.stdout).toContain('<stdin>: 2 errors, 0 warnings (2 statements checked, dsl)\n');
    const unread = t2m(['check', '-'], 'EXPIRE ID "1" TTL P7D THEN soft_delet;\nRETRIVE ID "1";\nDELETE ALL SOFT CONFIRM;\n');
    expect(unread.stdout).toContain('(3 statements checked, dsl)');
    const jsonl = t2m(['check', '-'], '{"stage":"STO","op":"Delete","target":{"ids":"1"}}\n{"stage":"STO","op":"Delete","target":{"ids":\n');
    expect(jsonl.stdout).toContain('(2 statements checked, jsonl)');
  });

  it('exits 2 on a missing file and has --help', () => {
    expect(t2m(['check', '/nonexistent.t2m']).status).toBe(2);
    expect(t2m(['check', '--help']).stdout).toContain('--strict');
  });
});

describe('t2m check with several files', () => {
  it('checks each file and exits with the worst outcome', () => {
    const f = files({ 'ok.t2m': 'RETRIEVE ALL CONFIRM\n', 'bad.json': '{"stage":"STO","op":"Delete","target":{"all":true}}' });
    const r = t2m(['check', f['ok.t2m'], f['bad.json']]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${f['ok.t2m']}: ok (1 statement checked, dsl)`);
    expect(r.stdout).toContain(`${f['bad.json']}:1:`);
    const json = JSON.parse(t2m(['check', f['ok.t2m'], f['bad.json'], '--json']).stdout);
    expect(json.map((x: { file: string; diagnostics: unknown[] }) => [x.file, x.diagnostics.length])).toEqual([
      [f['ok.t2m'], 0],
      [f['bad.json'], 1],
    ]);
    expect(t2m(['check', f['ok.t2m'], '/nonexistent.t2m']).status).toBe(2);
  });
});
