/**
 * Execute: runs one lowered Operation on a Store and reports what it did. Reads the target rows
 * with the compiled target select, checks governance, computes each record's new values and
 * writes them with compiled per-row statements, then records the write in the audit log.
 * Refusals (locks, permissions, missing confirmation, bad references) are returned as diagnostics,
 * never thrown; an exception here is a broken internal invariant.
 *
 * Everything that reads or writes is a generator yielding its queries (./io.ts, the async seam):
 * `executeOperationIo` runs on a synchronous or an asynchronous driver alike. This file
 * dispatches to the verbs (./verbs/, one file each); ./execution.ts is the statement they work
 * on, ./audit.ts its audit entry.
 */
import { declareSchema, normaliseTargetSubject } from './schemas.js';
import { compileAuditInsertRows, compileInsertRows, MEMORY_INSERT_WIDTH, type AuditEntry, type Dialect } from '../compile/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { EncodeOp, Operation } from '../lower/operation.js';
import type { Selector } from '../experience/experience.js';
import { DEFAULT_SEARCH_K } from '../retrieve/search.js';
import type { Reranker } from '../retrieve/rerank.js';
import type { EmbedResult } from '../text/text.js';
import { auditRecord, withAudit } from './audit.js';
import type { AnySqlDriver, SqlRow } from '../store/driver.js';
import { Execution } from './execution.js';
import type { Io } from '../store/io.js';
import type { ExecuteResult, StatementResult } from './rows.js';
import type { Store } from '../store/store.js';
import { remove } from './verbs/delete.js';
import { encode, encodeValues } from './verbs/encode.js';
import { expire } from './verbs/expire.js';
import { label } from './verbs/label.js';
import { lock } from './verbs/lock.js';
import { merge } from './verbs/merge.js';
import { promote } from './verbs/promote.js';
import { ofRows, retrieve, retrieveExperience, withoutHidden } from './verbs/retrieve.js';
import { split } from './verbs/split.js';
import { summarize } from './verbs/summarize.js';
import { update } from './verbs/update.js';

/** The caller's hooks a statement may call: the experience selector, the search reranker. */
export interface ExecuteHooks {
  readonly selector?: Selector;
  readonly rerank?: Reranker;
}

/** The verbs that write their target rows through `Execution.stage` and read them only through `value`/`full` (a Delete when soft). */
const LAZY_VERBS: ReadonlySet<string> = new Set(['Update', 'Promote', 'Demote', 'Lock', 'Expire', 'Delete']);

/**
 * Executes one operation; the caller owns the transaction (and rolls it back when the statement
 * is refused: a refusal may come after some of its writes).
 */
export function executeOperation(
  store: Store, op: Operation, index: number, limits: { readonly maxRows?: number } = {}, hooks: ExecuteHooks = {},
): ExecuteResult {
  return store.drive(executeOperationIo(store, op, index, limits, hooks));
}

/** `executeOperation` as queries, for either kind of driver (./io.ts). */
export function executeOperationIo(
  store: Store<AnySqlDriver>, op: Operation, index: number, limits: { readonly maxRows?: number } = {}, hooks: ExecuteHooks = {},
): Io<ExecuteResult> {
  // Not a generator itself: the caller's `yield*` delegates straight to the verb's (each generator
  // level a query passes through is resumed once per query).
  const x = new Execution(store, op, index);
  x.rerank = hooks.rerank;
  return op.kind === 'Encode' ? executeEncodeIo(x, op) : executeTargetedIo(x, op, limits, hooks);
}

/** `executeOperationIo` of an Encode: its record, then its audit entry. */
function* executeEncodeIo(x: Execution, op: EncodeOp): Io<ExecuteResult> {
  // A schema declaration writes no record: its own row and audit entry (./schemas.ts).
  if (op.declare) return { ok: true, result: x.result([], { schema: yield* declareSchema(x, op.declare) }) };
  const written = yield* encode(x, op);
  return x.refusal ? { ok: false, diagnostics: [x.refusal] } : { ok: true, result: yield* withAudit(x, written) };
}

/** `executeOperationIo` of a targeted operation (every verb but Encode): its target rows, then the verb. */
function* executeTargetedIo(x: Execution, op: Exclude<Operation, EncodeOp>, limits: { readonly maxRows?: number }, hooks: ExecuteHooks): Io<ExecuteResult> {
  const maxRows = limits.maxRows ?? Infinity;
  // A read returns at most maxRows rows: a filter Retrieve asks the store for one more (to know
  // whether it was cut), a search scores its candidates and is cut after ranking, a Summarize
  // summarizes the first maxRows (src/execute/verbs/summarize.ts); the candidate
  // stage of RETRIEVE … LEVEL takes at most maxRows candidates (its K is the search's limit).
  // A subject condition is compared in the form the tenant's attribute schemas store subjects in (./schemas.ts).
  let capped: Exclude<Operation, EncodeOp> = op.selection.filter?.subject === undefined ? op : yield* normaliseTargetSubject(x, op);
  if (op.kind === 'Retrieve' && Number.isFinite(maxRows)) {
    if (!op.selection.search && !(op.selection.limit !== undefined && op.selection.limit <= maxRows)) capped = { ...capped, selection: { ...capped.selection, limit: maxRows + 1 } };
    else if (op.experience && (op.selection.limit ?? DEFAULT_SEARCH_K) > maxRows) {
      x.warn('truncated', `RETRIEVE … LEVEL asks for ${op.selection.limit ?? DEFAULT_SEARCH_K} candidates; the row limit keeps ${maxRows} (RunOptions.limits.maxRows, t2m run --max-rows)`, 'target');
      capped = { ...capped, selection: { ...capped.selection, limit: maxRows } };
    }
  }
  // The verbs whose readers of the target rows decode what they read (Execution.lazy).
  // (Not a Retrieve: the columns it returns are most of what decoding parses, tags above all;
  // reading them where returned measured the same as decoding the rows.)
  x.lazy = !op.selection.search && LAZY_VERBS.has(op.kind) && !(op.kind === 'Delete' && !op.soft);
  let { rows, scores, explain } = yield* x.target(capped);
  if (x.refusal) return { ok: false, diagnostics: [x.refusal] };
  if (rows.length === 0 && op.kind !== 'Retrieve' && op.kind !== 'Summarize') {
    x.warn('no-match', `${op.kind}: the target matches no live record`, 'target');
  }
  if (op.kind === 'Retrieve' || op.kind === 'Summarize') {
    const shown = withoutHidden(x, op, rows);
    // A record a lock hides leaves no score or explanation behind either.
    if (shown !== rows) [rows, scores, explain] = [shown, ofRows(scores, shown, true), ofRows(explain, shown, true)];
  }
  switch (op.kind) {
    case 'Retrieve':
      if (op.experience) return yield* retrieveExperience(x, op, rows, scores ?? {}, hooks.selector, maxRows);
      return yield* retrieve(x, op, rows, scores, explain, maxRows);
    case 'Summarize': return summarize(x, op, rows, scores, explain, maxRows);
    case 'Merge': return yield* done(x, merge(x, op, rows));
    case 'Split': return yield* done(x, split(x, op, rows));
    // The verbs that report every target row, changed or not. Their writes are delegated to from
    // here (each generator level a query passes through is resumed once per query: a row's
    // UPDATE passes through the verb and this function only), then the audit entry.
    case 'Update': yield* update(x, op, rows); break;
    case 'Label': yield* label(x, op, rows); break;
    case 'Promote': case 'Demote': yield* promote(x, op, rows); break;
    case 'Lock': yield* lock(x, op, rows); break;
    case 'Expire': yield* expire(x, op, rows); break;
    case 'Delete': yield* remove(x, op, rows); break;
  }
  if (x.refusal) return { ok: false, diagnostics: [x.refusal] };
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i++) ids.push(rows[i].id);
  return { ok: true, result: yield* withAudit(x, ids) };
}

// A module function (closures made per statement cost an allocation each, and under tsx a
// `defineProperty` for their names).

/** A write's outcome: its refusal, or its result with its audit entry written. */
function* done(x: Execution, writes: Io<number[]>): Io<ExecuteResult> {
  const written = yield* writes;
  return x.refusal ? { ok: false, diagnostics: [x.refusal] } : { ok: true, result: yield* withAudit(x, written) };
}

/**
 * Whether an Encode may be executed in a run (`executeEncodeRunIo`): it writes one record and
 * reads nothing first (no fact to supersede, no episode to check) and is not a dry run.
 */
export function encodeRunnable(op: Operation): op is EncodeOp {
  return op.kind === 'Encode' && !op.dryRun && op.fact === undefined && op.declare === undefined && typeof op.values.episode_id !== 'number';
}

/** Statements per chunk of a run of Encodes: one multi-row INSERT of their records, then one of their audit entries. */
export const ENCODE_CHUNK = 100;

/** The rows per chunk on dialect `d`: ENCODE_CHUNK, or fewer if the widest record would bind more than `maxParams` values. */
function encodeChunkRows(d: Dialect): number {
  return Math.max(1, Math.min(ENCODE_CHUNK, Math.floor(d.maxParams / MEMORY_INSERT_WIDTH)));
}

/** A run of Encodes' outcome: every statement's result, or those before the refused one and its refusal. */
export type EncodeRunResult =
  | { readonly ok: true; readonly results: readonly StatementResult[] }
  | { readonly ok: false; readonly results: readonly StatementResult[]; readonly index: number; readonly diagnostics: readonly Diagnostic[] };

/**
 * Executes consecutive Encodes (each `encodeRunnable`; statement indexes `first`, `first + 1`…)
 * with what one at a time would give: the same records with the same ids, the same audit entries
 * in the same order, the same results, but for `sql`. Each record's values are built as `encode`
 * builds them, its embedding asked for through the seam (one request per record, in order); then,
 * chunk by chunk of ENCODE_CHUNK statements, one INSERT writes the chunk's records (their ids are
 * matched by `statement_index`) and one INSERT its audit entries. The two statements are listed
 * in the `sql` of the chunk's first statement (the others list none), so the results' `sql`, in
 * order, is every statement issued, once, in the order issued. A refusal (the embedder failed)
 * stops the run there: the statements before it are written and reported, as one at a time.
 */
export function* executeEncodeRunIo(store: Store<AnySqlDriver>, ops: readonly EncodeOp[], first: number): Io<EncodeRunResult> {
  const runs: Execution[] = [];
  const records: Record<string, unknown>[] = [];
  let refusal: Diagnostic | undefined;
  // The engine's embeddings of the run, asked for in one request (a remote model answers it in its
  // own batches). If the model fails, they are asked for again one record at a time, in order, so
  // that the failure is charged to the statement whose text fails, as one at a time charges it.
  const vectors = yield* runEmbeddings(ops);
  const model = store.embedder.model;
  for (let k = 0, e = 0; k < ops.length; k++) {
    const op = ops[k];
    const x = new Execution(store, op, first + k);
    const values = encodeValues(op);
    if (!op.embedding && !op.skipEmbedding) {
      if (vectors) {
        // What `x.embedding` gives, in its key order.
        values.embedding = null;
        values.embedding_f32 = vectors[e++];
        values.embedding_model = model;
      } else Object.assign(values, yield* x.embedding(String(op.values.text ?? '')));
    }
    if (x.refusal) {
      refusal = x.refusal;
      break;
    }
    x.stamp(values);
    runs.push(x);
    records.push(values);
  }
  const d = store.dialect;
  const per = encodeChunkRows(d);
  for (let a = 0; a < runs.length; a += per) {
    const b = Math.min(runs.length, a + per);
    const lead = runs[a];
    const insert = compileInsertRows(records.slice(a, b), d);
    lead.sql.push(insert);
    const returned = (yield { kind: 'all', sql: insert.sql, params: insert.params }) as SqlRow[];
    const ids = new Map<number, number>();
    for (const r of returned) ids.set(Number(r.statement_index), Number(r.id));
    const entries: AuditEntry[] = [];
    for (let k = a; k < b; k++) {
      const x = runs[k];
      const id = ids.get(x.op.statement);
      if (id === undefined) throw new Error(`internal: the insert of a run of Encodes returned no id for statement ${x.op.statement}`);
      x.inserted(records[k], id);
      entries.push(auditRecord(x, x.changes));
    }
    const audit = compileAuditInsertRows(entries, d);
    lead.sql.push(audit);
    yield { kind: 'run', sql: audit.sql, params: audit.params };
  }
  const results: StatementResult[] = [];
  for (const x of runs) results.push(x.result([x.changes[0].id]));
  return refusal ? { ok: false, results, index: first + runs.length, diagnostics: [refusal] } : { ok: true, results };
}

/**
 * The store embedder's vectors for the run's Encodes that the engine embeds (in order), in one
 * `embed` request; undefined when the model failed (or none is embedded), and then each record asks
 * for its own.
 */
function* runEmbeddings(ops: readonly EncodeOp[]): Io<Float32Array[] | undefined> {
  const texts: string[] = [];
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k];
    if (!op.embedding && !op.skipEmbedding) texts.push(String(op.values.text ?? ''));
  }
  if (!texts.length) return undefined;
  const r = (yield { kind: 'embed', texts }) as EmbedResult;
  return r.ok && r.vectors.length === texts.length ? r.vectors : undefined;
}
