/**
 * The sweep: applies the expiry action of every record whose `expire_at` has passed, as one
 * transaction with one audit entry. `demote` and `anonymize` clear the expiry so the record is
 * live again. Records under a lock that refuses Expire are skipped until the lock lapses.
 */
import { compileAuditInsert, compileDeleteById, compileDueExpiries, compileEphemeralVersions, compileUpdateById, decodeRow, type SqlStatement } from '../compile/index.js';
import { DERIVED_COLUMNS } from '../store/columns.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { ARCHIVE_WEIGHT, formatUtc } from '../lower/index.js';
import type { AnySqlDriver } from '../store/driver.js';
import type { Change } from '../execute/rows.js';
import { scrubAudit } from '../execute/execution.js';
import { checkWrite } from '../execute/governance.js';
import { factKeysOf, mergeChanges, relinkIo } from '../execute/facts.js';
import { all as ioAll, run as ioRun, type Io } from '../store/io.js';
import type { Store } from '../store/store.js';
import { searchTextOf } from '../text/text.js';
import { clock, DEFAULT_TENANT, stmt, tenantProblem } from './caller.js';

/** An image without the columns the engine derives (search tokens, packed vectors): the audit log keeps what was written. */
const withoutDerived = (image: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(image).filter(([k]) => !DERIVED_COLUMNS.has(k) && k !== 'embedding'));

export interface SweepResult {
  readonly applied: readonly { readonly id: number; readonly action: string }[];
  /** Due records left alone because a lock in force protects them (they stay hidden). */
  readonly skipped: readonly { readonly id: number; readonly reason: string }[];
  readonly changes: readonly Change[];
  readonly sql: readonly SqlStatement[];
}

/** What `demote` lowers an expired record's weight to, and the text `anonymize` leaves. */
export const ANONYMIZED_TEXT = '[anonymized]';



/** `sweep` as queries (src/store/io.ts). */
export function* sweepIo(store: Store<AnySqlDriver>, now: Date | string = new Date(), actor = 'system:sweep', tenant: string = DEFAULT_TENANT): Io<SweepResult | { diagnostics: Diagnostic[] }> {
  const at = clock(now);
  if (!(at instanceof Date)) return { diagnostics: [at] };
  const badTenant = tenantProblem(tenant);
  if (badTenant) return { diagnostics: [badTenant] };
  const nowText = formatUtc(at);
  const d = store.dialect;
  return yield* store.transactionIo(function* () {
    const sql: SqlStatement[] = [];
    const exec = (s: SqlStatement) => (sql.push(s), ioRun(s.sql, s.params));
    const due = (yield* ioAll(...stmt(compileDueExpiries(nowText, d, tenant)))).map(decodeRow);
    const applied: { id: number; action: string }[] = [];
    const changes: Change[] = [];
    const skipped: { id: number; reason: string }[] = [];
    // Records an ephemeral deletion took with it (their history), and whose audit images go.
    const erased = new Set<number>();
    for (const row of due) {
      const id = Number(row.id);
      if (erased.has(id)) continue;
      // A soft-deleted record here is ephemeral (compileDueExpiries): its expiry erases it.
      const action = row.deleted === 1 ? 'hard_delete' : String(row.expire_action ?? 'soft_delete');
      let set: Record<string, unknown> | null = null;
      switch (action) {
        case 'hard_delete':
          break;
        case 'demote':
          set = { weight: Math.min(typeof row.weight === 'number' ? row.weight : 1, ARCHIVE_WEIGHT), expire_at: null, expire_action: null };
          break;
        case 'anonymize':
          set = { text: ANONYMIZED_TEXT, subject: null, location: null, source: null, facets: {}, embedding: null, embedding_model: null, embedding_f32: null, search_text: searchTextOf({ ...row, text: ANONYMIZED_TEXT, subject: null, topic: row.topic }), expire_at: null, expire_action: null };
          break;
        default:
          set = { deleted: 1, deleted_at: nowText };
      }
      // The one effects check (src/execute/governance.ts), as the store's own write: retention
      // (legal_hold is never removed or rewritten) and locks. A lock is a hold: the expiry action
      // waits until the lock lapses (or allows Expire); a policy that denies what the action does
      // (Delete, Update, Demote) keeps it waiting.
      const held = checkWrite(row, set, 'Expire', actor, nowText, false);
      if (held) {
        skipped.push({ id, reason: held.reason });
        continue;
      }
      if (action === 'hard_delete') {
        yield* exec(compileDeleteById(id, d, tenant));
        changes.push({ id, before: withoutDerived(row), after: null });
        // An ephemeral record's deletion erases the other ephemeral versions of its fact key,
        // never a durable or held one, nor one a lock keeps (spec/semantics.md "Retention").
        if (row.retention === 'ephemeral') {
          erased.add(id);
          if (typeof row.subject === 'string' && typeof row.attribute === 'string') {
            for (const v of (yield* ioAll(...stmt(compileEphemeralVersions(row.subject, row.attribute, d, tenant)))).map(decodeRow)) {
              const vid = Number(v.id);
              if (erased.has(vid) || checkWrite(v, null, 'Expire', actor, nowText, false)) continue;
              yield* exec(compileDeleteById(vid, d, tenant));
              changes.push({ id: vid, before: withoutDerived(v), after: null });
              erased.add(vid);
            }
          }
        }
      }
      if (set) {
        yield* exec(compileUpdateById(id, { ...set, updated_at: nowText }, d, tenant));
        changes.push({ id, before: withoutDerived(Object.fromEntries(Object.keys(set).map((k) => [k, row[k] ?? null]))), after: withoutDerived(set) });
      }
      applied.push({ id, action });
    }
    // Fact versions the sweep removed leave their chains: the neighbours re-link (src/execute/facts.ts);
    // a key whose re-linking a lock refuses is left as it is.
    const removed = due.filter((r) => changes.some((c) => c.id === Number(r.id) && (c.after === null || c.after.deleted === 1)));
    for (const key of factKeysOf(removed)) {
      const relinked = yield* relinkIo(d, tenant, [key], nowText, actor, 'Update');
      if ('changes' in relinked) mergeChanges(changes, relinked.changes);
    }
    if (changes.length) {
      yield* exec(compileAuditInsert({
        tenant, at: nowText, actor, op: 'Sweep', ir: null, affectedIds: changes.map((c) => c.id),
        before: Object.fromEntries(changes.map((c) => [c.id, c.before])), after: Object.fromEntries(changes.map((c) => [c.id, c.after])),
      }, d));
    }
    if (erased.size) yield* scrubAudit(store, tenant, erased, sql);
    return { commit: true, value: { applied, skipped, changes, sql } };
  });
}

