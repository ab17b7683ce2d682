/**
 * Target rows read as the driver gave them (src/execute/execution.ts `Execution.lazy`: JSON columns
 * decoded where read, the whole row where a lock or the search tokens need it) and per-row
 * UPDATEs sent as one request (`Execution.stage` / `flush`, the `runs` query of src/store/io.ts).
 * Held to what the decoded rows and one request per UPDATE gave: images equal to the stored rows,
 * unchanged values left alone, the same statements reaching the driver in the same order, and a
 * failure inside the batch leaving the store as it was.
 */
import { describe, expect, it } from 'vitest';
import { decodeRow } from '../../src/compile/index.js';
import { run } from '../../src/engine/index.js';
import { NOW, encode, freshStore, op, runOk } from '../engine/harness.js';

const UNIMAGED = new Set(['embedding', 'embedding_f32', 'search_text', 'updated_at']);
const json = (v: unknown) => JSON.stringify(v ?? null);
type Store = Awaited<ReturnType<typeof freshStore>>;
const rowsById = (store: Store) => new Map(store.driver.all('SELECT * FROM memory ORDER BY id', []).map((r) => [Number(r.id), decodeRow(r)]));
const auditCount = (store: Store) => Number(store.driver.all('SELECT COUNT(*) AS n FROM audit_log', [])[0].n);

async function lockedStore(): Promise<Store> {
  const store = await freshStore();
  runOk(store, [
    encode('alpha report', { tags: ['a', 'b'], type: 'note', facets: { k: 1, nested: { x: [1, 2] } } }),
    encode('beta report', { tags: ['a'], facets: { k: 2 } }),
    encode('gamma', { tags: ['c'], subject: 'x' }),
    encode('epsilon', { tags: ['a', 'e'], facets: { deep: { list: [1, { y: 'z' }] } } }),
    encode('delta', { tags: ['a', 'd'] }),
    // #2: a custom lock allowing most verbs (its checks read the decoded policy); #3: append-only.
    op('Lock', { ids: ['2'] }, { policy: { allow: ['Update', 'Promote', 'Demote', 'Lock', 'Expire', 'Delete', 'Label'] } }),
    op('Lock', { ids: ['3'] }, { mode: 'append_only' }),
  ]);
  return store;
}

describe('target rows decoded where read', () => {
  it('give images equal to the stored rows, through locks in force and JSON columns', async () => {
    const store = await lockedStore();
    const statements = [
      op('Update', { filter: { has_tags: ['a'] } }, { set: { location: 'lab' } }),
      op('Update', { ids: ['1', '2'] }, { set: { facets: { j: 'y' } } }),
      op('Update', { ids: ['1', '2', '4'] }, { set: { tags: ['a', 'z'] } }),
      op('Update', { ids: ['2'] }, { set: { text: 'beta report, revised' } }),
      op('Promote', { ids: ['1', '2'] }, { weight_delta: 0.1 }),
      op('Demote', { ids: ['2', '4'] }, { weight_delta: 0.2, reason: 'stale' }),
      op('Lock', { ids: ['2'] }, { policy: { allow: ['Update', 'Expire', 'Delete', 'Lock'], reviewers: ['ann'] } }),
      op('Expire', { ids: ['1', '2'] }, { ttl: 'P1D' }),
      op('Delete', { ids: ['2', '4'] }, { soft: true }),
    ];
    for (const statement of statements) {
      const before = rowsById(store);
      const r = run(store, [statement], { now: NOW });
      expect(r.ok, `${statement.op}: ${JSON.stringify(r.diagnostics)}`).toBe(true);
      const after = rowsById(store);
      const result = r.results[0];
      expect(result.changes.length, statement.op).toBeGreaterThan(0);
      for (const c of result.changes) {
        const was = before.get(c.id)!;
        const is = after.get(c.id)!;
        const changed = Object.keys(is).filter((k) => !UNIMAGED.has(k) && json(was[k]) !== json(is[k])).sort();
        expect(Object.keys(c.before!).sort(), `${statement.op} #${c.id}`).toEqual(changed);
        for (const k of changed) {
          expect(json(c.before![k]), `${statement.op} #${c.id} ${k}`).toBe(json(was[k]));
          expect(json(c.after![k]), `${statement.op} #${c.id} ${k}`).toBe(json(is[k]));
        }
      }
      expect(result.sql.filter((s) => s.sql.startsWith('UPDATE')).length).toBe(result.changes.length);
    }
  });

  it('leave a JSON column alone that already holds the value (compared decoded, not as text)', async () => {
    const store = await lockedStore();
    const policy = { allow: ['Update', 'Promote', 'Demote', 'Lock', 'Expire', 'Delete', 'Label'] };
    // The same lock again: nothing changes, nothing is written.
    const r = runOk(store, [op('Lock', { ids: ['2'] }, { policy })]);
    expect(r.results[0].changes).toEqual([]);
    expect(r.results[0].sql.filter((s) => s.sql.startsWith('UPDATE'))).toEqual([]);
    // Facets merged into the decoded ones: only the new key is added.
    const f = runOk(store, [op('Update', { ids: ['1'] }, { set: { facets: { k: 1 } } })]);
    expect(f.results[0].changes).toEqual([]);
  });

  it('refuse a write an append-only lock forbids, by the decoded row, and write nothing', async () => {
    const store = await lockedStore();
    const snapshot = JSON.stringify([...rowsById(store)]);
    const r = run(store, [op('Update', { ids: ['1', '3'] }, { set: { subject: 'y' } })], { now: NOW });
    expect(r.ok).toBe(false);
    expect(r.diagnostics[0].code).toBe('record-locked');
    expect(JSON.stringify([...rowsById(store)])).toBe(snapshot);
  });

  it('return a Retrieve\'s JSON columns decoded, as the stored rows hold them, and hide what a lock denies', async () => {
    const store = await lockedStore();
    runOk(store, [op('Lock', { ids: ['4'] }, { policy: { deny: ['Retrieve'] } })]);
    const include = ['id', 'text', 'tags', 'facets', 'read_whitelist', 'write_blacklist', 'weight', 'subject'];
    const r = runOk(store, [op('Retrieve', { filter: { has_tags: ['a'] } }, { include })]);
    const stored = rowsById(store);
    const result = r.results[0];
    expect(result.ids).not.toContain(4);
    expect(result.ids.length).toBe(3);
    expect(r.diagnostics.map((d) => d.code)).toContain('lock-hides-record');
    result.rows!.forEach((got, i) => {
      const want = stored.get(result.ids[i])!;
      expect(Object.keys(got)).toEqual(include);
      for (const k of include) expect(json(got[k]), `#${result.ids[i]} ${k}`).toBe(json(want[k]));
    });
    expect(result.rows![0].facets === result.rows![1].facets).toBe(false);
  });
});

describe('per-row UPDATEs in one request', () => {
  it('reach the driver as the statements the result lists, in order, with the audit entry after them', async () => {
    const store = await lockedStore();
    const calls: { sql: string; params: unknown }[] = [];
    const driver = store.driver as unknown as Record<string, (sql: string, params?: unknown) => unknown>;
    const [all, runQuery] = [driver.all.bind(driver), driver.run.bind(driver)];
    driver.all = (sql, params) => (calls.push({ sql, params }), all(sql, params));
    driver.run = (sql, params) => (calls.push({ sql, params }), runQuery(sql, params));
    const r = runOk(store, [op('Update', { filter: { has_tags: ['a'] } }, { set: { type: 'reviewed', weight: 0.8 } })]);
    const issued = calls.filter((c) => !/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/.test(c.sql));
    expect(issued.map((c) => [c.sql, c.params])).toEqual(r.results[0].sql.map((s) => [s.sql, s.params]));
    expect(r.results[0].sql.filter((s) => s.sql.startsWith('UPDATE')).length).toBe(4);
    expect(r.results[0].sql.at(-1)!.sql).toMatch(/^INSERT INTO "audit_log"/);
  });

  it('leave the store as it was when the driver fails inside the batch', async () => {
    const store = await lockedStore();
    const snapshot = JSON.stringify([...rowsById(store)]);
    const entries = auditCount(store);
    const driver = store.driver as unknown as Record<string, (sql: string, params?: unknown) => unknown>;
    const runQuery = driver.run.bind(driver);
    let updates = 0;
    driver.run = (sql, params) => {
      if (sql.startsWith('UPDATE') && ++updates === 3) throw new Error('disk full (test)');
      return runQuery(sql, params);
    };
    expect(() => run(store, [op('Update', { filter: { has_tags: ['a'] } }, { set: { type: 'reviewed' } })], { now: NOW })).toThrow('disk full (test)');
    driver.run = runQuery;
    expect(updates).toBe(3);
    expect(JSON.stringify([...rowsById(store)])).toBe(snapshot);
    expect(auditCount(store)).toBe(entries);
    // The store works on: the same statement now succeeds.
    runOk(store, [op('Update', { filter: { has_tags: ['a'] } }, { set: { type: 'reviewed' } })]);
  });
});
