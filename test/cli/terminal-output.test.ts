/**
 * The CLI's text output shows stored control characters escaped (src/diagnostics/escape.ts): a
 * record's text, tags, subject, a lock's reason or an actor holding terminal escapes, carriage
 * returns, other line breaks or bidirectional overrides reach the terminal as `\u001b`, `\r`,
 * `\n`…, and no stored value starts a line of a table. JSON output is unchanged: it reads back
 * as the stored value. Fixed cases through `t2m run`, `audit` and `why`, and a fuzz of the
 * renderers (formatStatement, table) with hostile values.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatStatement, table } from '../../src/cli/engine-output.js';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { run, type StatementResult } from '../../src/engine/index.js';
import { HOSTILE, hostileString, RAW_BUT_LF } from '../agents/hostile.js';
import { tempDir } from '../engine/harness.js';
import { files, t2m } from './run-cli.js';

const NOW = '2025-10-21T00:00:00Z';
const ESC = '\u001b[31mRED\u001b[0m\r\u202eevil\n## second line\u0085\u2028';

describe('stored control characters in the CLI text output', () => {
  it('tables escape them and keep one line per row; the dry run and refusals too', async () => {
    const out = table([{ id: 1, text: ESC, tags: [ESC] }, { id: 2, text: 'plain', tags: [] }]);
    expect(out).not.toMatch(RAW_BUT_LF);
    expect(out.split('\n')).toHaveLength(4);
    expect(out).toContain('\\u001b[31mRED\\u001b[0m\\r\\u202eevil\\n## second');

    const store = await createStore();
    const r = run(store, [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: `budget ${ESC}` }, tags: [ESC, 'budget'], subject: ESC, facets: { k: ESC } } },
      { stage: 'STO', op: 'Update', target: { ids: ['1'] }, args: { set: { text: `budget again ${ESC}` } } },
      { stage: 'STO', op: 'Lock', target: { ids: ['1'] }, args: { mode: 'read_only', reason: ESC } },
      { stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: `budget ${ESC}` }, limit: 3 } }, args: { include: ['id', 'text', 'tags', 'subject', 'facets'] } },
      { stage: 'RET', op: 'Summarize', target: { ids: ['1'] }, args: {} },
    ], { now: NOW });
    expect(r.ok, JSON.stringify(r.diagnostics)).toBe(true);
    for (const s of r.results) expect(formatStatement(s, { explain: true })).not.toMatch(RAW_BUT_LF);
    const refused = run(store, [{ stage: 'STO', op: 'Delete', target: { ids: ['1'] }, args: { soft: true }, meta: { dry_run: true } }], { now: NOW });
    for (const s of refused.results) expect(formatStatement(s)).not.toMatch(RAW_BUT_LF);
  });

  it('t2m run, audit and why: text escaped, one line per stored value; --json unchanged', () => {
    const db = join(tempDir(), 'hostile.sqlite');
    const opened = openStoreFile(db);
    if (!opened.ok) throw new Error('open');
    const r = run(opened.store, [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: `budget ${ESC}` }, tags: [ESC, 'budget'], subject: ESC } },
      { stage: 'STO', op: 'Lock', target: { ids: ['1'] }, args: { mode: 'read_only', reason: ESC } },
    ], { now: NOW, actor: `ops${ESC}` });
    expect(r.ok, JSON.stringify(r.diagnostics)).toBe(true);
    opened.store.close();
    const { read, del } = files({
      read: 'RETRIEVE WHERE tags HAS "budget" LIMIT 5 INCLUDE id, text, tags, subject;\n',
      del: 'DELETE WHERE tags HAS "budget" LIMIT 5 SOFT;\n',
    });

    const text = t2m(['run', read, '--db', db, '--now', NOW]);
    expect(text.status).toBe(0);
    expect(text.stdout).not.toMatch(RAW_BUT_LF);
    expect(text.stdout).toContain('\\u001b[31mRED');
    expect(text.stdout.split('\n').filter((l) => l.includes('## second line'))).toHaveLength(1);

    const json = t2m(['run', read, '--db', db, '--now', NOW, '--json']);
    expect(JSON.parse(json.stdout).results[0].rows[0]).toMatchObject({ text: `budget ${ESC}`, subject: ESC, tags: [ESC, 'budget'] });

    // A refusal quotes the lock's reason: on one line of stderr, escaped.
    const refused = t2m(['run', del, '--db', db, '--now', NOW]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('record-locked');
    expect(refused.stderr).not.toMatch(RAW_BUT_LF);
    expect(refused.stderr.split('\n').filter((l) => l.includes('## second line'))).toHaveLength(1);

    const audit = t2m(['audit', '--db', db]);
    expect(audit.status).toBe(0);
    expect(audit.stdout).not.toMatch(RAW_BUT_LF);
    expect(audit.stdout.split('\n').filter((l) => l.includes('## second line'))).toHaveLength(2);

    const why = t2m(['why', '1', '--db', db]);
    expect(why.status).toBe(0);
    expect(why.stdout).not.toMatch(RAW_BUT_LF);
    expect(why.stdout.split('\n').filter((l) => /^## /.test(l))).toEqual([]);
    expect(JSON.parse(t2m(['why', '1', '--db', db, '--json']).stdout).chain[0]).toMatchObject({ subject: ESC });
  });

  it('fuzz: no raw control character, and one line per row, whatever the cells hold (300 runs)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ text: hostileString, tag: hostileString, key: hostileString }), { minLength: 1, maxLength: 4 }), (rows) => {
        const shown = table(rows.map((x) => ({ id: 1, text: x.text, tags: [x.tag], facets: { [x.key]: x.text } })));
        expect(shown).not.toMatch(RAW_BUT_LF);
        expect(shown.split('\n')).toHaveLength(rows.length + 2);
        const result = {
          index: 0, op: 'Update', ids: [1], dryRun: true, sql: [{ sql: 'UPDATE memory SET text = ?', params: [rows[0].text] }],
          changes: rows.map((x, i) => ({ id: i + 1, before: { text: x.tag, [x.key]: x.text }, after: { text: x.text, [x.key]: x.tag } })),
        } as unknown as StatementResult;
        const statement = formatStatement(result);
        expect(statement).not.toMatch(RAW_BUT_LF);
        // A header line, "would affect", one line per change and one per SQL statement: no more.
        expect(statement.split('\n')).toHaveLength(2 + rows.length + 1);
        const summary = formatStatement({ index: 0, op: 'Summarize', ids: [1], summary: rows[0].text, changes: [], sql: [] } as unknown as StatementResult);
        expect(summary).not.toMatch(RAW_BUT_LF);
        for (const l of summary.split('\n').slice(1)) expect(l.startsWith('  ')).toBe(true);
        const refusal = formatStatement({ index: 0, op: 'Delete', ids: [], refused: { code: 'record-locked', message: rows[0].text }, changes: [], sql: [] } as unknown as StatementResult);
        expect(refusal.split('\n')).toHaveLength(2);
        expect(refusal).not.toMatch(RAW_BUT_LF);
      }),
      { seed: 28, numRuns: 300 },
    );
  });

  it('the fixed hostile values, each in a table cell', () => {
    const shown = table(HOSTILE.map((h, i) => ({ id: i, value: h })));
    expect(shown).not.toMatch(RAW_BUT_LF);
    expect(shown.split('\n')).toHaveLength(HOSTILE.length + 2);
  });
});
