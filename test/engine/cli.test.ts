/** The engine's CLI commands end to end: t2m run, sweep, audit, undo, bench. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { files, t2m } from '../cli/run-cli.js';

const NOW = ['--now', '2025-10-21T00:00:00Z'];
const script = [
  { stage: 'ENC', op: 'Encode', args: { payload: { text: 'Budget review. Hiring paused.' }, tags: ['budget'], time: '2025-10-20T10:00:00Z' } },
  { stage: 'ENC', op: 'Encode', args: { payload: { text: 'Dentist on Friday' }, tags: ['personal'], time: '2025-10-20T11:00:00Z' } },
  { stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['budget'] } }, args: { include: ['id', 'text', 'tags'] } },
];

describe('t2m run', () => {
  it('runs an IR file into a store file and prints each statement, with a table for rows', () => {
    const f = files({ 'a.json': JSON.stringify(script) });
    const db = f['a.json'].replace(/a\.json$/, 'store.sqlite');
    const r = t2m(['run', f['a.json'], '--db', db, ...NOW]);
    // A new store file is announced, so a mistyped path does not pass for an empty store.
    expect(r.stderr).toBe(`t2m run: created a new store ${db}\n`);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\[1\] Encode\n {2}created #1\n/);
    expect(r.stdout).toMatch(/\[3\] Retrieve\n {2}1 record\n {2}id {2}text +tags/);
    expect(readFileSync(db).subarray(0, 15).toString()).toBe('SQLite format 3');
    // The store persists: a second run continues the id sequence.
    const again = t2m(['run', f['a.json'], '--db', db, '--json', ...NOW]);
    const out = JSON.parse(again.stdout);
    expect(again.stderr).toBe('');
    expect(out.ok).toBe(true);
    expect(out.results.map((x: any) => x.ids)).toEqual([[3], [4], [3, 1]]);
  });

  it('runs a DSL script', () => {
    const f = files({ 'a.t2m': 'ENCODE "Q2 OKR review" TAGS "OKR";\nRETRIEVE WHERE tags HAS "OKR";\n' });
    const r = t2m(['run', f['a.t2m'], '--json', ...NOW]);
    expect(JSON.parse(r.stdout).results.map((x: any) => x.op)).toEqual(['Encode', 'Retrieve']);
  });

  it('rolls a failing script back, points at the statement and exits 1', () => {
    const f = files({ 'bad.json': JSON.stringify([script[0], { stage: 'STO', op: 'Merge', target: { ids: ['1', '5'] } }]) });
    const db = f['bad.json'].replace(/bad\.json$/, 'store.sqlite');
    const r = t2m(['run', f['bad.json'], '--db', db, ...NOW]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bad\.json:1:\d+: error merge-needs-two/);
    expect(r.stderr).toMatch(/rolled back; nothing changed/);
    // The new store file was created (and said so) but holds no record.
    expect(r.stderr).toMatch(/created a new store/);
    expect(JSON.parse(t2m(['audit', '--db', db, '--json']).stdout)).toEqual([]);
  });

  it('refuses a corrupt store file with exit code 2', () => {
    const f = files({ 'a.json': JSON.stringify(script), 'junk.sqlite': 'not a database '.repeat(100) });
    const r = t2m(['run', f['a.json'], '--db', f['junk.sqlite'], ...NOW]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/junk\.sqlite is not an SQLite database/);
    expect(readFileSync(f['junk.sqlite'], 'utf8')).toBe('not a database '.repeat(100));
  });

  it('--dry-run prints the SQL and changes nothing', () => {
    const f = files({ 'a.json': JSON.stringify(script.slice(0, 1)) });
    const db = f['a.json'].replace(/a\.json$/, 'store.sqlite');
    const r = t2m(['run', f['a.json'], '--db', db, '--dry-run', ...NOW]);
    expect(r.stdout).toMatch(/sql: INSERT INTO "memory"/);
    expect(() => readFileSync(db)).toThrow();
  });
});

describe('t2m sweep, audit, undo', () => {
  it('sweeps due expiries, lists the audit log and undoes a soft delete', () => {
    const f = files({
      'a.json': JSON.stringify([
        script[0],
        { stage: 'STO', op: 'Expire', target: { ids: ['1'] }, args: { until: '2025-10-22T00:00:00Z', on_expire: 'soft_delete' } },
      ]),
    });
    const db = f['a.json'].replace(/a\.json$/, 'store.sqlite');
    expect(t2m(['run', f['a.json'], '--db', db, ...NOW]).status).toBe(0);
    expect(t2m(['sweep', '--db', db, '--now', '2025-10-21T12:00:00Z']).stdout).toBe('nothing due\n');
    expect(t2m(['sweep', '--db', db, '--now', '2025-10-23T00:00:00Z']).stdout).toBe('#1 soft_delete\n');
    const audit = t2m(['audit', '--db', db, '--json']);
    const entries = JSON.parse(audit.stdout);
    expect(entries.map((e: any) => e.op)).toEqual(['Encode', 'Expire', 'Sweep']);
    const u = t2m(['undo', String(entries[2].id), '--db', db, '--now', '2025-10-23T00:00:00Z']);
    expect(u.stdout).toMatch(/restored #1/);
    expect(u.stdout).toMatch(/cleared the passed expiry of #1 so that it is live again/);
    const again = t2m(['undo', String(entries[2].id), '--db', db]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/undo-already-done/);
  });
});

describe('t2m bench', () => {
  it('prints the report as JSON with samples, assertions, ranking and by_op, filtered by --only', () => {
    const sample = {
      id: 't2m-x-single-delete-001',
      prerequisites: [script[0]],
      schema_list: [{ stage: 'STO', op: 'Delete', target: { filter: { has_tags: ['budget'] } }, args: { soft: true } }],
      expected: {
        assertions: [{ name: 'gone', select: { from: 'memory', where: ['deleted=1'] }, expect: { op: '==', value: 1 } }],
        ranking: null,
        meta: { eval_time_utc: '2025-10-21T00:00:00Z' },
      },
    };
    const f = files({ 's.jsonl': `${JSON.stringify(sample)}\n${JSON.stringify({ ...sample, id: 't2m-x-single-label-001' })}\n` });
    const r = t2m(['bench', f['s.jsonl'], '--json', '--only', 'Delete']);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ samples: { total: 1, passed: 1 }, assertions: { total: 1, passed: 1 }, ranking: { total: 0, passed: 0 }, by_op: { Delete: { samples: { total: 1, passed: 1 } } } });
    expect(r.stderr).toMatch(/1\/1/);
    // The default runs on native SQLite in memory, `--db :memory:` on sql.js: the same report.
    const sqljs = t2m(['bench', f['s.jsonl'], '--json', '--only', 'Delete', '--db', ':memory:']);
    expect([sqljs.status, sqljs.stdout]).toEqual([0, r.stdout]);
  });
});
