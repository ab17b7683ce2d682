/** Regression tests for the governance findings of issue 8 (spec/security.md). */
import { describe, expect, it } from 'vitest';
import { auditLog, run, sweep, undo } from '../../src/engine/index.js';
import { lowerIr } from '../../src/lower/index.js';
import { textToIr } from '../../src/pipeline.js';
import { encode, freshStore, NOW, op, row, rows, runOk } from '../engine/harness.js';

const codes = (r: { diagnostics: readonly { code: string; severity: string }[] }) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

async function threeRecords(args: Record<string, unknown> = {}) {
  const store = await freshStore();
  runOk(store, [encode('Secret one. Two.', { tags: ['a'], ...args }), encode('Other three. Four.', { tags: ['b'] }), encode('Third.', { tags: ['c'] })], { actor: 'alice' });
  return store;
}

describe('1. vacuous conditions', () => {
  for (const dsl of ['DELETE WHERE tags HAS "" LIMIT 1000 HARD', 'DELETE WHERE tags HAS "  " LIMIT 1000 HARD', 'DELETE WHERE facets = {} LIMIT 1000 HARD']) {
    it(`${dsl} is empty-condition and deletes nothing`, async () => {
      const store = await threeRecords();
      const front = textToIr(dsl);
      expect(front.diagnostics.map((d) => d.code)).toContain('empty-condition');
      const r = run(store, front.irs, { now: NOW });
      expect(codes(r)).toContain('empty-condition');
      expect(rows(store)).toHaveLength(3);
    });
  }
  it('lowering never turns a written condition into no condition', () => {
    const l = lowerIr({ stage: 'STO', op: 'Delete', target: { filter: { has_tags: [' '], limit: 5 } } } as never, { now: new Date(NOW) });
    expect(l.ok).toBe(false);
    expect(!l.ok && l.diagnostics.map((d) => [d.code, d.path])).toEqual([['empty-condition', 'target.filter.has_tags.0']]);
  });
});

describe('3. reads do not leak through writes', () => {
  it('redacts a dry-run Delete and Update of an unreadable record; refuses Merge and Split (read-denied)', async () => {
    const store = await threeRecords({ read_perm_level: 'private' });
    const dry = runOk(store, [op('Delete', { ids: [1] }, { soft: false }, { dry_run: true }), op('Update', { ids: [1] }, { set: { text: 'x' } }, { dry_run: true })], { actor: 'bob' });
    expect(JSON.stringify(dry.results)).not.toContain('Secret');
    expect(dry.results[0].changes[0].before).toMatchObject({ text: '[redacted]' });
    for (const ir of [op('Merge', { ids: [2, 1] }, { primary_id: 2 }), op('Split', { ids: [1] }, { inherit_all: false })]) {
      const r = run(store, [ir], { now: NOW, actor: 'bob' });
      expect(codes(r)).toEqual(['read-denied']);
    }
    expect(rows(store).map((r) => r.text)).toEqual(['Secret one. Two.', 'Other three. Four.', 'Third.']);
  });
  it('Split pieces keep the owner and permissions whatever inherit_all says', async () => {
    const store = await threeRecords({ read_perm_level: 'private' });
    runOk(store, [op('Split', { ids: [1] }, { inherit_all: false })], { actor: 'alice' });
    for (const id of [4, 5]) expect(row(store, id)).toMatchObject({ owner: 'alice', read_perm_level: 'private' });
  });
});

describe('4. undo checks locks and write permissions', () => {
  it('refuses an undo by an actor who may not write the record, and under a read-only lock', async () => {
    const store = await threeRecords({ write_perm_level: 'owner_only' });
    runOk(store, [op('Delete', { ids: [1] })], { actor: 'alice' });
    const entry = auditLog(store).at(-1)!.id;
    expect(undo(store, entry, { now: NOW, actor: 'bob' })).toMatchObject({ ok: false, diagnostics: [{ code: 'permission-denied' }] });
    store.exec(`UPDATE memory SET lock_mode = 'read_only' WHERE id = 1`);
    expect(undo(store, entry, { now: NOW, actor: 'alice' })).toMatchObject({ ok: false, diagnostics: [{ code: 'record-locked' }] });
    expect(row(store, 1).deleted).toBe(1);
  });
});

describe('5. deny [Delete] protects the record from every verb that would remove it', () => {
  const cases: [string, unknown][] = [
    ['Merge soft', op('Merge', { ids: [2, 1] }, { primary_id: 2 })],
    ['Merge hard', op('Merge', { ids: [2, 1] }, { primary_id: 2, soft_delete_children: false })],
    ['Split', op('Split', { ids: [1] }, {})],
    ['Expire hard_delete', op('Expire', { ids: [1] }, { ttl: 'P1D', on_expire: 'hard_delete' })],
    ['Update expire_at', op('Update', { ids: [1] }, { set: { expire_at: '2026-01-01T00:00:00Z' } })],
  ];
  for (const [name, ir] of cases) {
    it(name, async () => {
      const store = await threeRecords();
      runOk(store, [op('Lock', { ids: [1] }, { policy: { deny: ['Delete'] } })], { actor: 'alice' });
      expect(codes(run(store, [ir], { now: NOW, actor: 'alice' }))).toEqual(['record-locked']);
      expect(row(store, 1).deleted).toBe(0);
    });
  }
  it('sweep skips a due record whose lock denies Delete', async () => {
    const store = await threeRecords();
    store.exec(`UPDATE memory SET expire_at = '2025-01-01T00:00:00Z', expire_action = 'hard_delete', lock_mode = 'custom', lock_policy = '{"deny":["Delete"]}' WHERE id = 1`);
    const s = sweep(store, NOW);
    expect('skipped' in s && s.skipped.map((x) => x.id)).toEqual([1]);
    expect(rows(store)).toHaveLength(3);
  });
});

describe('6. append_only allows additions only', () => {
  it('refuses a Label add that overwrites a facet or the subject column, allows a new facet key', async () => {
    const store = await threeRecords({ facets: { k: 'v', subject: 's' } });
    runOk(store, [op('Lock', { ids: [1] }, { mode: 'append_only' })], { actor: 'alice' });
    expect(codes(run(store, [op('Label', { ids: [1] }, { facets: { k: 'other' }, mode: 'add' })], { now: NOW, actor: 'alice' }))).toEqual(['record-locked']);
    expect(codes(run(store, [op('Label', { ids: [1] }, { facets: { subject: 'other' }, mode: 'add' })], { now: NOW, actor: 'alice' }))).toEqual(['record-locked']);
    runOk(store, [op('Label', { ids: [1] }, { facets: { fresh: 'new' }, tags: ['z'], mode: 'add' })], { actor: 'alice' });
    expect(row(store, 1)).toMatchObject({ subject: 's', facets: { k: 'v', subject: 's', fresh: 'new' }, tags: ['a', 'z'] });
  });
});

describe('7. escapes are validated as their clauses', () => {
  it('LOCK … SET lock_mode = "readonly" is invalid-enum; UPDATE SET owner / lock_mode is governed-column', async () => {
    const store = await threeRecords();
    for (const [dsl, code] of [['LOCK ID "1" SET lock_mode = "readonly"', 'invalid-enum'], ['UPDATE ID "1" SET owner = "eve"', 'governed-column'], ['UPDATE ID "1" SET lock_mode = "read_only"', 'governed-column']]) {
      const front = textToIr(dsl);
      expect(codes(run(store, front.irs, { now: NOW, actor: 'alice' }))).toEqual([code]);
    }
    expect(row(store, 1)).toMatchObject({ owner: 'alice', lock_mode: null });
  });
});

describe('8. identity comes from the caller', () => {
  it('AS "alice" run by eve is actor-mismatch; by an anonymous caller too; impersonation is explicit', async () => {
    const store = await threeRecords({ write_perm_level: 'owner_only' });
    const del = textToIr('DELETE ID "1" AS "alice"').irs;
    expect(codes(run(store, del, { now: NOW, actor: 'eve' }))).toEqual(['actor-mismatch']);
    expect(codes(run(store, del, { now: NOW }))).toEqual(['actor-mismatch']);
    expect(row(store, 1).deleted).toBe(0);
    runOk(store, del, { actor: 'alice' });
    expect(row(store, 1).deleted).toBe(1);
    const store2 = await threeRecords({ write_perm_level: 'owner_only' });
    runOk(store2, del, { impersonate: true });
    expect(row(store2, 1).deleted).toBe(1);
  });
});
