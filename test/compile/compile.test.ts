import { describe, expect, it } from 'vitest';
import { compile, compileInsert, compileTargetSelect, compileUpdateById } from '../../src/compile/index.js';
import { sqlite } from '../../src/dialect/sqlite/dialect.js';
import { IR } from '../../src/ir/schema.js';
import { lowerIr } from '../../src/lower/index.js';

const now = new Date('2025-10-21T00:00:00Z');
const lower = (json: unknown) => {
  const r = lowerIr(IR.parse(json), { now });
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  return r.operation;
};

describe('compile (sqlite)', () => {
  it('selects live, unexpired records matching the filter, values as parameters', () => {
    const plan = compile(lower({ stage: 'STO', op: 'Update', target: { filter: { has_tags: ['a', 'b'], type: 'note', weight_gte: 0.2, limit: 3, time_range: { start: '2025-10-01T00:00:00Z', end: '2025-10-02T00:00:00Z' } } }, args: { set: { text: 'x' } } }), sqlite);
    expect(plan.target).toEqual({
      sql:
        'SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?)'
        + ' AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "time" >= ? AND "time" <= ?'
        + ' AND "id" IN (SELECT memory_id FROM memory_tag WHERE tag = ?) AND "id" IN (SELECT memory_id FROM memory_tag WHERE tag = ?)'
        + ' AND "type" = ? AND "weight" >= ? ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT +?',
      params: ['default', 0, '2025-10-21T00:00:00Z', '2025-10-21T00:00:00Z', '2025-10-21T00:00:00Z', '2025-10-01T00:00:00Z', '2025-10-02T00:00:00Z', 'a', 'b', 'note', 0.2, 3],
    });
  });

  it('writes the limit +? (planned once, not again at every binding), which reads the same rows as LIMIT ?', async () => {
    const { run } = await import('../../src/engine/index.js');
const { createStore } = await import('../../src/dialect/sqlite/store.js');
    const store = await createStore();
    const encodes = ['a', 'b', 'c', 'd'].map((t, i) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t }, tags: ['x'], time: `2025-10-0${i + 1}T00:00:00Z` } }));
    expect(run(store, encodes, { now: '2025-10-21T00:00:00Z' }).ok).toBe(true);
    for (const limit of [1, 3, 10]) {
      const { sql, params } = compile(lower({ stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['x'], limit } } }), sqlite).target!;
      expect(sql).toMatch(/ LIMIT \+\?$/);
      const ids = (text: string) => store.driver.all(text, params).map((r) => r.id);
      expect(ids(sql)).toEqual(ids(sql.replace(/\+\?$/, '?')));
      expect(ids(sql)).toHaveLength(Math.min(limit, 4));
    }
    store.close();
  });

  it('adds the read-permission condition for reads only', () => {
    const read = compile(lower({ stage: 'RET', op: 'Retrieve', target: { ids: ['1'] }, meta: { actor: 'ann' } }), sqlite);
    expect(read.target!.sql).toContain('"read_perm_level"');
    expect(read.target!.params).toContain('ann');
    const write = compile(lower({ stage: 'STO', op: 'Delete', target: { ids: ['1'] }, meta: { actor: 'ann' } }), sqlite);
    expect(write.target!.sql).not.toContain('read_perm_level');
  });

  it('reads every search candidate and leaves ranking and the limit to the scorer', () => {
    const sel = lower({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'q' }, overrides: { k: 2 } } } });
    const stmt = compileTargetSelect((sel as any).selection, sqlite, { tenant: 'default', now: '2025-10-21T00:00:00Z', applyReadPermissions: false });
    expect(stmt.sql).not.toMatch(/LIMIT|ORDER BY/);
  });

  it('encodes JSON columns as JSON text in inserts and updates', () => {
    expect(compileInsert({ text: 'a', tags: ['x'], facets: { k: 1 }, weight: null }, sqlite)).toEqual({
      sql: 'INSERT INTO "memory" ("text", "tags", "facets", "weight") VALUES (?, ?, ?, ?) RETURNING id',
      params: ['a', '["x"]', '{"k":1}', null],
    });
    expect(compileUpdateById(7, { deleted: 1, lineage_parents: [3] }, sqlite, 'acme')).toEqual({
      sql: 'UPDATE "memory" SET "deleted" = ?, "lineage_parents" = ? WHERE "tenant" = ? AND "id" = ?',
      params: [1, '[3]', 'acme', 7],
    });
  });

  it('compiles an Encode to its insert', () => {
    const plan = compile(lower({ stage: 'ENC', op: 'Encode', args: { payload: { text: 'hi' }, tags: ['t'] } }), sqlite);
    expect(plan.insert!.sql).toMatch(/^INSERT INTO "memory"/);
    expect(plan.insert!.params).toContain('hi');
  });

  it('quotes identifiers', () => {
    expect(sqlite.quoteIdent('we"ird')).toBe('"we""ird"');
  });
});
