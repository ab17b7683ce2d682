import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { files, t2m } from './run-cli.js';

const MESSY = 'promote   where search "OKR progress" limit 5 set weight 0.9;\nlock id "1" mode read_only';

describe('t2m fmt', () => {
  it('prints the canonical form, which is a fixed point', () => {
    const f = files({ 'a.t2m': MESSY });
    const r = t2m(['fmt', f['a.t2m']]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^PROMOTE WHERE search "OKR progress" LIMIT 5 SET/);
    expect(t2m(['fmt', '-'], r.stdout).stdout).toBe(r.stdout);
  });

  it('--check exits 1 on unformatted files and 0 on formatted ones', () => {
    const f = files({ 'a.t2m': MESSY });
    expect(t2m(['fmt', f['a.t2m'], '--check'])).toMatchObject({ status: 1, stdout: `${f['a.t2m']}: not formatted\n` });
    const formatted = t2m(['fmt', f['a.t2m']]).stdout;
    const g = files({ 'b.t2m': formatted });
    expect(t2m(['fmt', g['b.t2m'], '--check'])).toMatchObject({ status: 0, stdout: '' });
  });

  it('--write rewrites the file in place', () => {
    const f = files({ 'a.t2m': MESSY });
    const expected = t2m(['fmt', f['a.t2m']]).stdout;
    expect(t2m(['fmt', f['a.t2m'], '--write']).status).toBe(0);
    expect(readFileSync(f['a.t2m'], 'utf8')).toBe(expected);
  });

  it('leaves a file with syntax errors alone and reports them (exit 1)', () => {
    const f = files({ 'bad.t2m': 'PROMOTE WHERE\n' });
    const r = t2m(['fmt', f['bad.t2m'], '--write']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${f['bad.t2m']}:`);
    expect(readFileSync(f['bad.t2m'], 'utf8')).toBe('PROMOTE WHERE\n');
  });

  it('refuses JSON input and conflicting options (exit 2), has --help', () => {
    expect(t2m(['fmt', '-'], '{"stage":"RET","op":"Retrieve"}')).toMatchObject({ status: 2, stderr: expect.stringContaining('convert') });
    expect(t2m(['fmt', '-', '--check', '--write'], MESSY).status).toBe(2);
    expect(t2m(['fmt', '--help']).stdout).toContain('--check');
  });
});
