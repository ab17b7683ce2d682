/**
 * Retention under every verb, the sweep and undo (spec/semantics.md "Retention", "Effects"):
 * legal_hold wins over every removal path and over ephemeral; an ephemeral version erases itself
 * and the other ephemeral versions of its key (and their audit images), never a held or durable
 * version; a soft-deleted ephemeral record is still erased when its expiry comes.
 */
import { describe, expect, it } from 'vitest';
import { auditLog, run, sweep, undo, type RunOptions, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { textToIr } from '../../src/pipeline.js';
import { checkWrite, writeEffects } from '../../src/execute/governance.js';

const NOW = '2026-06-10T00:00:00Z';
const LATER = '2026-06-12T00:00:00Z';

function dsl(store: Store, text: string, options: RunOptions = {}) {
  const parsed = textToIr(text);
  expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const r = run(store, parsed.irs, { now: NOW, ...options });
  expect(r.diagnostics.filter((d) => d.severity === 'error'), JSON.stringify(r.diagnostics)).toEqual([]);
  return r;
}

/** Everything a refused statement could have touched. */
const snapshot = (store: Store) => JSON.stringify([store.query('SELECT * FROM memory ORDER BY id'), auditLog(store)]);

/** Runs IRs that must be refused with `code`, naming `id`, and change nothing. */
function refused(store: Store, irs: unknown[], code: string, id: number, options: RunOptions = {}) {
  const before = snapshot(store);
  const r = run(store, irs, { now: NOW, ...options });
  expect(r.ok, JSON.stringify(irs)).toBe(false);
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  expect(errors).toEqual([expect.objectContaining({ code })]);
  expect(errors[0].message).toContain(`#${id}`);
  expect(snapshot(store)).toBe(before);
}

const sto = (op: string, ids: string[], args: Record<string, unknown> = {}) => ({ stage: 'STO', op, target: { ids }, args });

/** The text is nowhere in the store's tables (memory, audit log, tag index, search index). */
function nowhere(store: Store, text: string) {
  const tables = store.query(`SELECT name FROM sqlite_master WHERE type = 'table'`).map((r) => String(r.name));
  for (const t of tables) {
    const rows = store.query(`SELECT * FROM "${t}"`);
    expect(JSON.stringify(rows), `table ${t}`).not.toContain(text);
  }
}

describe('legal_hold holds under every verb', () => {
  async function held() {
    const store = await createStore();
    dsl(store, 'ENCODE "held evidence. second sentence." RETENTION legal_hold; ENCODE "other note";');
    return store;
  }

  it('UPDATE that sets an expiry is refused', async () => {
    const store = await held();
    refused(store, [sto('Update', ['1'], { set: { ttl: 'P1D' } })], 'retention-held', 1);
    refused(store, [sto('Update', ['1'], { set: { expire_at: '2026-06-11T00:00:00Z' } })], 'retention-held', 1);
  });

  it('UPDATE that rewrites the text or key is refused', async () => {
    const store = await held();
    refused(store, [sto('Update', ['1'], { set: { text: 'forged' } })], 'retention-held', 1);
    refused(store, [sto('Update', ['1'], { set: { subject: 'someone else' } })], 'retention-held', 1);
  });

  it('MERGE (soft) with a held child is refused', async () => {
    const store = await held();
    refused(store, [sto('Merge', ['2', '1'], { primary_id: '2' })], 'retention-held', 1);
  });

  it('MERGE with hard-deleted children is refused for a held child', async () => {
    const store = await held();
    refused(store, [sto('Merge', ['2', '1'], { primary_id: '2', soft_delete_children: false })], 'retention-held', 1);
  });

  it('MERGE into a held primary (rewriting its text) is refused', async () => {
    const store = await held();
    refused(store, [sto('Merge', ['1', '2'], { primary_id: '1' })], 'retention-held', 1);
  });

  it('SPLIT of a held source (which retires it) is refused; with keep_source it goes', async () => {
    const store = await held();
    refused(store, [sto('Split', ['1'], { strategy: 'by_sentences' })], 'retention-held', 1);
    const r = run(store, [sto('Split', ['1'], { strategy: 'by_sentences', keep_source: true })], { now: NOW });
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(store.query('SELECT deleted, text FROM memory WHERE id = 1')).toEqual([{ deleted: 0, text: 'held evidence. second sentence.' }]);
  });

  it('DELETE and EXPIRE stay refused; Label and Promote of a held record go', async () => {
    const store = await held();
    refused(store, [sto('Delete', ['1'], { soft: true })], 'retention-held', 1);
    refused(store, [sto('Delete', ['1'], { soft: false })], 'retention-held', 1);
    refused(store, [sto('Expire', ['1'], { ttl: 'P1D' })], 'retention-held', 1);
    dsl(store, 'LABEL IDS "1" TAGS "case-42"; PROMOTE ID "1" SET weight 0.9;');
    expect(store.query('SELECT tags, weight FROM memory WHERE id = 1')).toEqual([{ tags: '["case-42"]', weight: 0.9 }]);
  });

  it('a held fact version is closed by a newer version (history, not a rewrite)', async () => {
    const store = await createStore();
    dsl(store, 'ENCODE "A" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-01T00:00:00Z RETENTION legal_hold;');
    dsl(store, 'ENCODE "B" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-02T00:00:00Z;');
    expect(store.query('SELECT id, text, valid_to FROM memory ORDER BY id')).toEqual([
      { id: 1, text: 'A', valid_to: '2026-06-02T00:00:00Z' }, { id: 2, text: 'B', valid_to: null },
    ]);
  });
});

describe('legal_hold wins over ephemeral', () => {
  const key = 'SUBJECT "mira" ATTRIBUTE "mood"';

  it('hard DELETE of an ephemeral version leaves a held version of the key and its audit images', async () => {
    const store = await createStore();
    dsl(store, `ENCODE "held-A" ${key} VALID FROM 2026-06-01T00:00:00Z RETENTION legal_hold;
ENCODE "brief-B" ${key} VALID FROM 2026-06-02T00:00:00Z RETENTION ephemeral;`);
    dsl(store, 'DELETE IDS "2" HARD;');
    expect(store.query('SELECT id, text FROM memory ORDER BY id')).toEqual([{ id: 1, text: 'held-A' }]);
    const log = JSON.stringify(auditLog(store).map((e) => [e.before, e.after]));
    expect(log).toContain('held-A');
    expect(log).not.toContain('brief-B');
    // The entry that wrote B also closed A: A's images in it stay.
    const closing = auditLog(store).find((e) => e.affectedIds.includes(1) && e.affectedIds.includes(2))!;
    expect(closing.before?.[1]).toEqual({ valid_to: null });
    expect(closing.after?.[1]).toEqual({ valid_to: '2026-06-02T00:00:00Z' });
  });

  it('the sweep of an ephemeral version leaves a held version of the key and its audit images', async () => {
    const store = await createStore();
    dsl(store, `ENCODE "held-A" ${key} VALID FROM 2026-06-01T00:00:00Z RETENTION legal_hold;
ENCODE "brief-B" ${key} VALID FROM 2026-06-02T00:00:00Z RETENTION ephemeral;`);
    expect(sweep(store, LATER)).toMatchObject({ applied: [{ id: 2, action: 'hard_delete' }] });
    expect(store.query('SELECT id, text FROM memory ORDER BY id')).toEqual([{ id: 1, text: 'held-A' }]);
    const log = JSON.stringify(auditLog(store).map((e) => [e.before, e.after]));
    expect(log).toContain('held-A');
    nowhere(store, 'brief-B');
  });

  it('the sweep skips a held record that was given an expiry (an older store): it is not removed', async () => {
    const store = await createStore();
    dsl(store, 'ENCODE "held" RETENTION legal_hold;');
    store.run({ sql: `UPDATE memory SET expire_at = '2026-06-11T00:00:00Z', expire_action = 'hard_delete' WHERE id = 1`, params: [] });
    const r = sweep(store, LATER);
    expect(r).toMatchObject({ applied: [], skipped: [{ id: 1 }] });
    expect(store.query('SELECT id FROM memory')).toEqual([{ id: 1 }]);
  });
});

describe('what an ephemeral version erases', () => {
  const key = 'SUBJECT "mira" ATTRIBUTE "mood"';

  it('the sweep of an old ephemeral version leaves the durable current one', async () => {
    const store = await createStore();
    dsl(store, `ENCODE "old-A" ${key} VALID FROM 2026-06-01T00:00:00Z RETENTION ephemeral;
ENCODE "durable-B" ${key} VALID FROM 2026-06-02T00:00:00Z RETENTION durable;`);
    expect(sweep(store, LATER)).toMatchObject({ applied: [{ id: 1, action: 'hard_delete' }] });
    expect(store.query('SELECT id, text FROM memory ORDER BY id')).toEqual([{ id: 2, text: 'durable-B' }]);
    nowhere(store, 'old-A');
    expect(JSON.stringify(auditLog(store).map((e) => [e.before, e.after, e.ir]))).toContain('durable-B');
  });

  it('hard DELETE of an ephemeral version erases the other ephemeral versions, not the durable ones', async () => {
    const store = await createStore();
    dsl(store, `ENCODE "eph-A" ${key} VALID FROM 2026-06-01T00:00:00Z RETENTION ephemeral;
ENCODE "dur-B" ${key} VALID FROM 2026-06-02T00:00:00Z;
ENCODE "eph-C" ${key} VALID FROM 2026-06-03T00:00:00Z RETENTION ephemeral;`);
    dsl(store, 'DELETE IDS "3" HARD;');
    expect(store.query('SELECT id, text FROM memory ORDER BY id')).toEqual([{ id: 2, text: 'dur-B' }]);
    nowhere(store, 'eph-A');
    nowhere(store, 'eph-C');
  });

  it('a soft-deleted ephemeral record is erased by the sweep when its expiry comes', async () => {
    const store = await createStore();
    dsl(store, 'ENCODE "secret-brief" RETENTION ephemeral; ENCODE "kept";');
    dsl(store, 'DELETE IDS "1" SOFT;');
    const r = sweep(store, LATER);
    expect(r).toMatchObject({ applied: [{ id: 1, action: 'hard_delete' }] });
    expect(store.query('SELECT id FROM memory ORDER BY id')).toEqual([{ id: 2 }]);
    nowhere(store, 'secret-brief');
  });

  it('a soft-deleted ephemeral version is erased with the version whose deletion erases the key', async () => {
    const store = await createStore();
    dsl(store, `ENCODE "eph-A" ${key} VALID FROM 2026-06-01T00:00:00Z RETENTION ephemeral;
ENCODE "eph-B" ${key} VALID FROM 2026-06-02T00:00:00Z RETENTION ephemeral;`);
    dsl(store, 'DELETE IDS "1" SOFT;');
    dsl(store, 'DELETE IDS "2" HARD;');
    expect(store.query('SELECT id FROM memory')).toEqual([]);
    nowhere(store, 'eph-A');
  });

  it('undo of a soft delete of an erased ephemeral record is refused and restores nothing', async () => {
    const store = await createStore();
    dsl(store, 'ENCODE "secret-brief" RETENTION ephemeral;');
    dsl(store, 'DELETE IDS "1" SOFT;');
    sweep(store, LATER);
    const entry = auditLog(store).find((e) => e.op === 'Delete')!;
    // The entry's images of the erased record are blanked: nothing is left to restore from.
    expect(undo(store, entry.id, { now: LATER })).toMatchObject({ ok: false, diagnostics: [{ code: 'undo-unsupported' }] });
    expect(store.query('SELECT id FROM memory')).toEqual([]);
    nowhere(store, 'secret-brief');
  });
});

describe('erasure at rest (sql.js)', () => {
  it('a hard-deleted ephemeral record leaves no text in the exported file bytes', async () => {
    const store = await createStore();
    const secret = 'zanzibar-quokka-'.repeat(40);
    dsl(store, `ENCODE "${secret}" RETENTION ephemeral; ENCODE "kept";`);
    dsl(store, 'DELETE IDS "1" HARD;');
    const bytes = Buffer.from(store.export());
    expect(bytes.includes(Buffer.from('zanzibar-quokka'))).toBe(false);
    expect(bytes.includes(Buffer.from('zanzibar'))).toBe(false);
  });
});

describe('the one effects check', () => {
  const held = { id: 7, retention: 'legal_hold', text: 'x', expire_at: null, expire_action: null };

  it('names each effect kind of a write', () => {
    expect(writeEffects(held, null)).toMatchObject({ removal: 'hard', ops: ['Delete'], erases: false });
    expect(writeEffects({ ...held, retention: 'ephemeral' }, null)).toMatchObject({ removal: 'hard', erases: true });
    expect(writeEffects(held, { deleted: 1 })).toMatchObject({ removal: 'soft' });
    expect(writeEffects(held, { text: 'y', subject: 's' })).toMatchObject({ rewrite: ['text', 'subject'] });
    expect(writeEffects(held, { expire_at: '2030-01-01T00:00:00Z', expire_action: 'anonymize' })).toMatchObject({ expiry: { lapse: 'rewrite' } });
    expect(writeEffects(held, { retention: 'durable' })).toMatchObject({ retention: { from: 'legal_hold', to: 'durable' } });
    expect(writeEffects(held, { valid_to: '2030-01-01T00:00:00Z', tags: ['a'] })).toMatchObject({ removal: null, rewrite: [], expiry: null, retention: null });
  });

  it('refuses a held record its removal, rewrite, expiry and retention change; allows the rest', () => {
    const refusal = (changes: Record<string, unknown> | null) => checkWrite(held, changes, 'Update', 'ann', NOW)?.code ?? null;
    expect(refusal(null)).toBe('retention-held');
    expect(refusal({ deleted: 1 })).toBe('retention-held');
    expect(refusal({ text: 'y' })).toBe('retention-held');
    expect(refusal({ expire_at: '2030-01-01T00:00:00Z', expire_action: 'demote' })).toBe('retention-held');
    expect(refusal({ retention: 'ephemeral' })).toBe('retention-held');
    expect(refusal({ tags: ['a'], weight: 0.9, valid_to: '2030-01-01T00:00:00Z', expire_at: null })).toBe(null);
  });

  it('reads retention before the lock, and permissions last', () => {
    const locked = { ...held, lock_mode: 'read_only', write_perm_level: 'owner_only', owner: 'ann' };
    expect(checkWrite(locked, { text: 'y' }, 'Update', 'bob', NOW)?.code).toBe('retention-held');
    expect(checkWrite(locked, { tags: ['a'] }, 'Label', 'bob', NOW)?.code).toBe('record-locked');
    expect(checkWrite({ ...locked, lock_mode: null }, { tags: ['a'] }, 'Label', 'bob', NOW)?.code).toBe('permission-denied');
    expect(checkWrite({ ...locked, lock_mode: null }, { tags: ['a'] }, 'Label', 'bob', NOW, false)).toBe(null);
  });

  it('an anonymizing sweep skips a held record', async () => {
    const store = await createStore();
    dsl(store, 'ENCODE "held words" RETENTION legal_hold;');
    store.run({ sql: `UPDATE memory SET expire_at = '2026-06-11T00:00:00Z', expire_action = 'anonymize' WHERE id = 1`, params: [] });
    expect(sweep(store, LATER)).toMatchObject({ applied: [], skipped: [{ id: 1, reason: expect.stringContaining('legal_hold') }] });
    expect(store.query('SELECT text FROM memory')).toEqual([{ text: 'held words' }]);
  });

  it('a lock that denies Delete on another ephemeral version refuses the hard DELETE that would erase it', async () => {
    const store = await createStore();
    dsl(store, `ENCODE "eph-A" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-01T00:00:00Z RETENTION ephemeral;
ENCODE "eph-B" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-02T00:00:00Z RETENTION ephemeral;`);
    // Version 1 is superseded (no verb targets it): the lock is set on the store directly.
    store.run({ sql: `UPDATE memory SET lock_mode = 'custom', lock_policy = '{"deny":["Delete"]}' WHERE id = 1`, params: [] });
    refused(store, [sto('Delete', ['2'], { soft: false })], 'record-locked', 1);
  });

  it('a fact write that would close another owner\'s owner-only version is refused (permissions on every row written)', async () => {
    const store = await createStore();
    dsl(store, 'ENCODE "A" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-01T00:00:00Z;', { actor: 'ann' });
    store.run({ sql: `UPDATE memory SET write_perm_level = 'owner_only' WHERE id = 1`, params: [] });
    const ir = textToIr('ENCODE "B" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-02T00:00:00Z;').irs;
    refused(store, ir, 'permission-denied', 1, { actor: 'bob' });
  });
});
