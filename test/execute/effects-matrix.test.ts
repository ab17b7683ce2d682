/**
 * The effects matrix (issue 28): every verb, undo and sweep against a record R of each retention
 * class (durable by default, ephemeral, legal_hold), in each state of a fact key (a superseded, a
 * current and a scheduled version of `mira/deadline`, or a plain non-fact record), with the key's
 * other versions of each class, at each experience level (none, episode, turn), run by R's tenant
 * or by another one that names R's ids. Reads also run with R under a lock that denies Retrieve.
 *
 * Expected outcomes come from spec/semantics.md ("Typed state", "Retention", "Governance") and
 * spec/security.md as the issue states them, not from the engine's code:
 *   - retention: a legal_hold record is never removed, rewritten or blanked — not its row (text,
 *     key, valid_from, deletion, an expiry), not its audit images; a statement that would do it is
 *     refused with a diagnostic and changes nothing. An ephemeral record's erasure removes only
 *     ephemeral records, and leaves its text nowhere in the store (a soft-deleted one included);
 *   - fact chain: for a (tenant, subject, attribute) at most one version is valid at any instant
 *     (AS OF at every boundary), a version's value and key never change in place (a change creates
 *     a version or is refused), a lock on a key's current version is not bypassed by moving a
 *     record into the key, and scheduled and superseded versions can be retracted (DELETE ID);
 *   - tenant: another tenant's records are never changed, none of its ids or text is returned,
 *     and a ranked read (search, EXPAND, K+PICK) answers the same whether it has records or not;
 *   - read paths: a lock that denies Retrieve hides the record from every read (ids, filters,
 *     search, HISTORY, AS OF, EXPAND episode, K+PICK, SUMMARIZE), K+PICK honours `maxRows`, and a
 *     read changes nothing.
 *
 * One store per setup (class × other versions' class × level × state), each case in a transaction
 * rolled back afterwards, so every case starts from the same store. The size is printed.
 */
import { describe, expect, it } from 'vitest';
import { auditLog, run, sweep, undo, type RunResult, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';

const NOW = '2025-10-21T00:00:00Z';
/** After every ephemeral record's day (P1D from NOW). */
const SWEEP_AT = '2025-10-23T00:00:00Z';
const TENANTS = ['acme', 'globex'] as const;
type Tenant = (typeof TENANTS)[number];
const OWNER: Tenant = 'acme';
const ACTOR = 'alice';

type Cls = 'durable' | 'ephemeral' | 'legal_hold';
type State = 'superseded' | 'current' | 'scheduled' | 'plain';
type Level = 'none' | 'episode' | 'turn';
const CLASSES: Cls[] = ['durable', 'ephemeral', 'legal_hold'];
const STATES: State[] = ['superseded', 'current', 'scheduled', 'plain'];
const LEVELS: Level[] = ['none', 'episode', 'turn'];
const VALID_FROM: Record<Exclude<State, 'plain'>, string> = {
  superseded: '2025-01-01T00:00:00Z', current: '2025-06-01T00:00:00Z', scheduled: '2026-01-01T00:00:00Z',
};
/** An instant at which R is valid (AS OF). */
const VALID_AT: Record<State, string> = { superseded: '2025-03-01T00:00:00Z', current: NOW, scheduled: '2026-03-01T00:00:00Z', plain: NOW };

type WriteVerb = 'EncodeVersion' | 'UpdateText' | 'UpdateSubject' | 'UpdateExpiry' | 'Label' | 'Promote' | 'Demote' | 'MergeChild' | 'MergeChildHard'
  | 'MergePrimary' | 'Split' | 'Lock' | 'Expire' | 'DeleteSoft' | 'DeleteHard' | 'undo' | 'sweep' | 'sweepDeleted';
type ReadVerb = 'RetrieveId' | 'RetrieveFilter' | 'RetrieveSearch' | 'History' | 'AsOf' | 'ExpandEpisode' | 'KPick' | 'Summarize';
const WRITES: WriteVerb[] = ['EncodeVersion', 'UpdateText', 'UpdateSubject', 'UpdateExpiry', 'Label', 'Promote', 'Demote', 'MergeChild', 'MergeChildHard',
  'MergePrimary', 'Split', 'Lock', 'Expire', 'DeleteSoft', 'DeleteHard', 'undo', 'sweep', 'sweepDeleted'];
const READS: ReadVerb[] = ['RetrieveId', 'RetrieveFilter', 'RetrieveSearch', 'History', 'AsOf', 'ExpandEpisode', 'KPick', 'Summarize'];

/**
 * What legal_hold forbids each write to do to R (spec "Retention" as issue 28 states it): remove it
 * (soft or hard, directly or as a Merge child or Split source), rewrite its text (a Merge primary's
 * text changes too) or a fact's key, or give it an expiry that removes it. Those statements are
 * refused (UpdateSubject only for a fact: a plain record's subject is not a key).
 */
const HELD_REFUSES = new Set<WriteVerb>(['UpdateText', 'UpdateSubject', 'UpdateExpiry', 'MergeChild', 'MergeChildHard', 'MergePrimary', 'Split', 'Expire', 'DeleteSoft', 'DeleteHard']);
/** Writes that must go through on a live plain record of any class (nothing forbids them). */
const ALWAYS_OK = new Set<WriteVerb>(['Label', 'Promote', 'Demote', 'Lock']);

interface Setup { cls: Cls; others: Cls; level: Level; state: State }
interface Case extends Setup { verb: WriteVerb | ReadVerb; lock: 'none' | 'denyRetrieve'; tenant: 'own' | 'other' }
type Row = Record<string, any>;
/** Ids of the records a setup made, per tenant. */
interface Ids { e: number; sup: number; cur: number; sch: number; plain?: number; c: number; k2: number; turn?: number; r: number }

const mark = (t: string, role: string) => `zq${t}${role}zq`;
const enc = (text: string, args: Record<string, unknown> = {}) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text }, ...args } });
const sto = (op: string, ids: number[], args: Record<string, unknown> = {}) => ({ stage: 'STO', op, target: { ids: ids.map(String) }, args });
const retention = (c: Cls) => (c === 'durable' ? {} : { retention: c });

function runOk(store: Store, irs: unknown[], tenant: string): RunResult {
  const r = run(store, irs, { now: NOW, tenant, actor: ACTOR });
  if (!r.ok) throw new Error(`setup: ${JSON.stringify(r.diagnostics)}`);
  return r;
}

/** R's level: an episode, or a turn of the tenant's episode record. */
function levelArgs(level: Level, episode: number): Record<string, unknown> {
  return level === 'episode' ? { level: 'episode' } : level === 'turn' ? { level: 'turn', episode_id: String(episode) } : {};
}

async function build(s: Setup): Promise<{ store: Store; ids: Record<Tenant, Ids> }> {
  const store = await createStore();
  const ids = {} as Record<Tenant, Ids>;
  for (const t of TENANTS) {
    const id = (r: RunResult) => r.results[0].ids[0];
    const e = id(runOk(store, [enc(`The task episode lambda. Mark ${mark(t, 'e')}.`, { level: 'episode' })], t));
    // A second episode, so a two-stage read has more than one episode to keep.
    runOk(store, [enc(`Another task episode lambda value. Mark ${mark(t, 'e2')}.`, { level: 'episode' })], t);
    const v: Partial<Ids> = { e };
    for (const state of ['superseded', 'current', 'scheduled'] as const) {
      const isR = s.state === state;
      const text = isR ? `Quillon ${state} value ${mark(t, state)}. Second sentence here.` : `The ${state} value ${mark(t, state)}. Another sentence.`;
      const args = { subject: 'mira', attribute: 'deadline', valid_from: VALID_FROM[state], ...retention(isR ? s.cls : s.others), ...(isR ? { tags: ['r'], ...levelArgs(s.level, e) } : {}) };
      v[state === 'superseded' ? 'sup' : state === 'current' ? 'cur' : 'sch'] = id(runOk(store, [enc(text, args)], t));
    }
    if (s.state === 'plain') v.plain = id(runOk(store, [enc(`Quillon plain note ${mark(t, 'plain')}. Second sentence here.`, { tags: ['r'], ...retention(s.cls), ...levelArgs(s.level, e) })], t));
    v.c = id(runOk(store, [enc(`Companion gamma text ${mark(t, 'c')}.`)], t));
    v.k2 = id(runOk(store, [enc(`Zora value ${mark(t, 'k2')}.`, { subject: 'zora', attribute: 'deadline', valid_from: '2025-03-01T00:00:00Z' })], t));
    // The current version of zora/deadline is locked (as an administrator would lock it).
    store.query(`UPDATE memory SET lock_mode = 'read_only' WHERE id = ?`, [v.k2]);
    v.r = s.state === 'plain' ? v.plain! : v[s.state === 'superseded' ? 'sup' : s.state === 'current' ? 'cur' : 'sch']!;
    // A turn of R when R is an episode that can have one (OF needs a live, current episode).
    if (s.level === 'episode' && (s.state === 'current' || s.state === 'plain')) {
      v.turn = id(runOk(store, [enc(`Stepword turn of it ${mark(t, 'turn')}.`, { level: 'turn', episode_id: String(v.r) })], t));
    }
    ids[t] = v as Ids;
  }
  return { store, ids };
}

// ------------------------------------------------------------------ snapshots

const COLUMNS_SKIPPED = new Set(['embedding', 'embedding_f32']);
function rowsOf(store: Store): Map<number, Row> {
  const out = new Map<number, Row>();
  for (const r of store.query('SELECT * FROM memory ORDER BY id')) {
    const row: Row = {};
    for (const [k, v] of Object.entries(r)) if (!COLUMNS_SKIPPED.has(k)) row[k] = v;
    out.set(Number(r.id), row);
  }
  return out;
}
interface Entry { id: number; tenant: string; ir: string | null; affected: number[]; before: Record<string, unknown> | null; after: Record<string, unknown> | null; raw: string }
function auditOf(store: Store): Map<number, Entry> {
  const out = new Map<number, Entry>();
  for (const r of store.query('SELECT * FROM audit_log ORDER BY id')) {
    const parse = (x: unknown) => (typeof x === 'string' && x ? JSON.parse(x) : null);
    out.set(Number(r.id), {
      id: Number(r.id), tenant: String(r.tenant), ir: typeof r.ir === 'string' ? r.ir : null, affected: parse(r.affected_ids) ?? [],
      before: parse(r.before), after: parse(r.after), raw: JSON.stringify(r),
    });
  }
  return out;
}
interface Snap { rows: Map<number, Row>; audit: Map<number, Entry> }
const snap = (store: Store): Snap => ({ rows: rowsOf(store), audit: auditOf(store) });
function tenantPart(s: Snap, tenant: string): string {
  return JSON.stringify([[...s.rows.values()].filter((r) => r.tenant === tenant), [...s.audit.values()].filter((e) => e.tenant === tenant).map((e) => e.raw)]);
}
const whole = (s: Snap) => JSON.stringify([[...s.rows.values()], [...s.audit.values()].map((e) => e.raw)]);

/** Every table's content as text, but vectors: where an erased text must not be. */
function everything(store: Store): string {
  const tables = store.query(`SELECT name FROM sqlite_master WHERE type = 'table'`).map((t) => String(t.name));
  return tables.map((t) => JSON.stringify(store.query(`SELECT * FROM "${t}"`).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => !(v instanceof Uint8Array)))))).join('\n');
}

// ------------------------------------------------------------------ the statements

function writeStatement(verb: WriteVerb, v: Ids): unknown {
  switch (verb) {
    case 'EncodeVersion': return enc(`New value ${mark('x', 'new')}.`, { subject: 'mira', attribute: 'deadline', valid_from: NOW });
    case 'UpdateText': return sto('Update', [v.r], { set: { text: 'Rewritten text.' } });
    case 'UpdateSubject': return sto('Update', [v.r], { set: { subject: 'zora' } });
    case 'UpdateExpiry': return sto('Update', [v.r], { set: { expire_at: '2025-12-01T00:00:00Z' } });
    case 'Label': return sto('Label', [v.r], { tags: ['extra'] });
    case 'Promote': return sto('Promote', [v.r], { weight_delta: 0.2 });
    case 'Demote': return sto('Demote', [v.r], { weight_delta: -0.2 });
    case 'MergeChild': return sto('Merge', [v.c, v.r], { primary_id: String(v.c) });
    case 'MergeChildHard': return sto('Merge', [v.c, v.r], { primary_id: String(v.c), soft_delete_children: false });
    case 'MergePrimary': return sto('Merge', [v.r, v.c], { primary_id: String(v.r) });
    case 'Split': return sto('Split', [v.r], { strategy: 'by_sentences' });
    case 'Lock': return sto('Lock', [v.r], { mode: 'read_only' });
    case 'Expire': return sto('Expire', [v.r], { ttl: 'P1D', on_expire: 'hard_delete' });
    case 'DeleteSoft': return sto('Delete', [v.r], {});
    case 'DeleteHard': return sto('Delete', [v.r], { soft: false });
    default: throw new Error(verb);
  }
}

function readStatement(verb: ReadVerb, c: Case, v: Ids): unknown {
  const tagged = { filter: { has_tags: ['r'] } };
  const search = (query: string) => ({ search: { intent: { query }, overrides: { k: 5 } } });
  const expandQuery = c.level === 'episode' ? 'stepword turn' : 'quillon value';
  switch (verb) {
    case 'RetrieveId': return { stage: 'RET', op: 'Retrieve', target: { ids: [String(v.r)] }, args: {} };
    case 'RetrieveFilter': return { stage: 'RET', op: 'Retrieve', target: tagged, args: {} };
    case 'RetrieveSearch': return { stage: 'RET', op: 'Retrieve', target: search('quillon value'), args: {} };
    case 'History': return { stage: 'RET', op: 'Retrieve', target: c.state === 'plain' ? tagged : { filter: { subject: 'mira', attribute: 'deadline' } }, args: { history: true } };
    case 'AsOf': return { stage: 'RET', op: 'Retrieve', target: tagged, args: { as_of: VALID_AT[c.state] } };
    case 'ExpandEpisode': return { stage: 'RET', op: 'Retrieve', target: search(expandQuery), args: { level: 'turn', pick: 3, expand: 'episode' } };
    case 'KPick': return { stage: 'RET', op: 'Retrieve', target: search(c.level === 'turn' ? 'quillon value' : 'lambda episode value'), args: { level: c.level === 'turn' ? 'turn' : 'episode', pick: 3, ...(c.level === 'turn' ? { expand: 'episode' } : {}) } };
    case 'Summarize': return { stage: 'RET', op: 'Summarize', target: tagged, args: {} };
  }
}

// ------------------------------------------------------------------ the invariants

type Klass = 'retention' | 'fact chain' | 'tenant' | 'read paths';
interface Failure { klass: Klass; message: string }

/** The ids and text a result shows (its SQL left out: it holds the statement's own parameters). */
function shown(results: readonly unknown[]): { ids: Set<number>; text: string } {
  const ids = new Set<number>();
  const parts: string[] = [];
  for (const res of results as Row[]) {
    if (!res) continue;
    for (const id of res.ids ?? []) ids.add(Number(id));
    for (const row of res.rows ?? []) ids.add(Number(row.id));
    for (const cand of res.experience?.candidates ?? []) ids.add(Number(cand.id));
    const { sql: _sql, ...rest } = res;
    parts.push(JSON.stringify(rest));
  }
  return { ids, text: parts.join('\n') };
}

const HELD_FIELDS = ['text', 'subject', 'attribute', 'valid_from', 'retention', 'deleted', 'deleted_at', 'expire_at', 'expire_action', 'tenant'];
const FACT_FIELDS = ['text', 'subject', 'attribute', 'valid_from'];

/** Valid versions of a key at `at`, as the engine's AS OF read returns them (spec "Reads in time"). */
function chainProblems(store: Store, tenant: string, after: Snap): string[] {
  const out: string[] = [];
  for (const subject of ['mira', 'zora']) {
    const rows = [...after.rows.values()].filter((r) => r.tenant === tenant && r.subject === subject && r.attribute === 'deadline');
    const instants = new Set<string>([NOW]);
    for (const r of rows) for (const k of ['valid_from', 'valid_to', 'deleted_at', 'expire_at', 'created_at']) if (typeof r[k] === 'string') instants.add(r[k]);
    const at = [...instants].sort();
    const reads = [
      { stage: 'RET', op: 'Retrieve', target: { filter: { subject, attribute: 'deadline' } }, args: {} },
      ...at.map((t) => ({ stage: 'RET', op: 'Retrieve', target: { filter: { subject, attribute: 'deadline' } }, args: { as_of: t } })),
    ];
    const r = run(store, reads, { now: NOW, tenant, actor: ACTOR });
    if (!r.ok) { out.push(`reading ${subject}/deadline failed: ${JSON.stringify(r.diagnostics)}`); continue; }
    r.results.forEach((res, i) => {
      if (res.ids.length > 1) out.push(`${i === 0 ? 'now' : `AS OF ${at[i - 1]}`}: ${subject}/deadline has ${res.ids.length} valid versions (${res.ids.join(', ')})`);
    });
  }
  return out;
}

function check(store: Store, c: Case, ids: Record<Tenant, Ids>, before: Snap, after: Snap, results: readonly unknown[], refused: boolean, act: Tenant): Failure[] {
  const f: Failure[] = [];
  const fail = (klass: Klass, message: string) => f.push({ klass, message });
  const v = ids[OWNER];
  const R = v.r;
  const bR = before.rows.get(R)!;
  const aR = after.rows.get(R);
  const own = act === OWNER;
  const isRead = (READS as string[]).includes(c.verb);
  const verb = c.verb as WriteVerb;

  // Tenant: the other tenant's records and audit entries are as they were; nothing of them is shown.
  const other = act === 'acme' ? 'globex' : 'acme';
  if (tenantPart(before, other) !== tenantPart(after, other)) fail('tenant', `tenant ${other}'s records or audit log changed`);
  const seen = shown(results);
  const otherIds = [...before.rows.values()].filter((r) => r.tenant === other).map((r) => Number(r.id));
  const leakedIds = otherIds.filter((id) => seen.ids.has(id));
  if (leakedIds.length) fail('tenant', `tenant ${other}'s ids shown: ${leakedIds.join(', ')}`);
  if (seen.text.includes(`zq${other}`)) fail('tenant', `tenant ${other}'s text shown`);

  // Retention: held records keep their row and their audit images.
  for (const [id, b] of before.rows) {
    if (b.retention !== 'legal_hold') continue;
    const a = after.rows.get(id);
    if (!a) { fail('retention', `legal_hold #${id} removed`); continue; }
    // The subject is part of a fact's key; a plain record's subject is metadata (not asserted either way).
    const changed = HELD_FIELDS.filter((k) => (k !== 'subject' || b.attribute != null) && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    if (changed.length) fail('retention', `legal_hold #${id} rewritten: ${changed.map((k) => `${k} ${JSON.stringify(b[k])} → ${JSON.stringify(a[k])}`).join(', ')}`);
  }
  const held = new Set([...before.rows.values()].filter((r) => r.retention === 'legal_hold').map((r) => String(r.id)));
  for (const [eid, e] of before.audit) {
    const a = after.audit.get(eid);
    if (!a) { if (e.affected.some((id) => held.has(String(id)))) fail('retention', `audit entry ${eid} of a legal_hold record removed`); continue; }
    for (const id of held) {
      for (const side of ['before', 'after'] as const) {
        const x = e[side]?.[id];
        if (x !== undefined && JSON.stringify(a[side]?.[id]) !== JSON.stringify(x)) fail('retention', `audit entry ${eid}: the ${side} image of legal_hold #${id} blanked or changed`);
      }
    }
    if (e.affected.length && e.affected.every((id) => held.has(String(id))) && a.ir !== e.ir) fail('retention', `audit entry ${eid}: the IR of a legal_hold record's entry blanked`);
  }
  // Removal for good is R's own (a hard delete, a hard Merge of it) or an ephemeral record's erasure: never a durable or held version.
  for (const [id, b] of before.rows) {
    if (after.rows.has(id) || b.retention === 'ephemeral') continue;
    if (id === R && (verb === 'DeleteHard' || verb === 'MergeChildHard')) continue;
    fail('retention', `${b.retention ?? 'durable'} #${id} removed by ${c.verb} (R #${R} is ${c.cls})`);
  }
  // An erased ephemeral record's text is nowhere (Merge copies it into the primary by design).
  if (!verb.startsWith('Merge')) {
    const erased = [...before.rows.values()].filter((b) => b.retention === 'ephemeral' && !after.rows.has(Number(b.id)));
    if (erased.length) {
      const all = everything(store);
      for (const b of erased) {
        const m = /zq\w+?zq/.exec(String(b.text))?.[0];
        if (m && all.includes(m)) fail('retention', `erased ephemeral #${b.id}: its text '${m}' is still in the store`);
      }
    }
  }
  // The sweep erases every due ephemeral record of its tenant, a soft-deleted one too.
  if (own && (verb === 'sweep' || verb === 'sweepDeleted') && c.cls === 'ephemeral' && aR) fail('retention', `ephemeral #${R}${verb === 'sweepDeleted' ? ' (soft-deleted first)' : ''} not erased by the sweep: deleted = ${aR.deleted}`);
  if (own && verb === 'DeleteHard' && c.cls === 'ephemeral' && (c.state === 'current' || c.state === 'plain') && !refused && aR) fail('retention', `ephemeral #${R} hard-deleted but still there`);

  if (isRead) {
    // A read changes nothing.
    if (whole(before) !== whole(after)) fail('read paths', `${c.verb} changed the store`);
    const hidden = c.lock === 'denyRetrieve';
    if (hidden && (seen.ids.has(R) || seen.text.includes(mark(OWNER, c.state)))) fail('read paths', `${c.verb} shows #${R}, whose lock denies Retrieve`);
    if (c.verb === 'KPick') for (const res of results as Row[]) if ((res?.rows?.length ?? 0) > 1) fail('read paths', `K+PICK returned ${res.rows.length} rows over maxRows 1`);
    // Not vacuous: an unlocked, live, current R of the caller's tenant is read.
    const liveNow = c.state === 'current' || c.state === 'plain';
    if (!hidden && own && liveNow && !refused && (c.verb === 'RetrieveId' || c.verb === 'RetrieveFilter' || (c.verb === 'ExpandEpisode' && c.level === 'episode')) && !seen.ids.has(R)) {
      fail('read paths', `${c.verb} does not return #${R} (live, current, unlocked)`);
    }
    if (refused) fail('read paths', `${c.verb} refused`);
  } else {
    // Held: the statements that would remove or rewrite it are refused, and nothing changes.
    if (own && c.cls === 'legal_hold' && HELD_REFUSES.has(verb) && !(verb === 'UpdateSubject' && c.state === 'plain')) {
      if (whole(before) !== whole(after)) fail('retention', `${c.verb} of legal_hold #${R} (${c.state}) changed the store`);
      if ((c.state === 'current' || c.state === 'plain') && !refused) fail('retention', `${c.verb} of legal_hold #${R} (${c.state}) was not refused`);
    }
    // Writes nothing forbids go through on a live record of any class.
    if (own && (c.state === 'plain' || c.state === 'current') && ALWAYS_OK.has(verb) && refused) fail(c.state === 'plain' ? 'retention' : 'fact chain', `${c.verb} of ${c.cls} #${R} (${c.state}) refused`);
    if (own && c.state === 'plain' && c.cls !== 'legal_hold' && !['undo', 'sweep', 'sweepDeleted', 'EncodeVersion'].includes(verb) && refused) fail('retention', `${c.verb} of ${c.cls} plain #${R} refused`);
    // Fact versions: value and key never change in place.
    for (const [id, b] of before.rows) {
      if (b.attribute === null || b.attribute === undefined) continue;
      const a = after.rows.get(id);
      if (!a) continue;
      const changed = FACT_FIELDS.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
      if (changed.length) fail('fact chain', `fact version #${id} changed in place by ${c.verb}: ${changed.join(', ')}`);
    }
    // A locked current version of the key R would move into stays as it is.
    const k2 = ids[act].k2;
    if (JSON.stringify(before.rows.get(k2)) !== JSON.stringify(after.rows.get(k2))) fail('fact chain', `the locked current version #${k2} of zora/deadline changed`);
    // Scheduled and superseded versions can be retracted by DELETE ID.
    if (own && (c.state === 'scheduled' || c.state === 'superseded') && c.cls !== 'legal_hold' && (verb === 'DeleteSoft' || verb === 'DeleteHard')) {
      if (refused) fail('fact chain', `${c.verb} of the ${c.state} version #${R} refused`);
      else if (aR && aR.deleted !== 1) fail('fact chain', `${c.verb} of the ${c.state} version #${R} did not retract it (ids: ${JSON.stringify(seen.ids.size ? [...seen.ids] : [])})`);
    }
    // Undo of another tenant's entry is not found.
    if (!own && verb === 'undo' && !refused && (results as Row[]).some((r) => r?.ok)) fail('tenant', `tenant ${act} undid an entry of ${OWNER}`);
  }
  // At most one valid version per key and instant, in the tenant that wrote (the other one is
  // unchanged, and a read changes nothing: both checked above).
  if (!isRead) for (const p of chainProblems(store, act, after)) fail('fact chain', `${act}: ${p}`);
  return f;
}

// ------------------------------------------------------------------ running a case

function act(store: Store, c: Case, ids: Record<Tenant, Ids>): { results: readonly unknown[]; refused: boolean; before: Snap; alone?: RunResult; saved?: Snap } {
  const tenant: Tenant = c.tenant === 'own' ? OWNER : 'globex';
  const v = ids[OWNER];
  if (c.lock === 'denyRetrieve') store.query(`UPDATE memory SET lock_mode = 'custom', lock_policy = ? WHERE id = ?`, [JSON.stringify({ deny: ['Retrieve'] }), v.r]);
  if (c.verb === 'undo') {
    // In R's tenant: retract R, write a new value; then undo the retraction (in the case's tenant).
    run(store, [sto('Delete', [v.r])], { now: NOW, tenant: OWNER, actor: ACTOR });
    const entry = auditLog(store, undefined, OWNER).filter((e) => e.op === 'Delete').at(-1);
    run(store, [enc(`Newer value ${mark(OWNER, 'newer')}.`, { subject: 'mira', attribute: 'deadline', valid_from: NOW })], { now: NOW, tenant: OWNER, actor: ACTOR });
    const before = snap(store);
    if (!entry) return { results: [], refused: false, before };
    const r = undo(store, entry.id, { now: NOW, actor: ACTOR, tenant });
    return { results: [r], refused: !r.ok, before };
  }
  if (c.verb === 'sweep' || c.verb === 'sweepDeleted') {
    if (c.verb === 'sweepDeleted') run(store, [sto('Delete', [v.r])], { now: NOW, tenant: OWNER, actor: ACTOR });
    const before = snap(store);
    const r = sweep(store, SWEEP_AT, 'system:sweep', tenant);
    return { results: [], refused: !('applied' in r), before };
  }
  const before = snap(store);
  const statement = (READS as string[]).includes(c.verb) ? readStatement(c.verb as ReadVerb, c, v) : writeStatement(c.verb as WriteVerb, v);
  const options = { now: NOW, tenant, actor: ACTOR, ...(c.verb === 'KPick' ? { limits: { maxRows: 1 } } : {}) };
  const r = run(store, [statement], options);
  let alone: RunResult | undefined;
  if (SCORED.has(c.verb as ReadVerb)) {
    // The same read as if the other tenant had written nothing (its rows removed behind the
    // engine's back, which the indexes' triggers follow); read after the snapshot `after`.
    const saved = snap(store);
    store.query('DELETE FROM memory WHERE tenant <> ?', [tenant]);
    alone = run(store, [statement], options);
    return { results: r.results, refused: !r.ok, before, alone, saved };
  }
  return { results: r.results, refused: !r.ok, before };
}
/** Reads that rank: their answer (records, order, scores) must not depend on the other tenant. */
const SCORED = new Set<ReadVerb>(['RetrieveSearch', 'ExpandEpisode', 'KPick']);
/** A ranked answer: ids in order, with their scores and the candidates' similarity. */
function ranking(results: readonly unknown[]): string {
  return JSON.stringify((results as Row[]).map((res) => [res?.ids, res?.scores, (res?.experience?.candidates ?? []).map((x: Row) => [x.id, x.similarity])]));
}

function* setups(): Generator<Setup> {
  for (const cls of CLASSES) for (const others of CLASSES) for (const level of LEVELS) for (const state of STATES) yield { cls, others, level, state };
}
function* casesOf(s: Setup): Generator<Case> {
  for (const tenant of ['own', 'other'] as const) {
    for (const verb of WRITES) yield { ...s, verb, lock: 'none', tenant };
    for (const verb of READS) for (const lock of ['none', 'denyRetrieve'] as const) yield { ...s, verb, lock, tenant };
  }
}

describe('effects matrix', () => {
  it('retention × fact version state × tenant × level over every verb, undo and sweep', async () => {
    const failures: { c: Case; f: Failure }[] = [];
    let size = 0;
    for (const s of setups()) {
      const { store, ids } = await build(s);
      for (const c of casesOf(s)) {
        size++;
        store.transaction(() => {
          const actTenant: Tenant = c.tenant === 'own' ? OWNER : 'globex';
          const { results, refused, before, alone, saved } = act(store, c, ids);
          const after = saved ?? snap(store);
          for (const f of check(store, c, ids, before, after, results, refused, actTenant)) failures.push({ c, f });
          if (alone && ranking(alone.results) !== ranking(results)) {
            failures.push({ c, f: { klass: 'tenant', message: `${c.verb} in ${actTenant} ranks differently when the other tenant has no records: ${ranking(results)} vs ${ranking(alone.results)}` } });
          }
          return { commit: false, value: undefined };
        });
      }
      store.close();
    }
    const failedCases = new Map<string, { c: Case; fs: Failure[] }>();
    for (const { c, f } of failures) {
      const key = JSON.stringify(c);
      if (!failedCases.has(key)) failedCases.set(key, { c, fs: [] });
      failedCases.get(key)!.fs.push(f);
    }
    const byClass = new Map<Klass, number>();
    for (const { fs } of failedCases.values()) for (const k of new Set(fs.map((f) => f.klass))) byClass.set(k, (byClass.get(k) ?? 0) + 1);
    const byVerb = new Map<string, number>();
    for (const { c } of failedCases.values()) byVerb.set(c.verb, (byVerb.get(c.verb) ?? 0) + 1);
    const show = Number(process.env.T2M_MATRIX_SHOW ?? 40);
    console.log([
      `effects matrix: ${size} cases, ${failedCases.size} failed`,
      `  by class: ${[...byClass].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
      `  by verb: ${[...byVerb].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
      ...[...failedCases.values()].slice(0, show).map(({ c, fs }) => `${JSON.stringify(c)}: ${fs.map((f) => `[${f.klass}] ${f.message}`).join('; ')}`),
    ].join('\n'));
    expect(size).toBe(CLASSES.length ** 2 * LEVELS.length * STATES.length * 2 * (WRITES.length + READS.length * 2));
    expect([...failedCases.values()].slice(0, 20).map(({ c, fs }) => `${JSON.stringify(c)}: ${fs.map((f) => f.message).join('; ')}`)).toEqual([]);
  }, 600_000);
});
