/** examples/typed-state: the seed's example, run through the CLI exactly as its README says. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { t2m } from '../cli/run-cli.js';

const DIR = resolve(import.meta.dirname, '../../examples/typed-state');
const last2 = (stdout: string) => (JSON.parse(stdout).results as any[]).slice(-2).map((r) => r.rows.map((row: any) => row.text));

describe('examples/typed-state/mira.t2m', () => {
  it('t2m run … --json returns the current deadline 2026-06-30, then 2026-07-15 as of June 2', () => {
    const r = t2m(['run', join(DIR, 'mira.t2m'), '--json']);
    expect(r.status).toBe(0);
    expect(last2(r.stdout)).toEqual([['2026-06-30'], ['2026-07-15']]);
  });

  it("a second tenant's facts never show, and why follows the chain in its tenant only", () => {
    const db = join(mkdtempSync(join(tmpdir(), 't2m-typed-')), 'mira.sqlite');
    expect(t2m(['run', join(DIR, 'globex.t2m'), '--db', db, '--tenant', 'globex']).status).toBe(0);
    const acme = t2m(['run', join(DIR, 'mira.t2m'), '--db', db, '--tenant', 'acme', '--json', '--trace', 'ingest-1']);
    expect(last2(acme.stdout)).toEqual([['2026-06-30'], ['2026-07-15']]);
    const [current] = JSON.parse(acme.stdout).results.slice(-2);
    expect(current.ids).toEqual([5]);
    expect(current.provenance).toEqual({ 5: { actor: null, trace_id: 'ingest-1', statement: 2, episode: 'e2', supersedes: 4 } });
    const w = t2m(['why', '5', '--db', db, '--tenant', 'acme']);
    expect(w.status).toBe(0);
    expect(w.stdout).toContain('#5 mira.passport_deadline = "2026-06-30" valid 2026-06-03T10:00:00Z .. now');
    expect(w.stdout).toContain('run ingest-1 statement 3, from episode e2');
    expect(w.stdout).toContain('superseded #4 mira.passport_deadline = "2026-07-15" valid 2026-06-01T09:00:00Z .. 2026-06-03T10:00:00Z');
    const other = t2m(['why', '5', '--db', db, '--tenant', 'globex']);
    expect(other).toMatchObject({ status: 1, stderr: "t2m why: why-not-found: no record #5 in tenant 'globex'\n" });
    // The audit log of each tenant holds its own runs only: globex's two statements, acme's four writes.
    expect(JSON.parse(t2m(['audit', '--db', db, '--tenant', 'globex', '--json']).stdout).map((e: any) => e.affectedIds)).toEqual([[1], [2]]);
    expect(JSON.parse(t2m(['audit', '--db', db, '--tenant', 'acme', '--json']).stdout).map((e: any) => e.traceId)).toEqual(['ingest-1', 'ingest-1', 'ingest-1']);
  });
});
