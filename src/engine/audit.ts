/**
 * The audit log: reading a tenant's entries, and undo (of an entry's soft deletes, or of a
 * feedback entry's rewards), itself a write with its own entry.
 */
import { compileAuditInsert, compileAuditLastId, compileAuditMarkUndone, compileAuditSelect, compileSelectByIds, compileUpdateById, decodeRow } from '../compile/index.js';
import { type Code } from '../diagnostics/codes.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { formatUtc } from '../lower/index.js';
import type { AnySqlDriver } from '../store/driver.js';
import { auditImages } from '../execute/audit.js';
import type { Change } from '../execute/rows.js';
import { unlearnReward, withoutFeedback } from '../experience/experience.js';
import { checkWrite } from '../execute/governance.js';
import { factKeysOf, mergeChanges, relinkIo, retractionsOf } from '../execute/facts.js';
import { declaredIn, undoDeclarationIo } from '../execute/schemas.js';
import { classExpiry } from '../execute/retention.js';
import { all as ioAll, run as ioRun, type Io } from '../store/io.js';
import type { Store } from '../store/store.js';
import { clock, DEFAULT_TENANT, stmt, tenantProblem } from './caller.js';

export interface AuditRecord {
  readonly id: number;
  readonly at: string;
  readonly actor: string | null;
  readonly op: string;
  readonly ir: unknown;
  readonly affectedIds: number[];
  readonly before: Record<string, Record<string, unknown> | null> | null;
  readonly after: Record<string, Record<string, unknown> | null> | null;
  readonly undoneBy: number | null;
  /** The run that wrote the entry (RunOptions.traceId), when it had one. */
  readonly traceId: string | null;
}



/** `auditLog` as queries (src/store/io.ts). */
export function* auditLogIo(store: Store<AnySqlDriver>, id?: number, tenant: string = DEFAULT_TENANT): Io<AuditRecord[]> {
  return (yield* ioAll(...stmt(compileAuditSelect(store.dialect, tenant, id)))).map((r) => auditImages(r)).map(({ r, ir, before, after }) => ({
    id: Number(r.id),
    traceId: r.trace_id === null || r.trace_id === undefined ? null : String(r.trace_id),
    at: String(r.at),
    actor: r.actor === null ? null : String(r.actor),
    op: String(r.op),
    ir,
    affectedIds: JSON.parse(String(r.affected_ids)),
    before,
    after,
    undoneBy: r.undone_by === null ? null : Number(r.undone_by),
  }));
}

export type UndoResult =
  | {
    readonly ok: true;
    readonly restored: readonly number[];
    /** Restored records whose expiry had passed: it is cleared so that they are live again. */
    readonly unexpired: readonly number[];
    readonly auditId: number;
  }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * Undoes the soft deletes recorded by audit entry `auditId` (a soft Delete, a Merge's or
 * Split's retired records, a sweep's soft_delete): the records become live again, and a restored
 * record whose expiry has passed has that expiry cleared, and a restored fact version's chain is
 * re-linked. Other writes of that entry are not reverted. A feedback entry (`PROMOTE … REWARD`)
 * is undone by taking its reward back out of each record's utility; any other entry without soft
 * deletes is refused.
 */

export interface UndoOptions {
  readonly now?: Date | string;
  readonly actor?: string;
  /** The caller's tenant (default `default`): only its audit entries and records are undone. */
  readonly tenant?: string;
}


/** `undo` as queries (src/store/io.ts). */
export function* undoIo(store: Store<AnySqlDriver>, auditId: number, options: UndoOptions = {}): Io<UndoResult> {
  const tenant = options.tenant ?? DEFAULT_TENANT;
  const fail = (code: Code, message: string): UndoResult => ({ ok: false, diagnostics: [diagnostic(code, message)] });
  const at = clock(options.now);
  if (!(at instanceof Date)) return { ok: false, diagnostics: [at] };
  const badTenant = tenantProblem(tenant);
  if (badTenant) return { ok: false, diagnostics: [badTenant] };
  const [entry] = yield* auditLogIo(store, auditId, tenant);
  if (!entry) return fail('undo-not-found', `no audit entry #${auditId}`);
  if (entry.undoneBy !== null) return fail('undo-already-done', `audit entry #${auditId} was already undone by entry #${entry.undoneBy}`);
  const softDeleted = Object.entries(entry.after ?? {})
    .filter(([, after]) => after && after.deleted === 1)
    .map(([id]) => Number(id));
  const reward = feedbackReward(entry);
  if (!softDeleted.length && reward !== undefined) return yield* undoFeedback(store, entry, reward, at, options.actor, tenant);
  const declared = declaredIn(entry.after);
  if (declared) {
    // An attribute schema declaration: its version is withdrawn (src/execute/schemas.ts).
    return yield* store.transactionIo<UndoResult>(function* () {
      const r = yield* undoDeclarationIo(store.dialect, tenant, auditId, declared, formatUtc(at), options.actor ?? null);
      return r.ok ? { commit: true, value: { ok: true, restored: [], unexpired: [], auditId: r.auditId } } : { commit: false, value: r };
    });
  }
  if (!softDeleted.length) return fail('undo-unsupported', `audit entry #${auditId} (${entry.op}) soft-deleted nothing; only soft deletes and feedback (PROMOTE … REWARD) can be undone`);
  const nowText = formatUtc(at);
  const d = store.dialect;
  return yield* store.transactionIo<UndoResult>(function* () {
    const rows = (yield* ioAll(...stmt(compileSelectByIds(softDeleted, d, tenant)))).map(decodeRow);
    const restored: number[] = [];
    const unexpired: number[] = [];
    const changes: Change[] = [];
    for (const row of rows) {
      if (row.deleted !== 1) continue;
      const set: Record<string, unknown> = { deleted: 0, deleted_at: null };
      // Transaction time keeps the spell it was retracted: what the store believed then stays as
      // it was (spec/semantics.md "Reads in time").
      if (typeof row.deleted_at === 'string') set.retractions = [...retractionsOf(row), `${row.deleted_at}/${nowText}`];
      // A record whose expiry has passed (the usual case after a sweep) would come back hidden
      // and be deleted again by the next sweep: undoing its deletion clears the spent expiry.
      if (typeof row.expire_at === 'string' && row.expire_at <= nowText) {
        // An ephemeral or session record is never without an expiry: its class's lifetime starts again (src/execute/retention.ts).
        Object.assign(set, { expire_at: null, expire_action: null, expire_reason: null }, classExpiry(row.retention, nowText));
        unexpired.push(Number(row.id));
      }
      // Undo is a write by the caller's actor, judged by the one effects check as any verb's:
      // retention, locks (as an Update of the record) and write permissions.
      const refused = checkWrite(row, set, 'Update', options.actor, nowText);
      if (refused) return { commit: false, value: fail(refused.code, `undo refused: ${refused.reason}`) };
      yield* ioRun(...stmt(compileUpdateById(Number(row.id), { ...set, updated_at: nowText }, d, tenant)));
      restored.push(Number(row.id));
      changes.push({ id: Number(row.id), before: Object.fromEntries(Object.keys(set).map((k) => [k, row[k] ?? null])), after: set });
    }
    if (!restored.length) return { commit: false, value: fail('undo-nothing', `the records of audit entry #${auditId} are gone or already live`) };
    // A restored fact version takes its place in its key's chain again: the links are re-derived
    // from the live versions (the chain as it was, when nothing else changed since), each a
    // write its version's lock may refuse (src/execute/facts.ts).
    const relinked = yield* relinkIo(d, tenant, factKeysOf(rows.filter((r) => restored.includes(Number(r.id)))), nowText, options.actor, 'Update');
    if ('refusal' in relinked) {
      const { code, reason } = relinked.refusal;
      return { commit: false, value: fail(code, `undo refused: ${reason} (restoring the version re-links its fact's chain)`) };
    }
    // A restored version's own links join its entry (other columns than the restore's).
    mergeChanges(changes, relinked.changes);
    yield* ioRun(...stmt(compileAuditInsert({
      tenant, at: nowText, actor: options.actor ?? null, op: 'Undo', ir: { undo: auditId }, affectedIds: changes.map((c) => c.id),
      before: Object.fromEntries(changes.map((c) => [c.id, c.before])), after: Object.fromEntries(changes.map((c) => [c.id, c.after])),
    }, d)));
    const [last] = yield* ioAll(...stmt(compileAuditLastId(d, tenant)));
    yield* ioRun(...stmt(compileAuditMarkUndone(auditId, Number(last.id), d, tenant)));
    return { commit: true, value: { ok: true, restored, unexpired, auditId: Number(last.id) } };
  });
}

/** The reward of a feedback entry (`PROMOTE … REWARD r` that changed utilities), if it is one. */
function feedbackReward(entry: AuditRecord): number | undefined {
  const ir = entry.ir as { op?: unknown; args?: { reward?: unknown } } | null;
  const reward = ir?.op === 'Promote' ? ir.args?.reward : undefined;
  const changedUtility = Object.values(entry.after ?? {}).some((a) => a && 'utility_n' in a);
  return typeof reward === 'number' && changedUtility ? reward : undefined;
}

/**
 * Undoes a feedback entry: each record it rewarded has that reward taken back out of its running
 * mean (later feedback stays counted), as one transaction with its own audit entry. Locks and
 * write permissions apply as to any write.
 */
function* undoFeedback(store: Store<AnySqlDriver>, entry: AuditRecord, reward: number, at: Date, actor: string | undefined, tenant: string): Io<UndoResult> {
  const nowText = formatUtc(at);
  const d = store.dialect;
  const ids = Object.entries(entry.after ?? {}).filter(([, a]) => a && 'utility_n' in a).map(([id]) => Number(id));
  return yield* store.transactionIo<UndoResult>(function* () {
    const rows = (yield* ioAll(...stmt(compileSelectByIds(ids, d, tenant)))).map(decodeRow);
    const restored: number[] = [];
    const changes: Change[] = [];
    for (const row of rows) {
      const set = withoutFeedback(row, reward);
      if (!set) continue;
      const refused = checkWrite(row, set, 'Promote', actor, nowText);
      if (refused) return { commit: false, value: { ok: false, diagnostics: [diagnostic(refused.code, `undo refused: ${refused.reason}`)] } };
      yield* ioRun(...stmt(compileUpdateById(Number(row.id), { ...set, updated_at: nowText }, d, tenant)));
      restored.push(Number(row.id));
      changes.push({ id: Number(row.id), before: { utility: row.utility ?? null, utility_n: row.utility_n ?? 0 }, after: set });
    }
    if (!restored.length) return { commit: false, value: { ok: false, diagnostics: [diagnostic('undo-nothing', `the records of audit entry #${entry.id} are gone or have no feedback to take back`)] } };
    // The learned selector's model forgets exactly what this reward taught it (src/experience/learner.ts).
    yield* unlearnReward((s) => ioAll(s.sql, s.params), d, tenant, entry.at, restored, reward);
    yield* ioRun(...stmt(compileAuditInsert({
      tenant, at: nowText, actor: actor ?? null, op: 'Undo', ir: { undo: entry.id }, affectedIds: restored,
      before: Object.fromEntries(changes.map((c) => [c.id, c.before])), after: Object.fromEntries(changes.map((c) => [c.id, c.after])),
    }, d)));
    const [last] = yield* ioAll(...stmt(compileAuditLastId(d, tenant)));
    yield* ioRun(...stmt(compileAuditMarkUndone(entry.id, Number(last.id), d, tenant)));
    return { commit: true, value: { ok: true, restored, unexpired: [], auditId: Number(last.id) } };
  });
}
