/**
 * The audit INSERT's text is built once per dialect and reused (src/compile/index.ts `shaped`):
 * each dialect must get its own text, whichever asked first, and the values stay bound, never in
 * the text; a memory INSERT naming the same columns keeps its own text.
 */
import { describe, expect, it } from 'vitest';
import { compileAuditInsert, compileInsert } from '../../src/compile/index.js';
import { sqlite } from '../../src/dialect/sqlite/dialect.js';
import { postgres } from '../../src/dialect/postgres/dialect.js';

const entry = (n: number) => ({
  tenant: `t${n}`, traceId: n % 2 ? `run-${n}` : null, at: '2026-01-01T00:00:00Z', actor: null, op: 'Encode', ir: { n },
  affectedIds: [n], before: null, after: { [n]: { text: `x${n}` } },
});

describe('audit INSERT text, cached per dialect', () => {
  it('gives each dialect its own placeholders, alternately, and binds every value', () => {
    for (let n = 1; n <= 4; n++) {
      for (const [d, placeholder] of [[postgres, '$9'], [sqlite, '?']] as const) {
        const s = compileAuditInsert(entry(n), d);
        expect(s.sql).toContain(placeholder);
        if (d === sqlite) expect(s.sql).not.toContain('$');
        expect(s.params).toEqual([`t${n}`, n % 2 ? `run-${n}` : null, '2026-01-01T00:00:00Z', null, 'Encode', JSON.stringify({ n }), JSON.stringify([n]), 'null', JSON.stringify({ [n]: { text: `x${n}` } })]);
        expect(s.sql).not.toContain(`t${n}`);
      }
    }
  });

  it('is not confused with a memory INSERT of the same shape', () => {
    const audit = compileAuditInsert(entry(1), sqlite).sql;
    const memory = compileInsert({ tenant: 't', trace_id: 'r', text: 'x' }, sqlite).sql;
    expect(audit).toMatch(/^INSERT INTO "?audit_log"?/);
    expect(memory).toMatch(/^INSERT INTO "?memory"?/);
    expect(compileAuditInsert(entry(2), sqlite).sql).toBe(audit);
  });
});
