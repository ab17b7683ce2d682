/** Transactions, dry run, audit log, locks, expiry and sweep, permissions, undo, confirmation. */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLog, explain, run, sweep, undo } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { loadStoreFile, saveStoreFile } from '../../src/dialect/sqlite/native.js';
import { currentDriver, encode, freshStore, NOW, op, reopen, row, rows, runOk } from './harness.js';

describe('the chain', () => {
  it('checks before it runs: a checker error refuses the script, warnings ride along, strict refuses them too', async () => {
    const store = await freshStore();
    // Statement 1 breaks a cross-field invariant the schema cannot see (two alternatives).
    const refused = run(store, [encode('a'), op('Promote', { ids: ['1'] }, { weight: 0.9, weight_delta: 0.1 })], { now: NOW });
    expect(refused).toMatchObject({ ok: false, results: [], diagnostics: [{ code: 'exclusive-args', severity: 'error', statement: 1, path: 'args.weight_delta' }] });
    expect(rows(store)).toHaveLength(0);
    // A write by filter without a limit is a checker warning: it runs, and the warning is on the result.
    const script = [encode('b', { tags: ['t'] }), op('Label', { filter: { has_tags: ['t'] } }, { tags: ['x'] })];
    const warned = run(store, script, { now: NOW });
    expect(warned.ok).toBe(true);
    expect(warned.diagnostics).toEqual([expect.objectContaining({ code: 'write-without-limit', severity: 'warning', statement: 1 })]);
    const strict = run(store, script, { now: NOW, policy: 'strict' });
    expect(strict).toMatchObject({ ok: false, diagnostics: [{ code: 'write-without-limit', severity: 'error', statement: 1 }] });
    expect(rows(store)).toHaveLength(1);
  });

  it('returns a refusal met while executing as a diagnostic of the statement, never as an exception', async () => {
    const store = await freshStore();
    runOk(store, [encode('a'), encode('b'), op('Lock', { ids: ['2'] }, { mode: 'read_only' })]);
    const r = run(store, [op('Merge', { ids: ['1', '2'] })], { now: NOW });
    expect(r).toMatchObject({ ok: false, results: [], diagnostics: [{ code: 'record-locked', severity: 'error', statement: 0 }] });
    expect(rows(store).map((x) => x.deleted)).toEqual([0, 0]);
  });
});

describe('transactions', () => {
  it('rolls back the whole script when a statement fails, naming it and its span', async () => {
    const store = await freshStore();
    runOk(store, [encode('keep me', { tags: ['k'] })]);
    const span = { start: { line: 3, column: 1, offset: 20 }, end: { line: 3, column: 9, offset: 28 } };
    const r = run(store, [encode('new'), op('Label', { ids: ['1'] }, { tags: ['x'] }), op('Merge', { ids: ['1'] })], {
      now: NOW,
      sourceMaps: [undefined, undefined, new Map([['', span]])],
    });
    expect(r.ok).toBe(false);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'merge-needs-two', severity: 'error', statement: 2, range: span })]);
    expect(rows(store).map((x) => [x.id, x.tags])).toEqual([[1, '["k"]']]);
    expect(auditLog(store).map((e) => e.op)).toEqual(['Encode']);
  });

  it('rejects an invalid IR before running anything', async () => {
    const store = await freshStore();
    const r = run(store, [encode('a'), { stage: 'STO', op: 'Delet', target: { ids: '1' } }], { now: NOW });
    expect(r.ok).toBe(false);
    expect(r.diagnostics[0]).toMatchObject({ code: 'unknown-op', statement: 1 });
    expect(rows(store)).toEqual([]);
  });

  it('reports a bad clock as a diagnostic', async () => {
    const r = run(await freshStore(), [encode('a')], { now: 'yesterday' });
    expect(r).toMatchObject({ ok: false, diagnostics: [{ code: 'invalid-datetime' }] });
  });
});

describe('dry run', () => {
  it('returns the plan and would-be ids, changing nothing', async () => {
    const store = await freshStore();
    runOk(store, [encode('a', { tags: ['t'] }), encode('b', { tags: ['t'] })]);
    const r = runOk(store, [op('Delete', { filter: { has_tags: ['t'] } }, { soft: false }, { dry_run: true }), op('Retrieve', { filter: { has_tags: ['t'] } })]);
    expect(r.results[0]).toMatchObject({ dryRun: true, ids: [2, 1] });
    expect(r.results[0].sql.map((s) => s.sql.split(' ')[0])).toEqual(['SELECT', 'DELETE', 'DELETE', 'INSERT']);
    expect(r.results[1].ids).toEqual([2, 1]);
    expect(rows(store)).toHaveLength(2);
  });

  it('reports a refusal of a dry-run statement in its result; the rest of the script commits', async () => {
    const store = await freshStore();
    runOk(store, [encode('kept', { tags: ['t'] }), op('Lock', { ids: ['1'] }, { mode: 'append_only', reason: 'audit' })]);
    const r = run(store, [
      encode('new'),
      op('Delete', { filter: { has_tags: ['t'] } }, {}, { dry_run: true }),
      op('Label', { ids: ['2'] }, { tags: ['x'] }),
    ], { now: NOW });
    expect(r.ok).toBe(true);
    expect(r.results[1]).toMatchObject({ dryRun: true, ids: [], changes: [], refused: { code: 'record-locked', severity: 'error', statement: 1 } });
    expect(r.results[1].refused!.message).toMatch(/memory #1 is locked append_only/);
    // The checker's warning (a write by filter without a limit) rides along, before the run's own.
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ code: 'write-without-limit', severity: 'warning', statement: 1 }),
      expect.objectContaining({ code: 'record-locked', severity: 'warning', statement: 1 }),
    ]);
    expect(rows(store).map((x) => [x.id, x.deleted, x.tags])).toEqual([[1, 0, '["t"]'], [2, 0, '["x"]']]);
    // Bad input in a dry-run statement is still an error that stops the script.
    const bad = run(store, [encode('more'), op('Delete', { ids: ['1'] }, { older_than: 'soon' }, { dry_run: true })], { now: NOW });
    expect(bad).toMatchObject({ ok: false, diagnostics: [{ code: 'invalid-duration', statement: 1 }] });
    expect(rows(store)).toHaveLength(2);
    // explain predicts a real run, which the refusal would stop.
    expect(explain(store, [op('Delete', { ids: ['1'] })], { now: NOW }).diagnostics[0]).toMatchObject({ code: 'record-locked', severity: 'error' });
  });

  it('explain runs a whole script and rolls it back; ids are not consumed', async () => {
    const store = await freshStore();
    const r = explain(store, [encode('a'), encode('b')], { now: NOW });
    expect(r.results.map((x) => x.ids)).toEqual([[1], [2]]);
    expect(rows(store)).toEqual([]);
    expect(runOk(store, [encode('c')]).results[0].ids).toEqual([1]);
  });
});

describe('audit log', () => {
  it('records actor, time, op, IR, affected ids and before/after of every write, not reads', async () => {
    const store = await freshStore();
    const ir = op('Label', { ids: ['1'] }, { tags: ['x'] });
    runOk(store, [encode('a', { tags: ['t'] }), ir, op('Retrieve', { ids: ['1'] })], { actor: 'ann' });
    const log = auditLog(store);
    expect(log.map((e) => e.op)).toEqual(['Encode', 'Label']);
    expect(log[1]).toMatchObject({ actor: 'ann', at: NOW, ir, affectedIds: [1], before: { 1: { tags: ['t'] } }, after: { 1: { tags: ['t', 'x'] } } });
  });
});

describe('locks', () => {
  it('refuse later writes with an error naming the record and the lock, until the lock expires', async () => {
    const store = await freshStore();
    runOk(store, [encode('doc', { tags: ['d'] }), op('Lock', { filter: { has_tags: ['d'] } }, { mode: 'read_only', reason: 'final', policy: { expires: '2025-12-01T00:00:00Z' } })]);
    for (const ir of [op('Update', { ids: ['1'] }, { set: { text: 'x' } }), op('Delete', { ids: ['1'] }), op('Label', { ids: ['1'] }, { tags: ['x'] }), op('Lock', { ids: ['1'] }, { mode: 'append_only' })]) {
      const r = run(store, [ir], { now: NOW });
      expect(r.ok).toBe(false);
      expect(r.diagnostics[0].code).toBe('record-locked');
      expect(r.diagnostics[0].message).toMatch(/memory #1 is locked read_only until 2025-12-01T00:00:00Z \(reason: final\)/);
    }
    // Reads are not refused.
    expect(runOk(store, [op('Retrieve', { ids: ['1'] })]).results[0].ids).toEqual([1]);
    // After the lock expires, writes go through.
    runOk(store, [op('Update', { ids: ['1'] }, { set: { text: 'x' } })], { now: '2025-12-02T00:00:00Z' });
    expect(row(store, 1).text).toBe('x');
  });

  it('append-only allows adding tags but not changing or removing content', async () => {
    const store = await freshStore();
    runOk(store, [encode('log'), op('Lock', { ids: ['1'] }, { mode: 'append_only' }), op('Label', { ids: ['1'] }, { tags: ['more'] })]);
    expect(run(store, [op('Label', { ids: ['1'] }, { tags: ['more'], mode: 'remove' })], { now: NOW }).diagnostics[0].code).toBe('record-locked');
    expect(run(store, [op('Delete', { ids: ['1'] })], { now: NOW }).diagnostics[0].code).toBe('record-locked');
  });

  it('policies allow, deny, and let reviewers through', async () => {
    const store = await freshStore();
    runOk(store, [encode('a'), encode('b'), op('Lock', { ids: ['1'] }, { policy: { allow: ['Promote'], reviewers: ['rev'] } }), op('Lock', { ids: ['2'] }, { mode: 'append_only', policy: { deny: ['Label'] } })]);
    expect(row(store, 1).lock_mode).toBe('custom');
    runOk(store, [op('Promote', { ids: ['1'] }, { weight_delta: 0.1 })]);
    expect(run(store, [op('Demote', { ids: ['1'] }, { archive: true })], { now: NOW }).diagnostics[0].message).toMatch(/allows only Promote/);
    runOk(store, [op('Demote', { ids: ['1'] }, { archive: true })], { actor: 'rev' });
    expect(run(store, [op('Label', { ids: ['2'] }, { tags: ['x'] })], { now: NOW }).diagnostics[0].message).toMatch(/denies Label/);
  });
});

describe('locks and reads', () => {
  it('hide a record from a read its policy explicitly denies, except to reviewers', async () => {
    const store = await freshStore();
    runOk(store, [encode('a', { tags: ['t'] }), encode('b', { tags: ['t'] }), op('Lock', { ids: ['1'] }, { mode: 'read_only', policy: { deny: ['Retrieve'], reviewers: ['rev'] } })]);
    const r = runOk(store, [op('Retrieve', { filter: { has_tags: ['t'] } })]);
    expect(r.results[0].ids).toEqual([2]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['lock-hides-record']);
    expect(runOk(store, [op('Retrieve', { filter: { has_tags: ['t'] } })], { actor: 'rev' }).results[0].ids).toEqual([2, 1]);
  });
});

describe('expiry and sweep', () => {
  it('hides a record once the clock passes expire_at, and applies the action only on sweep', async () => {
    const store = await freshStore();
    runOk(store, [encode('temp', { tags: ['t'] }), op('Expire', { ids: ['1'] }, { ttl: 'P1D', on_expire: 'soft_delete' })]);
    const later = '2025-10-23T00:00:00Z';
    expect(runOk(store, [op('Retrieve', { filter: { has_tags: ['t'] } })], { now: later }).results[0].ids).toEqual([]);
    expect(row(store, 1).deleted).toBe(0);
    expect(runOk(store, [op('Retrieve', { filter: { has_tags: ['t'] } })]).results[0].ids).toEqual([1]);
    const s = sweep(store, later);
    expect('applied' in s && s.applied).toEqual([{ id: 1, action: 'soft_delete' }]);
    expect(row(store, 1).deleted).toBe(1);
    expect(auditLog(store).at(-1)).toMatchObject({ op: 'Sweep', actor: 'system:sweep', affectedIds: [1] });
  });

  it('applies hard_delete, demote and anonymize; demoted and anonymized records come back', async () => {
    const store = await freshStore();
    runOk(store, [
      encode('gone'), encode('demoted'), encode('secret about Ann', { facets: { subject: 'Ann' } }), encode('not due'),
      op('Expire', { ids: ['1'] }, { until: '2025-10-22T00:00:00Z', on_expire: 'hard_delete' }),
      op('Expire', { ids: ['2'] }, { until: '2025-10-22T00:00:00Z', on_expire: 'demote' }),
      op('Expire', { ids: ['3'] }, { until: '2025-10-22T00:00:00Z', on_expire: 'anonymize' }),
      op('Expire', { ids: ['4'] }, { until: '2026-10-22T00:00:00Z' }),
    ]);
    sweep(store, '2025-10-23T00:00:00Z');
    expect(rows(store).map((r) => r.id)).toEqual([2, 3, 4]);
    expect(row(store, 2)).toMatchObject({ weight: 0.1, expire_at: null });
    expect(row(store, 3)).toMatchObject({ text: '[anonymized]', subject: null, facets: {}, expire_at: null });
    expect(row(store, 4).expire_at).toBe('2026-10-22T00:00:00Z');
  });
});

describe('sweep and locks', () => {
  it('leaves a due record under a lock alone until the lock lapses', async () => {
    const store = await freshStore();
    runOk(store, [encode('held'), op('Expire', { ids: ['1'] }, { until: '2025-10-22T00:00:00Z', on_expire: 'hard_delete' }), op('Lock', { ids: ['1'] }, { mode: 'read_only', policy: { expires: '2025-11-01T00:00:00Z' } })]);
    const first = sweep(store, '2025-10-23T00:00:00Z');
    expect('skipped' in first && first.skipped.map((x) => x.id)).toEqual([1]);
    expect(rows(store)).toHaveLength(1);
    const later = sweep(store, '2025-11-02T00:00:00Z');
    expect('applied' in later && later.applied).toEqual([{ id: 1, action: 'hard_delete' }]);
    expect(rows(store)).toHaveLength(0);
  });
});

describe('read permissions', () => {
  it('show public and team records to named actors, private ones to their owner and whitelist only', async () => {
    const store = await freshStore();
    runOk(store, [
      encode('public', { tags: ['p'] }),
      encode('team', { tags: ['p'], read_perm_level: 'team' }),
      encode('private', { tags: ['p'], read_perm_level: 'private', read_whitelist: ['bob'] }),
      encode('blocked', { tags: ['p'], read_blacklist: ['bob'] }),
    ], { actor: 'ann' });
    const ids = (actor?: string) => runOk(store, [op('Retrieve', { filter: { has_tags: ['p'] } })], { actor }).results[0].ids.slice().sort();
    expect(ids('ann')).toEqual([1, 2, 3, 4]);
    expect(ids('bob')).toEqual([1, 2, 3]);
    expect(ids('eve')).toEqual([1, 2, 4]);
    expect(ids(undefined)).toEqual([1, 4]);
  });

  it('say that a record asked for by id is not readable by the actor, without its content', async () => {
    const store = await freshStore();
    runOk(store, [encode('secret plan', { read_perm_level: 'private' }), encode('open')], { actor: 'ann' });
    const r = runOk(store, [op('Retrieve', { ids: ['1', '2', '7'] }), op('Summarize', { ids: ['1'] })], { actor: 'eve' });
    expect(r.results[0].ids).toEqual([2]);
    expect(r.diagnostics.map((d) => [d.code, d.statement, d.message])).toEqual([
      ['not-readable', 0, "memory #1 is not readable by actor 'eve'; left out"],
      ['ids-not-found', 0, 'no live record with id 7'],
      ['not-readable', 1, "memory #1 is not readable by actor 'eve'; left out"],
    ]);
    expect(JSON.stringify(r)).not.toMatch(/secret/);
    expect(runOk(store, [op('Retrieve', { ids: ['1'] })]).diagnostics[0].message).toMatch(/not readable by an anonymous reader/);
    expect(runOk(store, [op('Retrieve', { ids: ['1'] })], { actor: 'ann' }).diagnostics).toEqual([]);
  });

  it('refuse writes by actors the record does not allow', async () => {
    const store = await freshStore();
    runOk(store, [encode('mine', { write_perm_level: 'owner_only' })], { actor: 'ann' });
    const r = run(store, [op('Delete', { ids: ['1'] })], { now: NOW, actor: 'eve' });
    expect(r.diagnostics[0]).toMatchObject({ code: 'permission-denied' });
    expect(r.diagnostics[0].message).toMatch(/only its owner 'ann'/);
    runOk(store, [op('Delete', { ids: ['1'] })], { actor: 'ann' });
  });
});

describe('undo', () => {
  it('restores soft-deleted records from the audit log, once', async () => {
    const store = await freshStore();
    runOk(store, [encode('a', { tags: ['t'] }), encode('b', { tags: ['t'] }), op('Delete', { filter: { has_tags: ['t'] } })]);
    const entry = auditLog(store).find((e) => e.op === 'Delete')!;
    const u = undo(store, entry.id, { now: NOW, actor: 'ann' });
    expect(u).toMatchObject({ ok: true, restored: [1, 2] });
    expect(rows(store).map((r) => r.deleted)).toEqual([0, 0]);
    expect(undo(store, entry.id)).toMatchObject({ ok: false, diagnostics: [{ code: 'undo-already-done' }] });
    expect(undo(store, 1)).toMatchObject({ ok: false, diagnostics: [{ code: 'undo-unsupported' }] });
    expect(undo(store, 99)).toMatchObject({ ok: false, diagnostics: [{ code: 'undo-not-found' }] });
  });
});

describe('undo of a sweep', () => {
  it('makes the swept record live again: its passed expiry is cleared and audited, a later sweep leaves it alone', async () => {
    const store = await freshStore();
    runOk(store, [encode('temp', { tags: ['t'] }), encode('other', { tags: ['t'] }), op('Expire', { ids: ['1'] }, { until: '2025-10-22T00:00:00Z', reason: 'tmp' })]);
    const later = '2025-10-23T00:00:00Z';
    sweep(store, later);
    const entry = auditLog(store).at(-1)!;
    expect(entry.op).toBe('Sweep');
    const u = undo(store, entry.id, { now: later });
    expect(u).toMatchObject({ ok: true, restored: [1], unexpired: [1] });
    expect(row(store, 1)).toMatchObject({ deleted: 0, expire_at: null, expire_action: null, expire_reason: null });
    expect(runOk(store, [op('Retrieve', { filter: { has_tags: ['t'] } })], { now: later }).results[0].ids).toEqual([2, 1]);
    expect(auditLog(store).at(-1)).toMatchObject({ op: 'Undo', before: { 1: { deleted: 1, expire_at: '2025-10-22T00:00:00Z' } }, after: { 1: { deleted: 0, expire_at: null } } });
    expect(sweep(store, '2025-10-24T00:00:00Z')).toMatchObject({ applied: [], skipped: [] });
  });

  it('keeps an expiry that has not passed yet', async () => {
    const store = await freshStore();
    runOk(store, [encode('a'), op('Expire', { ids: ['1'] }, { until: '2026-01-01T00:00:00Z' }), op('Delete', { ids: ['1'] })]);
    const u = undo(store, auditLog(store).at(-1)!.id, { now: NOW });
    expect(u).toMatchObject({ ok: true, restored: [1], unexpired: [] });
    expect(row(store, 1)).toMatchObject({ deleted: 0, expire_at: '2026-01-01T00:00:00Z' });
  });
});

describe('confirmation', () => {
  it('refuses a write on all records without meta.confirmation', async () => {
    const store = await freshStore();
    runOk(store, [encode('a'), encode('b')]);
    expect(run(store, [op('Delete', { all: true })], { now: NOW }).diagnostics[0]).toMatchObject({ code: 'all-requires-confirmation', path: 'target.all' });
    runOk(store, [op('Delete', { all: true }, {}, { confirmation: true })]);
    expect(rows(store).map((r) => r.deleted)).toEqual([1, 1]);
  });
});

describe('store files', () => {
  it('writes in place and loads back; a missing file is a fresh store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 't2m-'));
    const path = join(dir, 'store.sqlite');
    const fresh = await loadStoreFile(path);
    expect(fresh.ok).toBe(true);
    if (!fresh.ok) return;
    runOk(fresh.store, [encode('persisted')]);
    // The commit was the save: there is nothing left to do.
    expect(saveStoreFile(fresh.store, path)).toBeNull();
    fresh.store.close();
    expect(readdirSync(dir)).toEqual(['store.sqlite']);
    const again = await loadStoreFile(path);
    expect(again.ok && rows(again.store)[0].text).toBe('persisted');
    expect(again.ok && runOk(again.store, [encode('next')]).results[0].ids).toEqual([2]);
    if (again.ok) again.store.close();
  });

  it('gives a clear error for a corrupt or foreign file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 't2m-'));
    writeFileSync(join(dir, 'junk.sqlite'), 'this is not a database at all, just text'.repeat(50));
    const junk = await loadStoreFile(join(dir, 'junk.sqlite'));
    expect(junk).toMatchObject({ ok: false, diagnostics: [{ code: 'bad-store-file' }] });
    expect(!junk.ok && junk.diagnostics[0].message).toMatch(/junk\.sqlite is not an SQLite database/);
    const other = await createStore();
    other.exec('DROP TABLE memory');
    other.exec('CREATE TABLE people (name TEXT)');
    writeFileSync(join(dir, 'other.sqlite'), other.export());
    const foreign = await loadStoreFile(join(dir, 'other.sqlite'));
    expect(!foreign.ok && foreign.diagnostics[0].message).toMatch(/not a Text2Mem store: it has no 'memory' table/);
  });
});

describe('tag index', () => {
  // SQLite's tag index is a table kept by triggers; PostgreSQL's is a GIN index on tags (test/store/postgres-dialect.test.ts).
  it.skipIf(currentDriver() === 'pglite' || currentDriver() === 'postgres')('follows every change of memory.tags, and is rebuilt for a store that lacks it', async () => {
    const store = await freshStore();
    const index = () => rows(store, 'SELECT memory_id, tag FROM memory_tag ORDER BY memory_id, tag').map((r) => `${r.memory_id}:${r.tag}`);
    runOk(store, [
      encode('a', { tags: ['x', 'y'] }), encode('b', { tags: ['y'] }), encode('c'),
      op('Label', { ids: ['3'] }, { tags: ['z'] }),
      op('Update', { ids: ['1'] }, { set: { tags: ['w'] } }),
      op('Delete', { ids: ['2'] }, { soft: false }),
    ]);
    expect(index()).toEqual(['1:w', '3:z']);
    expect(runOk(store, [op('Retrieve', { filter: { has_tags: ['z'] } })]).results[0].ids).toEqual([3]);
    store.exec('DROP TABLE memory_tag');
    const reopened = await reopen(store);
    expect(runOk(reopened, [op('Retrieve', { filter: { has_tags: ['w'] } })]).results[0].ids).toEqual([1]);
    reopened.close();
  });
});

describe('diagnostics point into DSL source', () => {
  it('a refusal names the statement and spans it', async () => {
    const { textToIr } = await import('../../src/pipeline.js');
    const text = 'ENCODE "doc";\nLOCK ID "1" MODE read_only;\nUPDATE ID "1" SET text = "changed";\n';
    const front = textToIr(text);
    expect(front.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const store = await freshStore();
    const r = run(store, front.irs, { now: NOW, sourceMaps: front.sourceMaps });
    expect(r.ok).toBe(false);
    const d = r.diagnostics[0];
    expect(d).toMatchObject({ code: 'record-locked', statement: 2 });
    expect(text.slice(d.range!.start.offset, d.range!.end.offset)).toMatch(/^UPDATE ID "1" SET text = "changed"/);
    expect(d.range!.start).toMatchObject({ line: 3, column: 1 });
    expect(rows(store)).toEqual([]);
  });
});
