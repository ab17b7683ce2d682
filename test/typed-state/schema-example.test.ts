/**
 * examples/typed-state/schema.t2m (a declaration, a good value, a refused ill-typed value) run
 * through the CLI, and `t2m check --db`, the audit of facts written before a schema, on a store
 * file and on PGlite.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { files, t2m } from '../cli/run-cli.js';

const EXAMPLE = resolve(import.meta.dirname, '../../examples/typed-state/schema.t2m');

describe('examples/typed-state/schema.t2m', () => {
  it('declares the schema, stores the good value normalised, and refuses the ill-typed one with its fix', () => {
    const r = t2m(['run', EXAMPLE, '--json', '--now', '2026-06-10T00:00:00Z']);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    const [declared, good, bad, read, asWritten] = out.results;
    expect(declared.schema).toMatchObject({ attribute: 'passport_deadline', version: 1, schema: { type: 'date', conflict: 'latest' } });
    expect(good.ids).toEqual([1]);
    expect(bad).toMatchObject({ dryRun: true, ids: [], refused: { code: 'fact-type-mismatch', fix: { message: 'write "2026-06-30"' } } });
    // The fix's edit replaces exactly the ill-typed value in the file.
    const text = readFileSync(EXAMPLE, 'utf8');
    const { range, newText } = bad.refused.fix.edits[0];
    expect(text.slice(range.start.offset, range.end.offset)).toBe('"June 30, 2026"');
    expect(newText).toBe('"2026-06-30"');
    expect(read.rows).toEqual([{ id: 1, text: '2026-07-15', subject: 'mira', episode: 'e1', confidence: 0.9, schema_version: 1 }]);
    expect(asWritten.rows).toEqual([{ id: 1, text: '2026-07-15', subject: 'mira', attribute: 'passport_deadline', valid_from: '2026-06-01T09:00:00Z', valid_to: null, confidence: 0.9, source: null, episode: 'e1' }]);
    expect(out.diagnostics.map((d: { code: string }) => d.code)).toEqual(['fact-type-mismatch']);
  });
});

describe('t2m check --db', () => {
  const before = 'ENCODE "banana" SUBJECT mira ATTRIBUTE passport_deadline;\nENCODE "2026-07-15" SUBJECT " Ben" ATTRIBUTE passport_deadline;\nENCODE "2026-07-01" SUBJECT ada ATTRIBUTE passport_deadline;\n';
  const declare = 'ENCODE ATTRIBUTE passport_deadline SCHEMA { type: "date", normalize: ["trim"] };\n';

  for (const kind of ['file', 'pglite'] as const) {
    it(`lists the facts written before the schema that violate it, and changes nothing (${kind})`, () => {
      const dir = mkdtempSync(join(tmpdir(), 't2m-schema-'));
      const db = kind === 'file' ? join(dir, 'store.sqlite') : `pglite:${join(dir, 'pg')}`;
      const f = files({ 'before.t2m': before, 'declare.t2m': declare });
      expect(t2m(['run', f['before.t2m'], '--db', db, '--tenant', 'acme', '--now', '2026-06-01T00:00:00Z']).status).toBe(0);
      // No schema yet: nothing to report.
      expect(t2m(['check', '--db', db, '--tenant', 'acme'])).toMatchObject({ status: 0 });
      expect(t2m(['run', f['declare.t2m'], '--db', db, '--tenant', 'acme', '--now', '2026-06-02T00:00:00Z']).status).toBe(0);
      const r = t2m(['check', '--db', db, '--tenant', 'acme']);
      expect(r.status).toBe(1);
      expect(r.stdout).toContain('memory #1 mira.passport_deadline = "banana", written before schema version 1 (date, subjects trim, conflict latest): "banana" is not a date in the form YYYY-MM-DD');
      expect(r.stdout).toContain('memory #2  Ben.passport_deadline = "2026-07-15", written before schema version 1');
      expect(r.stdout).toContain('2 facts violating 1 attribute schema in tenant acme');
      const json = JSON.parse(t2m(['check', '--db', db, '--tenant', 'acme', '--json']).stdout);
      expect(json.violations.map((v: { id: number }) => v.id)).toEqual([1, 2]);
      // Another tenant has no schema; the facts were not changed by the audit.
      expect(t2m(['check', '--db', db, '--tenant', 'globex']).status).toBe(0);
      const read = JSON.parse(t2m(['run', '-', '--db', db, '--tenant', 'acme', '--json'], 'RETRIEVE WHERE attribute = passport_deadline LIMIT 10 INCLUDE text;').stdout);
      expect(read.results[0].rows.map((x: { text: string }) => x.text).sort()).toEqual(['2026-07-01', '2026-07-15', 'banana']);
    }, 120_000);
  }

  it('needs files or --db, not both', () => {
    expect(t2m(['check']).status).toBe(2);
    const f = files({ 'a.t2m': declare });
    expect(t2m(['check', f['a.t2m'], '--db', ':memory:']).status).toBe(2);
    expect(t2m(['check', f['a.t2m']]).status).toBe(0);
  });
});
