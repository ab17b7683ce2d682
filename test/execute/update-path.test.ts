/**
 * The Update path's per-row work (src/execute/execution.ts `Execution.update`, the verbs' writes,
 * `compileUpdateById`'s reuse of the last text) and the Retrieve result, held to what they
 * were: images of exactly the fields a write changed, the same statements and the same result
 * shape. Each test fails if the shortcut it covers gives a different answer.
 */
import { describe, expect, it } from 'vitest';
import { compileUpdateById, decodeRow, encodeValue, type Dialect, type SqlStatement } from '../../src/compile/index.js';
import { ParamList } from '../../src/store/dialect.js';
import { sqlite } from '../../src/dialect/sqlite/dialect.js';
import { postgres, postgresVector } from '../../src/dialect/postgres/dialect.js';
import { check } from '../../src/check/index.js';
import { run } from '../../src/engine/index.js';
import type { IR } from '../../src/ir/schema.js';
import { NOW, encode, freshStore, op, runOk } from '../engine/harness.js';

/** Columns left out of every image: the vectors and search tokens (derived), and the write's clock. */
const UNIMAGED = new Set(['embedding', 'embedding_f32', 'search_text', 'updated_at']);

const rowsById = (store: Awaited<ReturnType<typeof freshStore>>) =>
  new Map(store.driver.all('SELECT * FROM memory ORDER BY id', []).map((r) => [Number(r.id), decodeRow(r)]));
const json = (v: unknown) => JSON.stringify(v ?? null);

describe('update images', () => {
  it('hold exactly the fields whose stored value changed, before and after, for every verb that updates rows', async () => {
    const store = await freshStore();
    runOk(store, [
      encode('alpha report', { tags: ['a', 'b'], type: 'note', facets: { k: 1 } }),
      encode('beta report', { tags: ['a'], type: 'reviewed', weight: 0.8 }),
      encode('gamma', { tags: ['a', 'c'], subject: 'x' }),
      encode('delta', { tags: ['d'] }),
    ]);
    const statements = [
      op('Update', { filter: { has_tags: ['a'] } }, { set: { type: 'reviewed', weight: 0.8 } }),
      op('Update', { ids: ['1'] }, { set: { text: 'alpha report, revised' } }),
      op('Update', { filter: { has_tags: ['a'] } }, { set: { subject: 'y', facets: { k: 2, j: 'x' } } }),
      op('Update', { ids: ['3', '4'] }, { set: { subject: 'z', location: 'lab' } }),
      op('Label', { ids: ['1', '4'] }, { tags: ['e'], mode: 'add' }),
      op('Promote', { ids: ['2', '4'] }, { weight_delta: 0.1 }),
      op('Lock', { ids: ['4'] }, { mode: 'read_only', reason: 'test' }),
      op('Expire', { ids: ['3'] }, { ttl: 'P1D' }),
      op('Delete', { ids: ['2'] }, { soft: true }),
    ];
    for (const statement of statements) {
      const before = rowsById(store);
      const r = run(store, [statement], { now: NOW });
      expect(r.ok, JSON.stringify(r.diagnostics)).toBe(true);
      const after = rowsById(store);
      const result = r.results[0];
      expect(result.changes.length).toBeGreaterThan(0);
      for (const c of result.changes) {
        const was = before.get(c.id)!;
        const is = after.get(c.id)!;
        const changedColumns = Object.keys(is).filter((k) => !UNIMAGED.has(k) && json(was[k]) !== json(is[k])).sort();
        expect(Object.keys(c.before!).sort(), `${statement.op} #${c.id}`).toEqual(changedColumns);
        expect(Object.keys(c.after!)).toEqual(Object.keys(c.before!));
        for (const k of changedColumns) {
          expect(json(c.before![k])).toBe(json(was[k]));
          expect(json(c.after![k])).toBe(json(is[k]));
        }
      }
      // Every target row is reported (changed or not), and one UPDATE is issued per changed row.
      expect(result.sql.filter((s) => s.sql.startsWith('UPDATE')).length).toBe(result.changes.length);
    }
  });

  it('leave records alone that already hold the values, and still report them', async () => {
    const store = await freshStore();
    runOk(store, [encode('one', { tags: ['a'], type: 'reviewed', weight: 0.8 }), encode('two', { tags: ['a'] })]);
    const r = runOk(store, [op('Update', { filter: { has_tags: ['a'] } }, { set: { type: 'reviewed', weight: 0.8 } })]);
    expect([...r.results[0].ids].sort()).toEqual([1, 2]);
    expect(r.results[0].changes).toEqual([{ id: 2, before: { type: null, weight: null }, after: { type: 'reviewed', weight: 0.8 } }]);
  });

  it('refuse the whole statement when one row is locked, and write nothing', async () => {
    const store = await freshStore();
    runOk(store, [encode('one', { tags: ['a'] }), encode('two', { tags: ['a'] }), op('Lock', { ids: ['1'] }, { mode: 'read_only' })]);
    const snapshot = JSON.stringify(rowsById(store).get(2));
    const r = run(store, [op('Update', { filter: { has_tags: ['a'] } }, { set: { type: 'x' } })], { now: NOW });
    expect(r.ok).toBe(false);
    expect(r.diagnostics[0].code).toBe('record-locked');
    expect(JSON.stringify(rowsById(store).get(2))).toBe(snapshot);
  });
});

/** The per-row build `compileUpdateById` had before it reused the last text: every placeholder bound. */
function reference(id: number, changes: Readonly<Record<string, unknown>>, d: Dialect, tenant: string): SqlStatement {
  const cols = Object.keys(changes);
  const params = cols.map((c) => encodeValue(c, changes[c])); // (no vector columns here: encodeFor is encodeValue)
  params.push(tenant, id);
  const p = new ParamList(d);
  const sets = cols.map((c, i) => `${d.quoteIdent(c)} = ${p.bind(params[i])}`);
  const inTenant = `${d.quoteIdent('tenant')} = ${p.bind(tenant)}`;
  return { sql: `UPDATE ${d.quoteIdent('memory')} SET ${sets.join(', ')} WHERE ${inTenant} AND ${d.quoteIdent('id')} = ${p.bind(id)}`, params };
}

describe('compileUpdateById', () => {
  it('gives the built statement for near-identical column lists in any order, dialects alternating', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const columns = ['type', 'weight', 'updated_at', 'subject', 'tags', 'facets', 'search_text'];
    const values: Record<string, unknown> = { type: 'x', weight: 0.5, updated_at: NOW, subject: 's', tags: ['a'], facets: { k: 1 }, search_text: 'a b' };
    const dialects = [sqlite, postgres, postgresVector];
    for (let n = 0; n < 3000; n++) {
      // Runs of the same list (the reuse) broken by a column added, dropped or swapped, or another dialect.
      const cols = columns.filter(() => rand() < 0.6);
      if (cols.length === 0) cols.push('type');
      if (rand() < 0.3 && cols.length > 1) [cols[0], cols[1]] = [cols[1], cols[0]];
      const changes = Object.fromEntries(cols.map((c) => [c, values[c]]));
      const d = dialects[Math.floor(rand() * 3)];
      const id = 1 + Math.floor(rand() * 1000);
      for (let again = rand() < 0.5 ? 3 : 1; again > 0; again--) {
        expect(compileUpdateById(id, changes, d, 'tenant-a')).toEqual(reference(id, changes, d, 'tenant-a'));
      }
    }
  });
});

describe('read results and checker diagnostics keep their key order', () => {
  it('a Retrieve result lists its keys as result(ids, { rows, scores, explain, provenance }) did', async () => {
    const store = await freshStore();
    runOk(store, [encode('one', { tags: ['a'] }), encode('two', { tags: ['a'] })]);
    const filtered = runOk(store, [op('Retrieve', { filter: { has_tags: ['a'] } }, { include: ['id', 'text'] })]).results[0];
    expect(Object.keys(filtered)).toEqual(['index', 'op', 'ids', 'changes', 'warnings', 'sql', 'dryRun', 'rows', 'scores', 'explain', 'provenance']);
    expect(filtered.rows).toEqual([{ id: 2, text: 'two' }, { id: 1, text: 'one' }]);
    expect(filtered.ids).toEqual([2, 1]);
    expect(Object.keys(filtered.provenance!)).toEqual(['1', '2']);
    const searched = runOk(store, [op('Retrieve', { search: { intent: { query: 'two' }, limit: 1 } }, { include: ['id'] })]).results[0];
    expect(Object.keys(searched)).toEqual(Object.keys(filtered));
    expect(Object.keys(searched.scores!)).toEqual([String(searched.ids[0])]);
  });

  it('a checker diagnostic lists code, severity, message, range, path, statement, related, fix in that order', () => {
    const ir = { stage: 'STO', op: 'Update', target: { search: { intent: { query: 'x' } } }, args: { set: { type: 'x' } } } as unknown as IR;
    const range = { start: { line: 0, character: 0, offset: 0 }, end: { line: 0, character: 1, offset: 1 } };
    const [plain] = check([ir]).filter((d) => d.code === 'write-without-limit');
    expect(Object.keys(plain).filter((k) => k !== 'fix' && k !== 'related')).toEqual(['code', 'severity', 'message', 'path', 'statement']);
    const [located] = check([ir], { sourceMaps: [new Map([['', range]]) as never] }).filter((d) => d.code === 'write-without-limit');
    expect(Object.keys(located).slice(0, 6)).toEqual(['code', 'severity', 'message', 'range', 'path', 'statement']);
    expect(located.range).toEqual(range);
  });
});
