/**
 * Governance checks made before a write touches a record: locks (against the verb and against
 * what it would do to the record, its effects), write permissions and read permissions.
 * The model is documented in spec/semantics.md ("Locks", "Permissions") and spec/security.md.
 */
import { DERIVED_COLUMNS } from '../store/columns.js';
import type { Op } from '../ir/schema.js';

/** A record as read from the store (lock_mode, lock_policy, lock_expires... columns). */
export type LockView = Readonly<Record<string, unknown>>;

/** Is the lock on `row` in force at `now`? */
export function lockActive(row: LockView, now: string): boolean {
  if (typeof row.lock_mode !== 'string' || row.lock_mode === '') return false;
  return typeof row.lock_expires !== 'string' || row.lock_expires > now;
}

const CONTENT = ['text', 'type', 'time', 'subject', 'location', 'topic', 'source', 'read_perm_level', 'write_perm_level',
  'read_whitelist', 'read_blacklist', 'write_whitelist', 'write_blacklist', 'owner'];
const EXPIRY = ['expire_at', 'expire_action', 'expire_reason'];
const LOCK = ['lock_mode', 'lock_reason', 'lock_policy', 'lock_expires'];
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The columns that hold a record's content or its fact key: what legal_hold keeps from being rewritten. */
const HELD_CONTENT = ['text', 'type', 'time', 'subject', 'location', 'topic', 'source', 'attribute', 'valid_from'];

/**
 * What a write does to a record (spec/semantics.md "Effects"), in the kinds the checks read:
 * `ops`, the lock classes (see `effectsOf`); `removal`, soft or hard; `rewrite`, the content or
 * key columns it changes; `expiry`, whether it changes the expiry and what the new one will do
 * when swept (`lapse`: remove, rewrite, demote, or null when cleared); `retention`, a change of
 * retention class; `erases`, whether it erases the record's other ephemeral versions and audit
 * images (the hard removal of an ephemeral record). `changes` is null when the row is removed.
 */
export interface Effects {
  readonly ops: readonly Op[];
  readonly removal: 'soft' | 'hard' | null;
  readonly rewrite: readonly string[];
  readonly expiry: { readonly lapse: 'remove' | 'rewrite' | 'demote' | null } | null;
  readonly retention: { readonly from: string | null; readonly to: string | null } | null;
  readonly erases: boolean;
}

export function writeEffects(row: LockView, changes: Readonly<Record<string, unknown>> | null): Effects {
  if (changes === null) {
    return { ops: ['Delete'], removal: 'hard', rewrite: [], expiry: null, retention: null, erases: row.retention === 'ephemeral' };
  }
  const out = new Set<Op>();
  const changed = (k: string) => k in changes && !same(row[k], changes[k]);
  const removal = changed('deleted') && changes.deleted === 1 ? 'soft' : null;
  if (removal) out.add('Delete');
  let expiry: Effects['expiry'] = null;
  if (EXPIRY.some(changed)) {
    out.add('Expire');
    const at = 'expire_at' in changes ? changes.expire_at : row.expire_at;
    const action = String(('expire_action' in changes ? changes.expire_action : row.expire_action) ?? 'soft_delete');
    let lapse: 'remove' | 'rewrite' | 'demote' | null = null;
    if (at !== null && at !== undefined) {
      if (action === 'soft_delete' || action === 'hard_delete') (lapse = 'remove', out.add('Delete'));
      else if (action === 'demote') (lapse = 'demote', out.add('Demote'));
      else (lapse = 'rewrite', out.add('Update'));
    }
    expiry = { lapse };
  }
  if (CONTENT.some(changed)) out.add('Update');
  if (changed('tags') || changed('facets')) out.add('Label');
  if (changed('weight')) {
    const before = typeof row.weight === 'number' ? row.weight : 0.5;
    out.add(Number(changes.weight) >= before ? 'Promote' : 'Demote');
  }
  if (changed('auto_frequency') || changed('next_auto_update_at')) out.add('Promote');
  if (LOCK.some(changed)) out.add('Lock');
  const retention = changed('retention') ? { from: (row.retention ?? null) as string | null, to: (changes.retention ?? null) as string | null } : null;
  return { ops: [...out], removal, rewrite: HELD_CONTENT.filter(changed), expiry, retention, erases: false };
}

/**
 * What a write does to a record, named by the op that does it on its own: `Delete` (the record
 * is removed, soft-deleted, or given an expiry whose action removes it), `Expire` (its expiry
 * changes), `Update` (its content, permissions or owner change, or an expiry will anonymize it),
 * `Label` (tags or facets), `Promote`/`Demote` (weight up/down, reminders), `Lock` (lock columns).
 * `changes` is null when the row is removed. A lock's `deny` list is checked against these
 * effects, whichever verb causes them.
 */
export function effectsOf(row: LockView, changes: Readonly<Record<string, unknown>> | null): Op[] {
  return [...writeEffects(row, changes).ops];
}

/**
 * Why retention forbids a write with `effects` on `row`, or null when it allows it. A record under
 * legal_hold is never removed (soft or hard), never has its content or key rewritten, is never
 * given an expiry, and never leaves legal_hold; tags, facets, weight, locks, and the closing of a
 * fact version by a newer one (`valid_to`, `supersedes`) are allowed. Its audit images are never
 * blanked: an erasure blanks only the images of the records it erases.
 */
export function retentionRefusal(row: LockView, effects: Effects): string | null {
  if (row.retention !== 'legal_hold') return null;
  if (effects.removal) return effects.removal === 'hard' ? 'this would remove it' : 'this would delete it';
  if (effects.rewrite.length) return `this would rewrite its ${effects.rewrite.join(', ')}`;
  if (effects.expiry?.lapse) return 'this would give it an expiry';
  if (effects.retention) return `this would change its retention to ${effects.retention.to ?? 'none'}`;
  return null;
}

/** A refusal of one record's write by the one effects check: its diagnostic code and why. */
export interface WriteRefusal {
  readonly code: 'retention-held' | 'record-locked' | 'permission-denied';
  readonly reason: string;
}

/**
 * The one effects check of a write of `changes` (null: the row is removed) to `row` by `actor`
 * acting as `op` at `now`: retention, then the lock in force, then write permissions (unless
 * `permissions` is false: the sweep, which acts for the store). Every write of a record passes
 * here: each verb's (through `Execution`), the sweep's and undo's. Returns null when it may go on.
 */
export function checkWrite(
  row: LockView, changes: Readonly<Record<string, unknown>> | null, op: Op, actor: string | undefined, now: string, permissions = true,
): WriteRefusal | null {
  const held = row.retention === 'legal_hold';
  const locked = lockActive(row, now);
  if (held || locked) {
    const effects = writeEffects(row, changes);
    const kept = retentionRefusal(row, effects);
    if (kept) return { code: 'retention-held', reason: `memory #${String(row.id)} is under legal_hold retention; ${kept}` };
    if (locked) {
      const changedFields = nonAdditive(row, changes);
      const additive = changedFields.length === 0 && !effects.ops.some((e) => e === 'Delete' || e === 'Expire' || e === 'Lock');
      const lock = lockRefusal(row, op, actor, now, additive, effects.ops);
      if (lock) {
        const until = typeof row.lock_expires === 'string' ? ` until ${row.lock_expires}` : '';
        const what = changedFields.length && row.lock_mode === 'append_only' && !additive ? ` (it would change ${changedFields.join(', ')})` : '';
        return { code: 'record-locked', reason: `memory #${String(row.id)} is locked ${String(row.lock_mode)}${until}; ${lock}${what}` };
      }
    }
  }
  if (!permissions) return null;
  const perm = writeRefusal(row, actor);
  return perm ? { code: 'permission-denied', reason: `memory #${String(row.id)}: ${perm}` } : null;
}

/**
 * Does `changes` only add to `row` (what an append-only lock allows)? New tags, new facet keys,
 * text extended at its end, lineage links, and values of columns that were empty; never a
 * removal, an expiry, a lock, an owner or permission change, or a changed existing value.
 * Returns the fields that would change or be removed (empty when the write only adds).
 */
export function nonAdditive(row: LockView, changes: Readonly<Record<string, unknown>> | null): string[] {
  if (changes === null) return ['the record itself'];
  const out: string[] = [];
  for (const [k, v] of Object.entries(changes)) {
    const old = row[k];
    if (same(old, v) || k === 'updated_at' || k === 'embedding' || k === 'embedding_model' || DERIVED_COLUMNS.has(k)) continue;
    if (k === 'tags' || k === 'lineage_children' || k === 'lineage_parents') {
      if (Array.isArray(v) && (!Array.isArray(old) || old.every((x) => v.some((y) => same(x, y))))) continue;
    } else if (k === 'facets') {
      const o = (old && typeof old === 'object' ? old : {}) as Record<string, unknown>;
      const n = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
      if (Object.entries(o).every(([kk, vv]) => same(n[kk], vv))) continue;
    } else if (k === 'text') {
      if (typeof v === 'string' && (typeof old !== 'string' || v.startsWith(old))) continue;
    } else if ((old === null || old === undefined) && !['deleted', 'deleted_at', 'owner', ...EXPIRY, ...LOCK].includes(k)
      && !k.startsWith('read_') && !k.startsWith('write_')) continue;
    out.push(k);
  }
  return out;
}

/**
 * Why the lock on `row` refuses `op` by `actor`, or null when it allows it.
 * `effects` are what the write would do to the record (see `effectsOf`): a policy that denies
 * any of them refuses, whichever verb is acting. `appendOnlyCompatible` tells whether the write
 * only adds (see `nonAdditive`), which append-only locks allow.
 */
export function lockRefusal(
  row: LockView, op: Op, actor: string | undefined, now: string, appendOnlyCompatible: boolean, effects: readonly Op[] = [],
): string | null {
  if (!lockActive(row, now)) return null;
  const policy = (row.lock_policy && typeof row.lock_policy === 'object' ? row.lock_policy : {}) as {
    allow?: string[]; deny?: string[]; reviewers?: string[];
  };
  if (actor && policy.reviewers?.includes(actor)) return null;
  if (policy.deny?.includes(op)) return `its lock policy denies ${op}`;
  const denied = effects.find((e) => policy.deny?.includes(e));
  if (denied) return `its lock policy denies ${denied}, and this ${op} would ${EFFECT_VERB[denied] ?? `do what ${denied} does`}`;
  if (policy.allow?.includes(op)) return null;
  switch (row.lock_mode) {
    case 'read_only': return 'it is read-only';
    case 'append_only': return appendOnlyCompatible ? null : `it is append-only and ${op} would change or remove existing content`;
    default: return policy.allow ? `its lock policy allows only ${policy.allow.join(', ') || 'nothing'}` : null;
  }
}

const EFFECT_VERB: Partial<Record<Op, string>> = {
  Delete: 'remove it (now or when its expiry is swept)', Update: 'change its content', Label: 'change its tags or facets',
  Promote: 'raise its weight', Demote: 'lower its weight', Expire: 'change its expiry', Lock: 'change its lock',
};

/** A record as read from the store (owner, write_perm_level, write_whitelist, write_blacklist). */
export type WritePermView = Readonly<Record<string, unknown>>;

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? safeList(v) : []);
function safeList(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** Why `actor` may not write `row`, or null when it may. */
export function writeRefusal(row: WritePermView, actor: string | undefined): string | null {
  const who = actor ?? null;
  if (who && list(row.write_blacklist).includes(who)) return `actor '${who}' is on its write blacklist`;
  const owner = typeof row.owner === 'string' ? row.owner : null;
  const isOwner = owner === who;
  const whitelisted = who !== null && list(row.write_whitelist).includes(who);
  switch (row.write_perm_level) {
    case 'owner_only':
      return isOwner || whitelisted ? null : `only its owner${owner ? ` '${owner}'` : ''} may write it`;
    case 'custom':
      return isOwner || whitelisted ? null : `only its owner and write whitelist may write it`;
    case 'maintainer':
      return isOwner || whitelisted ? null : `only its maintainers (owner and write whitelist) may write it`;
    default:
      return null;
  }
}

/**
 * May `actor` read `row`? The read-permission model of spec/semantics.md ("Permissions"), the
 * same as the compiled read filter: not on the read blacklist, and public (or no level), or
 * `team` and a named actor, or the owner, or on the read whitelist.
 */
export function canRead(row: LockView, actor: string | undefined): boolean {
  if (actor && list(row.read_blacklist).includes(actor)) return false;
  const level = row.read_perm_level;
  if (level === null || level === undefined || level === 'public') return true;
  if (!actor) return false;
  return level === 'team' || row.owner === actor || list(row.read_whitelist).includes(actor);
}

/** Does the lock policy on `row` explicitly deny `op` to `actor` (reviewers excepted)? */
export function lockDenies(row: LockView, op: Op, actor: string | undefined): boolean {
  const policy = (row.lock_policy && typeof row.lock_policy === 'object' ? row.lock_policy : {}) as { deny?: string[]; reviewers?: string[] };
  if (actor && policy.reviewers?.includes(actor)) return false;
  return policy.deny?.includes(op) ?? false;
}
