/**
 * The async seam (src/store/io.ts): the engine's one code path driven by an asynchronous driver.
 * `Later` wraps the sql.js driver so that every call resolves on a later tick (as PGlite or a
 * server would); the same scripts run through `run` on a synchronous store and through `run`
 * on the wrapped one must give identical results, rows and audit logs.
 */
import { describe, expect, it } from 'vitest';
import {
  auditLog, explain, run, Store, sweep, undo,
  type AsyncSqlDriver, type SqlDriver,
} from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { sqlite } from '../../src/dialect/sqlite/dialect.js';
import type { SqlParams, SqlRow } from '../../src/store/driver.js';
import { encode, NOW, op } from './harness.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An asynchronous driver over a synchronous one: each answer comes on a later tick; `failOn` makes matching SQL reject. */
class Later implements AsyncSqlDriver {
  readonly kind = 'later';
  readonly async = true as const;
  readonly log: string[] = [];
  failOn?: RegExp;
  constructor(readonly inner: SqlDriver) {}
  get location() { return `later:${this.inner.location}`; }
  private async answer<T>(what: string, f: () => T): Promise<T> {
    await tick();
    this.log.push(what);
    if (this.failOn?.test(what)) throw new Error(`injected failure: ${what}`);
    return f();
  }
  all(sql: string, params?: SqlParams): Promise<SqlRow[]> { return this.answer(sql, () => this.inner.all(sql, params)); }
  run(sql: string, params?: SqlParams): Promise<number> { return this.answer(sql, () => this.inner.run(sql, params)); }
  exec(sql: string): Promise<void> { return this.answer(sql, () => this.inner.exec(sql)); }
  begin(): Promise<void> { return this.answer('BEGIN', () => this.inner.begin()); }
  commit(): Promise<void> { return this.answer('COMMIT', () => this.inner.commit()); }
  rollback(): Promise<void> { return this.answer('ROLLBACK', () => this.inner.rollback()); }
  close(): Promise<void> { return this.answer('CLOSE', () => this.inner.close()); }
}

async function pair() {
  const sync = await createStore();
  const inner = (await createStore()).driver;
  const later = new Later(inner);
  const async = new Store(later, { dialect: sqlite });
  const dump = (d: SqlDriver) => d.all('SELECT * FROM memory ORDER BY id');
  return { sync, async, later, inner, dump };
}

/** Representative scripts of the engine suite: every verb, references, dry run, refusals, reads. */
const SCRIPTS: { irs: unknown[]; actor?: string }[] = [
  { irs: [encode('Budget meeting with the vendor', { tags: ['work', 'budget'], type: 'note' }), encode('Launch review next week', { tags: ['work'] }), encode('Call mum on Sunday', { tags: ['family'] })] },
  { irs: [op('Label', { ids: ['1', '2'] }, { tags: ['q3'] }), op('Promote', { ids: ['1'] }, { weight_delta: 0.2 }), op('Demote', { ids: ['3'] }, { weight_delta: 0.1 })] },
  { irs: [{ ...encode('one. two. three. four.'), _let: 'a' }, op('Split', { ids: [{ $ref: 'a' }] }, { strategy: 'by_sentences', params: { by_sentences: { max_sentences: 2 } } })] },
  { irs: [op('Retrieve', { search: { intent: { query: 'budget vendor' }, overrides: { k: 5 } } }, { include: ['id', 'text', 'tags'] })] },
  { irs: [op('Summarize', { ids: ['1', '2'] }, { focus: 'work', max_tokens: 50 })] },
  { irs: [op('Merge', { ids: ['1', '2'] })] },
  { irs: [op('Lock', { ids: ['3'] }, { mode: 'read_only', reason: 'family' })] },
  // Refused: the lock; the script is rolled back (the Label before it too).
  { irs: [op('Label', { ids: ['1'] }, { tags: ['x'] }), op('Update', { ids: ['3'] }, { set: { text: 'changed' } })] },
  { irs: [op('Update', { ids: ['1'] }, { set: { text: 'Budget merged' } }, { dry_run: true }), op('Delete', { ids: ['5'] }, { soft: true })] },
  { irs: [op('Expire', { ids: ['4'] }, { ttl: 'P1D', on_expire: 'demote' })] },
  { irs: [op('Delete', { ids: ['6'] }, { soft: true }), op('Retrieve', { filter: { has_tags: ['work'], limit: 10 } }, { include: ['id', 'text'] })] },
  { irs: [encode('private note', { meta: { actor: 'ann' } })], actor: 'ann' },
  { irs: [op('Retrieve', { ids: ['7'] }, { include: ['id', 'text'] })], actor: 'bob' },
];

describe('the async seam', () => {
  it('runs the same scripts through run on an asynchronous driver with identical results, rows and audit log', async () => {
    const { sync, async, later, inner, dump } = await pair();
    const oks: boolean[] = [];
    for (const { irs, actor } of SCRIPTS) {
      const a = run(sync, irs, { now: NOW, actor, traceId: 'trace-1' });
      const b = await run(async, irs, { now: NOW, actor, traceId: 'trace-1' });
      expect(b, JSON.stringify(irs)).toEqual(a);
      oks.push(b.ok);
    }
    // All but the refused script commit (so the comparison covers real work, not one refusal).
    expect(oks.filter((ok) => !ok)).toHaveLength(1);
    expect(dump(inner)).toEqual(dump(sync.driver));
    expect(await explain(async, [op('Delete', { ids: ['1'] })], { now: NOW, traceId: 'trace-1' })).toEqual(explain(sync, [op('Delete', { ids: ['1'] })], { now: NOW, traceId: 'trace-1' }));
    const later2 = '2025-10-25T00:00:00Z';
    expect(await sweep(async, later2)).toEqual(sweep(sync, later2));
    const softDelete = auditLog(sync).find((e) => e.op === 'Delete')!.id;
    expect(await undo(async, softDelete, { now: later2 })).toEqual(undo(sync, softDelete, { now: later2 }));
    expect(await auditLog(async)).toEqual(auditLog(sync));
    expect(dump(inner)).toEqual(dump(sync.driver));
    // The refused script really went through the asynchronous driver and was rolled back there.
    expect(later.log.filter((s) => s === 'ROLLBACK').length).toBeGreaterThan(0);
  });

  it('rolls a failing script back on the asynchronous driver, whether refused or failed by the driver', async () => {
    const { async, later, inner, dump } = await pair();
    await run(async, [encode('keep', { tags: ['k'] })], { now: NOW });
    const before = dump(inner);
    const refused = await run(async, [encode('new'), op('Label', { ids: ['1'] }, { tags: ['x'] }), op('Merge', { ids: ['1'] })], { now: NOW });
    expect(refused).toMatchObject({ ok: false, diagnostics: [{ code: 'merge-needs-two', statement: 2 }] });
    expect(dump(inner)).toEqual(before);
    // A driver failure half-way (the audit insert of the second statement) rejects, after a rollback.
    later.failOn = /INSERT INTO "audit_log"|INSERT INTO audit_log/;
    await expect(run(async, [op('Label', { ids: ['1'] }, { tags: ['y'] })], { now: NOW })).rejects.toThrow(/injected failure/);
    expect(later.log.at(-1)).toBe('ROLLBACK');
    later.failOn = undefined;
    expect(dump(inner)).toEqual(before);
    expect((await auditLog(async)).map((e) => e.op)).toEqual(['Encode']);
    // The store is usable afterwards: the depth of nested transactions was restored.
    expect((await run(async, [op('Label', { ids: ['1'] }, { tags: ['y'] })], { now: NOW })).ok).toBe(true);
  });

  it('runs concurrent scripts on one asynchronous store one after another', async () => {
    const { async, inner } = await pair();
    const results = await Promise.all([1, 2, 3, 4].map((n) => run(async, [encode(`m${n}`), encode(`n${n}`)], { now: NOW })));
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true]);
    expect(results.map((r) => r.results.map((s) => s.ids[0]))).toEqual([[1, 2], [3, 4], [5, 6], [7, 8]]);
    expect(inner.all('SELECT count(*) AS n FROM memory')[0].n).toBe(8);
  });

  it('answers an asynchronous store with a promise from the same entry point (the store chooses), and refuses a synchronous query on it', async () => {
    const { async } = await pair();
    const ran = run(async, [encode('a')], { now: NOW });
    expect(ran).toBeInstanceOf(Promise);
    expect((await ran).ok).toBe(true);
    const log = auditLog(async);
    expect(log).toBeInstanceOf(Promise);
    expect((await log).map((e) => e.op)).toEqual(['Encode']);
    expect(() => (async as unknown as Store).query('SELECT 1')).toThrow(/run/);
  });
});
