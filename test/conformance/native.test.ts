/**
 * `t2m bench` runs its samples on native SQLite in memory (better-sqlite3, src/dialect/sqlite/native.ts
 * `openMemoryStore`); the browser and `--db :memory:` on sql.js. The two must score the benchmark
 * the same (the whole benchmark is compared in conformance.test.ts); better-sqlite3 is built
 * without SQLite's legacy double-quoted strings, which the benchmark's assertions rely on.
 */
import { describe, expect, it } from 'vitest';
import { assertionSql, evaluateAssertion, runBenchmark, type Assertion, type Sample } from '../../src/conformance/index.js';
import { withoutDoubleQuotedStrings, withUnplannedPatterns } from '../../src/conformance/legacy-sql.js';
import { run, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { openMemoryStore } from '../../src/dialect/sqlite/native.js';

const now = '2025-10-21T00:00:00Z';
const script = [
  { stage: 'ENC', op: 'Encode', args: { payload: { text: 'a note' }, tags: ['x'], facets: { status: 'pending_review' }, time: '2025-10-20T00:00:00Z' } },
  { stage: 'ENC', op: 'Encode', args: { payload: { text: "it's done" }, tags: ['y'], time: '2025-10-20T00:00:00Z' } },
  { stage: 'STO', op: 'Lock', target: { ids: ['1'] }, args: { mode: 'read_only' } },
];

const count = (where: string[], params?: Record<string, unknown>): Assertion => ({ name: 'n', select: { from: 'memory', where }, expect: { op: '>=', value: 0 }, ...(params ? { params } : {}) });

async function both(): Promise<Store[]> {
  const sqljs = await createStore();
  const native = openMemoryStore();
  for (const s of [sqljs, native]) expect(run(s, script, { now }).ok).toBe(true);
  return [sqljs, native];
}

describe('native SQLite in memory for the benchmark', () => {
  it('reads a double-quoted word that names no column as a string, as SQLite with legacy strings does', () => {
    expect(withoutDoubleQuotedStrings('COALESCE(lock_mode,"") <> ""')).toBe("COALESCE(lock_mode,'') <> ''");
    expect(withoutDoubleQuotedStrings('JSON_EXTRACT(facets,"$.status") = :s')).toBe("JSON_EXTRACT(facets,'$.status') = :s");
    // Columns (of memory, and of json_each's rows) stay columns; single-quoted strings are left alone; quotes are escaped.
    expect(withoutDoubleQuotedStrings('"text" LIKE \'%"x"%\' AND "Value" = "it\'s"')).toBe('"text" LIKE \'%"x"%\' AND "Value" = \'it\'\'s\'');
    expect(withoutDoubleQuotedStrings('deleted = 0')).toBe('deleted = 0');
  });

  it('counts the same on both drivers, the assertions that rely on legacy strings included', async () => {
    const [sqljs, native] = await both();
    expect(native.driver.kind).toBe('better-sqlite3');
    const cases: Assertion[] = [
      count(['deleted=0', 'COALESCE(lock_mode,"") <> ""']),
      count(['deleted=0', 'JSON_EXTRACT(facets,"$.status") LIKE :s'], { s: '%pending%' }),
      count(['EXISTS (SELECT 1 FROM json_each(tags) WHERE "value" = "x")']),
      count(['"text" = "it\'s done"']),
      count(['id IN (:ids)'], { ids: [1, 2] }),
      count(['deleted = :gone'], { gone: false }),
      count(['weight IS NULL']),
    ];
    const counts = (s: Store) => cases.map((a) => evaluateAssertion(s, a).actual);
    expect(counts(native)).toEqual([1, 1, 1, 1, 2, 2, 2]);
    expect(counts(native)).toEqual(counts(sqljs));
    sqljs.close();
    native.close();
  });

  it('writes a bound LIKE/GLOB pattern as +:p (compiled once, not again at every binding), strings and quoted names left alone', () => {
    expect(withUnplannedPatterns('(text LIKE :t) AND (EXISTS (SELECT 1 FROM json_each(tags) WHERE value like  @tag))')).toBe('(text LIKE +:t) AND (EXISTS (SELECT 1 FROM json_each(tags) WHERE value like  +@tag))');
    expect(withUnplannedPatterns('a NOT GLOB ? AND b LIKE $p ESCAPE \'\\\'')).toBe('a NOT GLOB +? AND b LIKE +$p ESCAPE \'\\\'');
    for (const same of ["text LIKE '%x%'", "text = 'LIKE :t'", '"LIKE :t" = 1', 'likeness = :t', 'text LIKE :a || :b'.replace('LIKE :a', 'LIKE (:a)')]) expect(withUnplannedPatterns(same)).toBe(same);
  });

  it('counts the same with the patterns written +:p, on both drivers, for every kind of value bound', async () => {
    const stores = await both();
    const patterns: unknown[] = ['%note%', '%NOTE%', 'a note', '%', '', 'it_s%', null, 5, true, '%\\_%'];
    for (const store of stores) {
      for (const p of patterns) {
        for (const where of ['text LIKE :p', 'text NOT LIKE :p', "text LIKE :p ESCAPE '\\'", 'EXISTS (SELECT 1 FROM json_each(tags) WHERE value LIKE :p)', 'text GLOB :p']) {
          const a = count([where], { p });
          const { sql, bind } = assertionSql(a);
          const as = (text: string) => Number(Object.values(store.driver.all(text, bind)[0])[0]);
          expect(withUnplannedPatterns(sql)).not.toBe(sql);
          expect(evaluateAssertion(store, a).actual).toBe(as(sql));
          expect(as(withUnplannedPatterns(sql))).toBe(as(sql));
        }
      }
    }
    for (const s of stores) s.close();
  });

  it('plans an assertion once per shape and binds each one its own values', () => {
    const a = count(['id IN (:ids)', 'text LIKE :t'], { ids: [1, 2], t: '%a%' });
    const first = assertionSql(a);
    expect(first).toEqual({ sql: 'SELECT COUNT(*) AS n FROM memory WHERE (id IN (:ids__0, :ids__1)) AND (text LIKE :t)', bind: { ids__0: 1, ids__1: 2, t: '%a%' } });
    expect(assertionSql({ ...a, params: { ids: [7, 8], t: '%b%' } }).bind).toEqual({ ids__0: 7, ids__1: 8, t: '%b%' });
    // Another list length, or the same names under select, is planned (and bound) on its own.
    expect(assertionSql({ ...a, params: { ids: [3], t: true } })).toEqual({ sql: 'SELECT COUNT(*) AS n FROM memory WHERE (id IN (:ids__0)) AND (text LIKE :t)', bind: { ids__0: 3, t: 1 } });
    expect(assertionSql({ ...a, params: undefined, select: { ...a.select, params: { ids: [4, 5], t: 'x' } } }).bind).toEqual({ ids__0: 4, ids__1: 5, t: 'x' });
  });

  it('runs the benchmark on a store it is given, each sample rolled back, and closes it', async () => {
    const sample: Sample = {
      id: 't2m-test-single-lock-001',
      prerequisites: script.slice(0, 2),
      schema_list: [script[2]],
      expected: { assertions: [{ ...count(['deleted=0', 'COALESCE(lock_mode,"") <> ""']), expect: { op: '==', value: 1 } }], ranking: null, meta: { eval_time_utc: now } },
    };
    const store = openMemoryStore();
    const report = await runBenchmark([sample, sample], { store });
    expect(report.assertions).toEqual({ total: 2, passed: 2 });
    expect(report.failures).toEqual([]);
    expect(() => store.query('SELECT 1')).toThrow();
  });
});
