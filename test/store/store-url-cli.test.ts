/**
 * `--db` takes every kind of store name (spec/storage.md "Naming a store"): PGlite in memory and
 * in a directory, a PostgreSQL server (the run's throwaway cluster), and clear refusals for a bad
 * name or an unreachable server: exit 2, one line, no stack trace, no password.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { files, t2m } from '../cli/run-cli.js';
import { freshDatabase, postgresBinaries, SKIP_REASON } from '../support/postgres.js';

const NOW = ['--now', '2025-10-21T00:00:00Z'];
const hasServer = postgresBinaries() !== null;
if (!hasServer) console.warn(`store-url-cli: server cases skipped: ${SKIP_REASON}`);

describe('--db store names', () => {
  const paths = files({
    'script.t2m': 'ENCODE "hello" TAGS "demo";\nENCODE "again" TAGS "demo";\n',
    'read.t2m': 'RETRIEVE WHERE tags HAS "demo" LIMIT 5 INCLUDE id, text;\n',
  });
  const script = paths['script.t2m'];
  const read = paths['read.t2m'];

  it('refuses a name that is no store, saying what a name may be', () => {
    const r = t2m(['run', script, '--db', 'mysql://me:secret@host/db', ...NOW]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^t2m run: bad-store-url: 'mysql:\/\/me:\*\*\*@host\/db': unknown kind of store 'mysql:'; give a file path, ':memory:', 'pglite:'/);
    expect(r.stderr).not.toContain('secret');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('reports an unreachable server in one line, without a stack trace or the password', () => {
    const r = t2m(['run', script, '--db', 'postgres://me:secret@127.0.0.1:1/nothing', ...NOW]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^t2m run: store-unreachable: cannot reach the PostgreSQL store postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/nothing: .*ECONNREFUSED.*is the server running/);
    expect(r.stderr).not.toMatch(/secret|\n\s+at /);
  });

  it('keeps a PGlite directory between runs (run, then audit)', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 't2m-pglite-')), 'data');
    const ran = t2m(['run', script, '--db', `pglite:${dir}`, ...NOW]);
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
    const audit = t2m(['audit', '--db', `pglite:${dir}`, '--json']);
    expect(audit.status).toBe(0);
    expect(JSON.parse(audit.stdout).map((e: { op: string; affectedIds: number[] }) => [e.op, e.affectedIds])).toEqual([['Encode', [1]], ['Encode', [2]]]);
  });

  it.skipIf(!hasServer)('runs and sweeps on a PostgreSQL server, one store per schema', async () => {
    const url = await freshDatabase('cli');
    expect(t2m(['run', script, '--db', `${url}?schema=team1`, ...NOW]).status).toBe(0);
    // Another schema is another store.
    const other = t2m(['run', read, '--db', `${url}?schema=team2`, '--json', ...NOW]);
    expect(JSON.parse(other.stdout).results[0].ids).toEqual([]);
    expect(t2m(['sweep', '--db', `${url}?schema=team1`, ...NOW]).stdout).toBe('nothing due\n');
  });

  it('bench --db pglite: runs each sample in a fresh schema', () => {
    // Three samples (test/conformance/postgres.test.ts runs many more through the same backend).
    const lines = readFileSync('fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl', 'utf8').split('\n').filter(Boolean);
    const { sample } = files({ sample: [lines[0], lines[400], lines[800]].join('\n') });
    const r = t2m(['bench', sample, '--db', 'pglite:', '--json']);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.samples).toEqual({ total: 3, passed: 3 });
    expect(report.assertions.total).toBeGreaterThan(3);
  });
});
