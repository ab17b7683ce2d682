/**
 * Governance checks made before a write touches a record: locks and write permissions.
 * The model is documented in spec/semantics.md ("Locks", "Permissions").
 */
import type { Op } from '../ir/schema.js';

/** A record as read from the store (lock_mode, lock_policy, lock_expires... columns). */
export type LockView = Readonly<Record<string, unknown>>;

/** Is the lock on `row` in force at `now`? */
export function lockActive(row: LockView, now: string): boolean {
  if (typeof row.lock_mode !== 'string' || row.lock_mode === '') return false;
  return typeof row.lock_expires !== 'string' || row.lock_expires > now;
}

/**
 * Why the lock on `row` refuses `op` by `actor`, or null when it allows it.
 * `labelAddOnly` tells whether the operation only adds (a Label in `add` mode), which
 * append-only locks allow.
 */
export function lockRefusal(row: LockView, op: Op, actor: string | undefined, now: string, appendOnlyCompatible: boolean): string | null {
  if (!lockActive(row, now)) return null;
  const policy = (row.lock_policy && typeof row.lock_policy === 'object' ? row.lock_policy : {}) as {
    allow?: string[]; deny?: string[]; reviewers?: string[];
  };
  if (actor && policy.reviewers?.includes(actor)) return null;
  if (policy.deny?.includes(op)) return `its lock policy denies ${op}`;
  if (policy.allow?.includes(op)) return null;
  switch (row.lock_mode) {
    case 'read_only': return 'it is read-only';
    case 'append_only': return appendOnlyCompatible ? null : `it is append-only and ${op} would change or remove existing content`;
    default: return policy.allow ? `its lock policy allows only ${policy.allow.join(', ') || 'nothing'}` : null;
  }
}

/** A record as read from the store (owner, write_perm_level, write_whitelist, write_blacklist). */
export type WritePermView = Readonly<Record<string, unknown>>;

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

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

/** Does the lock policy on `row` explicitly deny `op` to `actor` (reviewers excepted)? */
export function lockDenies(row: LockView, op: Op, actor: string | undefined): boolean {
  const policy = (row.lock_policy && typeof row.lock_policy === 'object' ? row.lock_policy : {}) as { deny?: string[]; reviewers?: string[] };
  if (actor && policy.reviewers?.includes(actor)) return false;
  return policy.deny?.includes(op) ?? false;
}
