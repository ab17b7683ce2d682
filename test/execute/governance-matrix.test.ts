/**
 * The governance matrix (spec/security.md): generated combinations of write verb × target form ×
 * lock mode × policy list × permission level × actor (× dry run), each run on a fresh store, with
 * invariants that hold whatever the verb:
 *   - nothing locked changes (the full row, including its removal), unless the lock lets that
 *     verb through (reviewers, allow) and nothing its effects do is denied;
 *   - nothing denied happens: deny [Delete] keeps the record, whichever verb (or a later sweep)
 *     would remove it; deny [X] keeps the record as it is against X;
 *   - nothing the actor may not write changes;
 *   - nothing unreadable is shown: no text or field of a record the actor may not read appears in
 *     any result, dry-run image, refusal, or record the actor can read afterwards;
 *   - an actor asserted by the script that is not the caller's changes nothing.
 * The expected outcome is derived from spec/semantics.md, not from the engine's governance code.
 */
import { describe, expect, it } from 'vitest';
import { auditLog, run, sweep, undo, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';

const NOW = '2025-10-21T00:00:00Z';
const FAR = '2035-01-01T00:00:00Z';
const SECRET = ['zebrafish', 'quokka', 'secretfacet', 'hiddentag'];

type Verb = 'Update' | 'Label' | 'LabelFacets' | 'LabelReplace' | 'Promote' | 'Demote' | 'Merge' | 'MergeHard' | 'Split' | 'SplitPlain'
  | 'Lock' | 'Expire' | 'UpdateExpiry' | 'Delete' | 'DeleteHard' | 'undo' | 'sweep';
const VERBS: Verb[] = ['Update', 'Label', 'LabelFacets', 'LabelReplace', 'Promote', 'Demote', 'Merge', 'MergeHard', 'Split', 'SplitPlain',
  'Lock', 'Expire', 'UpdateExpiry', 'Delete', 'DeleteHard', 'undo', 'sweep'];
/** The op a lock policy names for each verb (undo restores: an Update; sweep applies an Expire). */
const OP_OF: Record<Verb, string> = {
  Update: 'Update', Label: 'Label', LabelFacets: 'Label', LabelReplace: 'Label', Promote: 'Promote', Demote: 'Demote', Merge: 'Merge',
  MergeHard: 'Merge', Split: 'Split', SplitPlain: 'Split', Lock: 'Lock', Expire: 'Expire', UpdateExpiry: 'Update', Delete: 'Delete',
  DeleteHard: 'Delete', undo: 'Update', sweep: 'Expire',
};
type TargetForm = 'id' | 'ids' | 'filter' | 'search';
type Mode = 'none' | 'read_only' | 'append_only';
type PolicyKind = 'none' | 'allow' | 'deny' | 'denyDelete';
type Level = 'public' | 'owner_only' | 'whitelist' | 'blacklist' | 'private';
type Actor = 'owner' | 'other' | 'reviewer' | 'none' | 'asserted';

interface Combo { verb: Verb; target: TargetForm; mode: Mode; policy: PolicyKind; level: Level; actor: Actor; dryRun: boolean }

const ACTOR_NAME: Record<Actor, string | undefined> = { owner: 'alice', other: 'bob', reviewer: 'rita', none: undefined, asserted: 'eve' };

function target(form: TargetForm, merge: boolean): Record<string, unknown> {
  switch (form) {
    case 'id': return merge ? { ids: [1, 2] } : { ids: [1] };
    case 'ids': return { ids: [1, 2] };
    case 'filter': return { filter: { has_tags: [merge ? 'shared' : 'hiddentag'], limit: 5 } };
    case 'search': return { search: { intent: { query: merge ? 'swims gamma' : 'swims smiles' }, limit: 5 } };
  }
}

function statement(c: Combo): Record<string, unknown> | null {
  const merge = c.verb === 'Merge' || c.verb === 'MergeHard';
  const t = target(c.target, merge);
  const meta: Record<string, unknown> = {};
  if (c.dryRun) meta.dry_run = true;
  if (c.actor === 'asserted') meta.actor = 'alice';
  const s = (op: string, args: Record<string, unknown>) => ({ stage: 'STO', op, target: t, args, ...(Object.keys(meta).length ? { meta } : {}) });
  switch (c.verb) {
    case 'Update': return s('Update', { set: { text: 'rewritten' } });
    case 'UpdateExpiry': return s('Update', { set: { expire_at: '2026-01-01T00:00:00Z' } });
    case 'Label': return s('Label', { tags: ['extra'], mode: 'add' });
    case 'LabelFacets': return s('Label', { facets: { k: 'overwritten', subject: 'overwritten' }, mode: 'add' });
    case 'LabelReplace': return s('Label', { tags: ['only'], mode: 'replace' });
    case 'Promote': return s('Promote', { weight_delta: 0.2 });
    case 'Demote': return s('Demote', { weight_delta: -0.2 });
    case 'Merge': return s('Merge', { primary_id: 2 });
    case 'MergeHard': return s('Merge', { primary_id: 2, soft_delete_children: false });
    case 'Split': return s('Split', { strategy: 'by_sentences', inherit_all: false });
    case 'SplitPlain': return s('Split', { strategy: 'by_sentences' });
    case 'Lock': return s('Lock', { mode: 'read_only' });
    case 'Expire': return s('Expire', { ttl: 'P1D', on_expire: 'hard_delete' });
    case 'Delete': return s('Delete', {});
    case 'DeleteHard': return s('Delete', { soft: false });
    default: return null;
  }
}

type Row = Record<string, unknown>;
function rowsOf(store: Store): Map<number, Row> {
  const out = new Map<number, Row>();
  for (const r of store.query('SELECT * FROM memory ORDER BY id')) out.set(Number(r.id), r);
  return out;
}

const list = (v: unknown): string[] => (typeof v === 'string' ? JSON.parse(v) : []);
/** spec/semantics.md "Permissions": may `actor` read the record? */
function canRead(r: Row, actor: string | undefined): boolean {
  if (actor && list(r.read_blacklist).includes(actor)) return false;
  const level = r.read_perm_level;
  if (level === null || level === 'public') return true;
  if (!actor) return false;
  return level === 'team' || r.owner === actor || list(r.read_whitelist).includes(actor);
}

async function setup(c: Combo): Promise<Store> {
  const store = await createStore();
  const enc = (text: string, args: Record<string, unknown>) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text }, ...args } });
  const r = run(store, [
    enc('The zebrafish swims north. The quokka smiles south.', { tags: ['hiddentag', 'shared'], facets: { k: 'secretfacet' }, subject: 'secretfacet', weight: 0.5 }),
    enc('Other gamma here. Other delta there.', { tags: ['shared'], weight: 0.4 }),
    enc('Unrelated epsilon record.', { tags: ['misc'] }),
  ], { now: NOW, actor: 'alice' });
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  if (c.verb === 'undo') {
    const d = run(store, [{ stage: 'STO', op: 'Delete', target: { ids: [1] }, args: {} }], { now: NOW, actor: 'alice' });
    if (!d.ok) throw new Error(JSON.stringify(d.diagnostics));
  }
  if (c.verb === 'sweep') store.exec(`UPDATE memory SET expire_at = '2025-10-20T00:00:00Z', expire_action = 'hard_delete' WHERE id = 1`);
  // Governance of record #1, written directly (as an administrator would): permissions, then the lock.
  const perm: Record<Level, string> = {
    public: '',
    owner_only: `write_perm_level = 'owner_only'`,
    whitelist: `write_perm_level = 'owner_only', write_whitelist = '["bob"]'`,
    blacklist: `write_blacklist = '["bob"]'`,
    private: `read_perm_level = 'private'`,
  };
  if (perm[c.level]) store.exec(`UPDATE memory SET ${perm[c.level]} WHERE id = 1`);
  const op = OP_OF[c.verb];
  const policy = c.policy === 'none' ? null
    : c.policy === 'allow' ? { allow: [op], reviewers: ['rita'] }
    : c.policy === 'deny' ? { deny: [op], reviewers: ['rita'] }
    : { deny: ['Delete'], reviewers: ['rita'] };
  const mode = c.mode !== 'none' ? c.mode : policy ? 'custom' : null;
  const lockPolicy = policy ?? (mode ? { reviewers: ['rita'] } : null);
  if (mode) store.query(`UPDATE memory SET lock_mode = ?, lock_policy = ? WHERE id = 1`, [mode, JSON.stringify(lockPolicy)]);
  return store;
}

function act(store: Store, c: Combo): unknown {
  const actor = ACTOR_NAME[c.actor];
  if (c.verb === 'undo') return undo(store, auditLog(store).at(-1)!.id, { now: NOW, actor });
  if (c.verb === 'sweep') return sweep(store, NOW);
  return run(store, [statement(c)!], { now: NOW, actor });
}

const additiveColumns = ['tags', 'facets'];
/** What changed in `after` relative to `before` that is not an addition (append-only forbids it). */
function nonAdditive(before: Row, after: Row | undefined): string[] {
  if (!after) return ['<removed>'];
  const out: string[] = [];
  for (const [k, v] of Object.entries(before)) {
    if (k === 'updated_at' || k === 'embedding' || k === 'embedding_model' || k === 'embedding_f32' || k === 'search_text' || k === 'lineage_children') continue;
    const w = after[k];
    if (JSON.stringify(v) === JSON.stringify(w)) continue;
    if (additiveColumns.includes(k) && typeof v === 'string' && typeof w === 'string') {
      const a = JSON.parse(v); const b = JSON.parse(w);
      if (Array.isArray(a) && a.every((x: unknown) => b.includes(x))) continue;
      if (!Array.isArray(a) && Object.entries(a).every(([kk, vv]) => JSON.stringify(b[kk]) === JSON.stringify(vv))) continue;
    }
    if (k === 'text' && typeof v === 'string' && typeof w === 'string' && w.startsWith(v)) continue;
    if ((v === null) && !['deleted_at', 'expire_at', 'expire_action', 'lock_mode', 'lock_policy', 'owner', 'read_perm_level'].includes(k)) continue;
    out.push(k);
  }
  return out;
}

function violations(c: Combo, before: Map<number, Row>, after: Map<number, Row>, output: unknown, afterSweep: Map<number, Row>): string[] {
  const out: string[] = [];
  const actor = ACTOR_NAME[c.actor];
  const b1 = before.get(1)!;
  const a1 = after.get(1);
  const same = JSON.stringify(b1) === JSON.stringify(a1);
  const op = OP_OF[c.verb];
  const reviewer = actor === 'rita';
  const locked = b1.lock_mode !== null && !reviewer && c.verb !== 'sweep' ? true : b1.lock_mode !== null && c.verb === 'sweep';
  const policy = c.policy;
  const allowed = policy === 'allow';
  // Nothing asserted by the script instead of the caller happens.
  if (c.actor === 'asserted' && JSON.stringify([...before]) !== JSON.stringify([...after])) out.push('an identity asserted by the script acted');
  if (locked) {
    if (policy === 'deny' && !same) out.push(`${op} denied but record #1 changed`);
    if (policy === 'denyDelete') {
      const gone = (r: Row | undefined) => !r || r.deleted === 1;
      if (gone(a1) && !gone(b1)) out.push('deny [Delete] but record #1 was removed');
      if (gone(afterSweep.get(1)) && !gone(b1)) out.push('deny [Delete] but record #1 was removed by a later sweep');
    }
    if (!allowed) {
      if (c.mode === 'read_only' && !same) out.push(`read_only record #1 changed: ${diffKeys(b1, a1)}`);
      if (c.mode === 'append_only') {
        const bad = nonAdditive(b1, a1);
        if (bad.length) out.push(`append_only record #1 changed existing values: ${bad.join(', ')}`);
      }
    }
  }
  // Write permissions (reviewers bypass locks, not permissions).
  const w = c.level === 'owner_only' ? actor === 'alice'
    : c.level === 'whitelist' ? actor === 'alice' || actor === 'bob'
    : c.level === 'blacklist' ? actor !== 'bob'
    : true;
  if (!w && !same && c.verb !== 'sweep') out.push(`actor ${actor ?? '(none)'} may not write #1 but it changed: ${diffKeys(b1, a1)}`);
  // Reads: nothing of an unreadable record is shown.
  if (c.verb !== 'sweep' && !canRead(b1, actor)) {
    const text = JSON.stringify(output);
    for (const s of SECRET.slice(0, 3)) if (text.includes(s)) out.push(`unreadable content '${s}' shown in the result`);
    for (const [id, r] of after) {
      if (id === 1 || before.has(id) && JSON.stringify(before.get(id)) === JSON.stringify(r)) continue;
      if (canRead(r, actor) && SECRET.slice(0, 2).some((s) => String(r.text).includes(s))) out.push(`unreadable text copied into readable record #${id}`);
    }
  }
  return out;
}

function diffKeys(a: Row, b: Row | undefined): string {
  if (!b) return '<removed>';
  return Object.keys(a).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).join(',');
}

function* combos(): Generator<Combo> {
  const targets: TargetForm[] = ['id', 'ids', 'filter', 'search'];
  const modes: Mode[] = ['none', 'read_only', 'append_only'];
  const policies: PolicyKind[] = ['none', 'allow', 'deny', 'denyDelete'];
  const levels: Level[] = ['public', 'owner_only', 'whitelist', 'blacklist', 'private'];
  const actors: Actor[] = ['owner', 'other', 'reviewer', 'none', 'asserted'];
  for (const verb of VERBS) for (const mode of modes) for (const policy of policies) for (const level of levels) for (const actor of actors) {
    const direct = verb === 'undo' || verb === 'sweep';
    for (const t of direct ? (['id'] as TargetForm[]) : targets) for (const dryRun of direct ? [false] : [false, true]) {
      yield { verb, target: t, mode, policy, level, actor: direct && actor === 'asserted' ? 'other' : actor, dryRun };
    }
  }
}

/** A seeded sample of the full product (deterministic; BUDGET bounds the run time). */
function sample(budget: number): Combo[] {
  const all = [...combos()];
  let seed = 0x2545f491;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, budget);
}

const BUDGET = Number(process.env.T2M_MATRIX_BUDGET ?? 1500);

describe('governance matrix', () => {
  it(`holds the invariants on ${BUDGET} generated combinations`, async () => {
    const failures: string[] = [];
    for (const c of sample(BUDGET)) {
      const store = await setup(c);
      const before = rowsOf(store);
      const output = act(store, c);
      const after = rowsOf(store);
      // A later sweep far in the future: expiry scheduled by the statement must not remove what deny [Delete] protects.
      sweep(store, FAR);
      const afterSweep = rowsOf(store);
      const v = violations(c, before, after, output, afterSweep);
      if (v.length) failures.push(`${JSON.stringify(c)}: ${v.join('; ')}`);
      store.close();
    }
    if (failures.length) console.log(`governance matrix: ${failures.length} of ${BUDGET} combinations failed\n${failures.slice(0, Number(process.env.T2M_MATRIX_SHOW ?? 40)).join('\n')}`);
    expect(failures.slice(0, 20)).toEqual([]);
  }, 120_000);
});
