/** The SQL pane's listing (no browser needed): long arrays are shortened for display only. */
import { describe, expect, it } from 'vitest';
import { displayParam, sqlListing } from '../../playground/src/sql-listing.js';

const VECTOR = Array.from({ length: 64 }, (_, i) => Math.round(Math.sin(i + 1) * 1000) / 1000);

describe('sqlListing', () => {
  it('abbreviates an embedding vector in the params comment and leaves the params untouched', () => {
    const params = ['Q2 OKR review', JSON.stringify(VECTOR), 0.9, ['OKR', 'review']];
    const copy = structuredClone(params);
    const text = sqlListing('executed by the last run', [{ op: 'Encode', sql: [{ sql: 'INSERT INTO memory (text, embedding) VALUES (?, ?)', params }] }]);
    expect(text).toContain(`-- params: ["Q2 OKR review",[${VECTOR[0]}, ${VECTOR[1]}, … 64 numbers],0.9,["OKR","review"]]`);
    expect(text).not.toContain(String(VECTOR[10]));
    expect(params).toEqual(copy);
  });

  it('shows short arrays and non-array strings whole', () => {
    expect(displayParam(VECTOR)).toBe(`[${VECTOR[0]}, ${VECTOR[1]}, … 64 numbers]`);
    expect(displayParam([1, 2, 3])).toBe('[1,2,3]');
    expect(displayParam('[1, 2, 3]')).toBe('"[1, 2, 3]"');
    expect(displayParam('[not json, but long enough to look like an array to the check]')).toBe('"[not json, but long enough to look like an array to the check]"');
    expect(displayParam(Array.from({ length: 10 }, (_, i) => `t${i}`))).toBe('["t0", "t1", … 10 items]');
    expect(displayParam(null)).toBe('null');
  });

  it('keeps the audit-log insert of a write to one line, so the listing is the statement\'s SQL', () => {
    const ir = JSON.stringify({ op: 'Promote', args: { weight: 0.9 }, padding: 'x'.repeat(400) });
    const text = sqlListing('run', [{ op: 'Promote', sql: [
      { sql: 'UPDATE "memory" SET "weight" = ? WHERE "id" = ?', params: [0.9, 1] },
      { sql: 'INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)', params: ['t', 'u', 'Promote', ir, '[1]', '[]', '[]'] },
    ] }]);
    expect(text).toContain('UPDATE "memory" SET "weight" = ? WHERE "id" = ?;');
    expect(text).toContain('-- + audit_log entry (7 bound values');
    expect(text).not.toContain('padding');
    expect(displayParam('y'.repeat(200))).toBe(`"${'y'.repeat(40)}…" (200 chars)`);
  });
});

