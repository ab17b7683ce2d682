/**
 * Execute: runs one lowered Operation on a Store and reports what it did. Reads the target rows
 * with the compiled target select, checks governance, computes each record's new values and
 * writes them with compiled per-row statements, then records the write in the audit log.
 * Refusals (locks, permissions, missing confirmation, bad references) are returned as diagnostics,
 * never thrown; an exception here is a broken internal invariant.
 *
 * Everything that reads or writes is a generator yielding its queries (./io.ts, the async seam):
 * `executeOperationIo` runs on a synchronous or an asynchronous driver alike.
 */
import {
  compile, compileAuditInsert, compileAuditInsertRows, compileAuditScrub, compileDeleteById, compileFactVersions, compileInsert, compileInsertRows, compileTargetSelect,
  compileUpdateById, decodedColumn, decodeOwnedRow, decodeRow, MEMORY_INSERT_WIDTH, unpackVector, type AuditEntry, type Dialect, type SqlStatement,
} from '../compile/index.js';
import { diagnostic, type Code } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { JsonValue } from '../ir/schema.js';
import { ARCHIVE_WEIGHT, BASE_WEIGHT } from '../lower/index.js';
import type {
  DeleteOp, DemoteOp, EncodeOp, ExpireOp, FactWrite, LabelOp, LockOp, MergeOp, Operation, PromoteOp, SplitOp, TargetedOperation,
  UpdateOp, WeightChange,
} from '../lower/operation.js';
import { canRead, effectsOf, lockActive, lockDenies, lockRefusal, nonAdditive, writeRefusal } from './governance.js';
import type { AnySqlDriver } from '../store/driver.js';
import { all as ioAll, type Io } from '../store/io.js';
import type { SqlRow } from '../store/driver.js';
import type { EmbedResult } from './text.js';
import { checkEpisode, episodeSource, feedbackValues, selectExperience, turnPiece, type ExperienceReport, type Selector } from './experience.js';
import type { Store } from '../store/store.js';
import { DERIVED_COLUMNS } from '../store/columns.js';
import { searchTarget, type ScoreExplanation } from './search.js';
import { SEARCHED_FIELDS, searchTextOf, splitChunks, splitInto, splitSections, splitSentences } from './text.js';
import { noteKeywordWrite } from './keywords.js';
import { noteVectorWrite } from './vectors.js';

export type Row = Record<string, unknown> & { id: number };

/** Before/after images of the fields a statement changed in one record (after is null when the record was removed). */
export interface Change {
  readonly id: number;
  readonly before: Readonly<Record<string, unknown>> | null;
  readonly after: Readonly<Record<string, unknown>> | null;
}

export interface RecordProvenance {
  readonly actor: string | null;
  readonly trace_id: string | null;
  readonly statement: number | null;
  readonly episode: string | null;
  readonly supersedes: number | null;
}

const stringOrNull = (v: unknown) => (typeof v === 'string' ? v : null);
const numberOrNull = (v: unknown) => (typeof v === 'number' ? v : null);

function provenanceOf(rows: readonly Row[]): Record<number, RecordProvenance> {
  const s = stringOrNull;
  const n = numberOrNull;
  // Filled in place (ids are integer keys: no `__proto__` to fear), not built from entry pairs.
  const out: Record<number, RecordProvenance> = {};
  for (const r of rows) out[r.id] = { actor: s(r.owner), trace_id: s(r.trace_id), statement: n(r.statement_index), episode: s(r.episode), supersedes: n(r.supersedes) };
  return out;
}

export interface StatementResult {
  readonly index: number;
  readonly op: Operation['kind'];
  /** Records written (or, under dry_run, that would be); for reads, the records returned. */
  readonly ids: readonly number[];
  /** Retrieve: the returned records, projected to `include`. */
  readonly rows?: readonly Record<string, unknown>[];
  /**
   * Retrieve/Summarize: where each returned record came from (spec/semantics.md "Provenance"):
   * the actor and run (trace id, statement) that wrote it, its source episode, the version it
   * superseded.
   */
  readonly provenance?: Readonly<Record<number, RecordProvenance>>;
  /** Retrieve/Summarize with a search: relevance score per returned id. */
  readonly scores?: Readonly<Record<number, number>>;
  /** Retrieve/Summarize with a search: what each returned id's score is made of (spec/retrieval.md). */
  readonly explain?: Readonly<Record<number, ScoreExplanation>>;
  readonly summary?: string;
  /** RETRIEVE … LEVEL: the candidates, the selection and why (spec/semantics.md#experience-memory). */
  readonly experience?: ExperienceReport;
  readonly changes: readonly Change[];
  readonly warnings: readonly Diagnostic[];
  /**
   * Every statement issued, in order (the target select first). In a run of Encodes
   * (`executeEncodeRunIo`) the statements shared by a chunk of them are listed once, in the
   * chunk's first statement; the others list none.
   */
  readonly sql: readonly SqlStatement[];
  readonly dryRun: boolean;
  /** A dry-run statement that would be refused (a lock, a permission…): the refusal, as an error. */
  readonly refused?: Diagnostic;
}

/**
 * A statement's outcome: its result, or its refusal (a lock, a permission, a missing
 * confirmation, a bad reference) as error diagnostics naming the statement and, where known, the
 * IR path. A refused statement may have written before it was refused: the caller rolls back.
 */
export type ExecuteResult =
  | { readonly ok: true; readonly result: StatementResult }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** SEARCHED_FIELDS as a set, for the per-row, per-field test of Execution.update. */
const SEARCHED: ReadonlySet<string> = new Set(SEARCHED_FIELDS);

/** The verbs that write their target rows through `Execution.stage` and read them only through `value`/`full` (a Delete when soft). */
const LAZY_VERBS: ReadonlySet<string> = new Set(['Update', 'Promote', 'Demote', 'Lock', 'Expire', 'Delete']);

const WRITE_OPS = new Set(['Update', 'Label', 'Promote', 'Demote', 'Merge', 'Split', 'Lock', 'Expire', 'Delete']);

/** No record ids (`Execution.unreadable` before the first). */
const NO_IDS: ReadonlySet<number> = new Set();

/** One statement's execution: its SQL, warnings, changes and refusal (experience.ts works on it too). */
export class Execution {
  readonly sql: SqlStatement[] = [];
  readonly warnings: Diagnostic[] = [];
  readonly changes: Change[] = [];
  /** Set by `refuse`: the statement stops and is returned as refused. */
  refusal?: Diagnostic;
  /**
   * Records written that the actor may not read: their images are redacted in the result. The
   * shared empty set until the first one (most statements, and every Encode of a run, have none).
   */
  unreadable: ReadonlySet<number> = NO_IDS;
  private noteUnreadable(id: number): void {
    const ids = this.unreadable === NO_IDS ? new Set<number>() : (this.unreadable as Set<number>);
    ids.add(id);
    this.unreadable = ids;
  }
  constructor(readonly store: Store<AnySqlDriver>, readonly op: Operation, readonly index: number) {}

  *query(stmt: SqlStatement, decode = true): Io<Row[]> {
    this.sql.push(stmt);
    // Queries are yielded as they are (what `ioAll` yields), one generator level less.
    const rows = (yield { kind: 'all', sql: stmt.sql, params: stmt.params }) as SqlRow[];
    // The driver's rows are fresh objects only this statement holds: decoded in place.
    if (decode) for (let i = 0; i < rows.length; i++) decodeOwnedRow(rows[i]);
    return rows as unknown as Row[];
  }

  /**
   * Whether the target rows are read as the driver gave them, their JSON columns decoded only
   * where read (`value`), or the whole row where a reader needs it (`full`): set by
   * `executeTargetedIo` for the verbs that write row by row through `stage`, whose every reader
   * goes through these. Decoding a dozen JSON columns of every target row was a tenth of a
   * filtered Update's JavaScript, though it reads two columns of a row.
   */
  lazy = false;
  /** Target rows decoded whole (`full`) under `lazy`. */
  private decodedRows: Set<Row> | undefined;

  /** Decodes a target row whole, once, under `lazy` (a reader needs every column). */
  full(row: Row): void {
    if (!this.lazy || this.decodedRows?.has(row)) return;
    decodeOwnedRow(row);
    (this.decodedRows ??= new Set()).add(row);
  }

  /** Column `k` of a target row, decoded (the row is not changed). */
  value(row: Row, k: string): unknown {
    return this.lazy && !this.decodedRows?.has(row) ? decodedColumn(row, k) : row[k];
  }
  *write(stmt: SqlStatement): Io<number> {
    this.sql.push(stmt);
    return (yield { kind: 'run', sql: stmt.sql, params: stmt.params }) as number;
  }
  warn(code: Code, message: string, path?: string): void {
    this.warnings.push(diagnostic(code, message, { severity: 'warning', path, statement: this.index }));
  }
  /** Refuses the statement; returns false so that callers can `return x.refuse(…)`. */
  refuse(code: Code, message: string, path?: string): false {
    this.refusal ??= diagnostic(code, message, { severity: 'error', ...(path !== undefined ? { path } : {}), statement: this.index });
    return false;
  }

  /** Target rows: the compiled select, or for a search the ranked candidates (./search.ts). */
  *target(op: TargetedOperation): Io<{ rows: Row[]; scores?: Record<number, number>; explain?: Record<number, ScoreExplanation> }> {
    const sel = op.selection;
    if (sel.all && WRITE_OPS.has(op.kind) && !op.confirmation && !op.dryRun) {
      this.refuse('all-requires-confirmation', `${op.kind} on all records needs meta.confirmation = true`, 'target.all');
      return { rows: [] };
    }
    if (sel.search) {
      const read = op.kind === 'Retrieve' || op.kind === 'Summarize';
      return yield* searchTarget(this, sel, { tenant: op.tenant, now: op.now, readerActor: op.actor, applyReadPermissions: read });
    }
    const stmt = compile(op, this.store.dialect).target!;
    // `this.query`, inlined: one generator level less for the statement's main query.
    this.sql.push(stmt);
    let rows = (yield { kind: 'all', sql: stmt.sql, params: stmt.params }) as Row[];
    if (!this.lazy) for (let i = 0; i < rows.length; i++) decodeOwnedRow(rows[i]);
    if (sel.ids) {
      const found = new Set(rows.map((r) => r.id));
      let missing = sel.ids.filter((id) => !found.has(id));
      if (missing.length && (op.kind === 'Retrieve' || op.kind === 'Summarize')) {
        // Tell "hidden from this reader" apart from "not there"; only the ids are reported.
        const live = yield* this.query(compileTargetSelect({ ids: missing, all: false, orderBy: 'time_desc', asOf: sel.asOf, history: sel.history }, this.store.dialect, { tenant: op.tenant, now: op.now, applyReadPermissions: false }));
        const unreadable = new Set(live.map((r) => r.id));
        if (unreadable.size) {
          const who = op.actor ? `actor '${op.actor}'` : 'an anonymous reader';
          this.warn('not-readable', `memory ${[...unreadable].map((id) => `#${id}`).join(', ')} ${unreadable.size === 1 ? 'is' : 'are'} not readable by ${who}; left out`, 'target.ids');
          missing = missing.filter((id) => !unreadable.has(id));
        }
      }
      if (missing.length) this.warn('ids-not-found', `no live record with id ${missing.join(', ')}`, 'target.ids');
    }
    return { rows };
  }

  /**
   * Refuses the whole statement if any target record is locked against it or not writable by the
   * actor; true when the statement may go on.
   */
  guard(op: TargetedOperation, rows: readonly Row[], appendOnlyCompatible = false): boolean {
    for (const row of rows) {
      // A lock in force reads the lock policy and, for the message, more: the row is decoded.
      if (this.lazy && lockActive(row, op.now)) this.full(row);
      const lock = lockRefusal(row, op.kind, op.actor, op.now, appendOnlyCompatible);
      if (lock) {
        const until = typeof row.lock_expires === 'string' ? ` until ${row.lock_expires}` : '';
        const reason = typeof row.lock_reason === 'string' && row.lock_reason ? ` (reason: ${row.lock_reason})` : '';
        return this.refuse('record-locked', `${op.kind} refused: memory #${row.id} is locked ${row.lock_mode}${until}${reason}; ${lock}`);
      }
      const perm = writeRefusal(row, op.actor);
      if (perm) return this.refuse('permission-denied', `${op.kind} refused: memory #${row.id}: ${perm}`);
    }
    return true;
  }

  /**
   * Checks one record's write against what it does to the record (spec/semantics.md "Locks"):
   * a lock whose policy denies any of its effects refuses it, whichever verb is acting, and an
   * append-only lock refuses anything but additions. Records the actor may not read are noted so
   * that the result does not show their images. True when the write may go on.
   */
  effectGuard(row: Row, changes: Record<string, unknown> | null): boolean {
    const op = this.op;
    if (!canRead(row, op.actor)) this.noteUnreadable(row.id);
    if (!lockActive(row, op.now)) return true;
    this.full(row);
    const effects = effectsOf(row, changes);
    const changed = nonAdditive(row, changes);
    const additive = changed.length === 0 && !effects.some((e) => e === 'Delete' || e === 'Expire' || e === 'Lock');
    const lock = lockRefusal(row, op.kind, op.actor, op.now, additive, effects);
    if (!lock) return true;
    const until = typeof row.lock_expires === 'string' ? ` until ${row.lock_expires}` : '';
    const what = changed.length && row.lock_mode === 'append_only' && !additive ? ` (it would change ${changed.join(', ')})` : '';
    return this.refuse('record-locked', `${op.kind} refused: memory #${row.id} is locked ${row.lock_mode}${until}; ${lock}${what}`);
  }

  /** Refuses the statement unless the actor may read every record in `rows` (writes that copy or reveal content). */
  readGuard(rows: readonly Row[], why: string): boolean {
    const op = this.op;
    for (const row of rows) {
      if (canRead(row, op.actor)) continue;
      const who = op.actor ? `actor '${op.actor}'` : 'an anonymous actor';
      return this.refuse('read-denied', `${op.kind} refused: memory #${row.id} is not readable by ${who}, and ${why}`);
    }
    return true;
  }

  /** Writes `changes` to `row` and records before/after images of the changed fields. */
  *update(row: Row, changes: Record<string, unknown>): Io<void> {
    this.stage(row, changes);
    yield* this.flush();
  }

  /**
   * Per-row UPDATEs staged by `stage` and not yet sent (`flush` sends them in one request), and
   * what the in-memory indexes learn once they have run.
   */
  private staged: SqlStatement[] | undefined;
  private stagedNotes: (() => void)[] | undefined;

  /**
   * `update` without its query: computes the write of `changes` to `row` (guards, images, the
   * statement, the change) at once and stages its UPDATE, which `flush` sends with the others
   * staged, in order, before any other query of the statement. The verbs that write row after
   * row call it, then `flush`: a row's UPDATE then passes through no generator level of its own.
   */
  stage(row: Row, changes: Record<string, unknown>): void {
    if (this.refusal) return;
    if (this.lazy) {
      // What reads the whole row (a lock's checks, the search tokens) gets it decoded.
      let whole = lockActive(row, this.op.now);
      if (!whole) for (const k in changes) if (SEARCHED.has(k)) { whole = true; break; }
      if (whole) this.full(row);
    }
    const changed: string[] = [];
    // The changed fields' values before the write (decoded), for the before image.
    const old: unknown[] = [];
    const set: Record<string, unknown> = {};
    let searched = false;
    for (const k in changes) {
      const was = this.value(row, k);
      if (sameValue(was, changes[k])) continue;
      changed.push(k);
      old.push(was);
      set[k] = changes[k];
      if (SEARCHED.has(k)) searched = true;
    }
    if (!changed.length) return;
    if (!this.effectGuard(row, set)) return;
    set.updated_at = this.op.now;
    if (searched) {
      const searchText = searchTextOf({ ...row, ...set });
      if (searchText !== (row.search_text ?? null)) set.search_text = searchText;
    }
    // The images, built as the write's set is final (the same as picking the changed fields of
    // the row and of the set, then leaving out the derived ones: withoutVector(pick(…))).
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (let i = 0; i < changed.length; i++) {
      const k = changed[i];
      if (k === 'embedding' || DERIVED_COLUMNS.has(k)) continue;
      put(before, k, old[i] ?? null);
      put(after, k, set[k] ?? null);
    }
    const stmt = compileUpdateById(row.id, set, this.store.dialect, this.op.tenant);
    if (this.unreadable.has(row.id) && 'search_text' in set) {
      // The search tokens are the record's content: the statement log shows them redacted.
      const at = Object.keys(set).indexOf('search_text');
      this.sql.push({ sql: stmt.sql, params: stmt.params.map((v, i) => (i === at ? REDACTED : v)) });
    } else this.sql.push(stmt);
    (this.staged ??= []).push(stmt);
    // These columns move the store's index counter (one step per row written): the in-memory
    // indexes follow, once the write has run.
    if ('embedding_f32' in set || 'embedding_model' in set || 'deleted' in set || 'search_text' in set) {
      const written = { ...row, ...set };
      const store = this.store;
      const id = row.id;
      (this.stagedNotes ??= []).push(() => {
        noteVectorWrite(store, id, written.embedding_model, written.deleted ? null : asVector(written.embedding_f32));
        noteKeywordWrite(store, id, written.deleted ? null : written.search_text);
      });
    }
    this.changes.push({ id: row.id, before, after });
    Object.assign(row, set);
  }

  /** Sends the staged UPDATEs (one request; a lone one as itself), then tells the in-memory indexes. */
  *flush(): Io<void> {
    const staged = this.staged;
    if (!staged) return;
    const notes = this.stagedNotes;
    this.staged = undefined;
    this.stagedNotes = undefined;
    if (staged.length === 1) yield { kind: 'run', sql: staged[0].sql, params: staged[0].params };
    else yield { kind: 'runs', statements: staged };
    if (notes) for (let i = 0; i < notes.length; i++) notes[i]();
  }

  /**
   * Inserts a record into the run's tenant, with the run's provenance (trace id, statement).
   * Takes `values` as its own: the provenance and the search tokens are added to it (callers pass
   * a fresh object; copying it again, or `{ ...values, tenant, … }`, a spread followed by more keys
   * and V8's slow path on these twenty-key objects, cost microseconds a record).
   */
  *insert(values: Record<string, unknown>): Io<number> {
    this.stamp(values);
    const stmt = compileInsert(values, this.store.dialect);
    this.sql.push(stmt);
    // The query yielded here, not through `ioAll`: each generator level a query passes through is
    // resumed once per query, and an Encode's queries pass through the most (./io.ts).
    const rows = (yield { kind: 'all', sql: stmt.sql, params: stmt.params }) as SqlRow[];
    const id = Number(rows[0]?.id ?? (yield* ioAll(this.store.dialect.lastInsertId(), []))[0].id);
    this.inserted(values, id);
    return id;
  }

  /** A record's provenance (tenant, trace id, statement) and search tokens, added to `values` before it is inserted. */
  stamp(values: Record<string, unknown>): void {
    values.tenant = this.op.tenant;
    values.trace_id = this.op.traceId || null;
    values.statement_index = this.index;
    values.search_text = searchTextOf(values);
  }

  /** What follows the insert of `values` as record `id`: the in-memory indexes, and the change (its after image). */
  inserted(values: Record<string, unknown>, id: number): void {
    noteVectorWrite(this.store, id, values.embedding_model, values.deleted ? null : asVector(values.embedding_f32));
    // The after image: the record as written, without its vectors and search tokens (withoutVector),
    // built by spreading: adding twenty fields one by one leaves an object V8 keeps as a dictionary,
    // slow to build and to serialise into the audit entry.
    const { embedding: _vector, embedding_f32: _packed, search_text: _tokens, ...written } = values;
    const after: Record<string, unknown> = { id, ...written };
    noteKeywordWrite(this.store, id, values.deleted ? null : values.search_text as string);
    this.changes.push({ id, before: null, after });
  }

  /** Removes a record for good: the row and every index entry derived from it (compileDeleteById). */
  *remove(row: Row): Io<void> {
    if (this.refusal || !this.effectGuard(row, null)) return;
    yield* this.write(compileDeleteById(row.id, this.store.dialect, this.op.tenant));
    noteVectorWrite(this.store, row.id, null, null);
    noteKeywordWrite(this.store, row.id, null);
    this.changes.push({ id: row.id, before: withoutVector(row), after: null });
  }

  /**
   * A hard deletion whose retention erases history (ephemeral): the record's other versions go
   * too, and the audit images of every version are blanked (the entries stay: who, when, which op).
   */
  *eraseHistory(row: Row): Io<void> {
    if (this.refusal || row.retention !== 'ephemeral') return;
    const versions = typeof row.attribute === 'string' && typeof row.subject === 'string'
      ? (yield* this.query(compileFactVersions(row.subject, row.attribute, this.store.dialect, this.op.tenant))).filter((v) => v.id !== row.id)
      : [];
    for (const v of versions) yield* this.remove(v);
    this.erased.push(row.id, ...versions.map((v) => v.id));
  }
  /** Ids whose audit images are blanked once the statement's own entry is written. */
  readonly erased: number[] = [];

  /**
   * The engine's embedding of `text` (by the store's embedder, through the seam): packed in
   * `embedding_f32`; the JSON column holds only callers' vectors. When the embedder fails, the
   * statement is refused (nothing to set; the caller's transaction rolls its writes back).
   */
  *embedding(text: string): Io<{ embedding: null; embedding_f32: Float32Array; embedding_model: string } | Record<string, never>> {
    const r = (yield { kind: 'embed', texts: [text] }) as EmbedResult;
    if (!r.ok) {
      this.refuse(r.diagnostics[0].code, r.diagnostics[0].message);
      return {};
    }
    return { embedding: null, embedding_f32: r.vectors[0], embedding_model: this.store.embedder.model };
  }

  /** The changes as the actor may see them: images of records it may not read are redacted. */
  visibleChanges(): Change[] {
    return this.unreadable.size ? this.changes.map((c) => (this.unreadable.has(c.id) ? redacted(c) : c)) : this.changes;
  }

  /**
   * A Retrieve's result: its ids, rows projected to `include`, scores, explanations and
   * provenance, with the keys in the order `result(ids, { rows, scores, explain, provenance })`
   * gives them, built in one literal (that spread took V8's slow path).
   */
  readResult(rows: readonly Row[], include: readonly string[], scores: Record<number, number> | undefined, explain: Record<number, ScoreExplanation> | undefined): StatementResult {
    const ids: number[] = [];
    const projected: Record<string, unknown>[] = [];
    // One pass over the rows for the ids, the projection and the provenance (provenanceOf's).
    const provenance: Record<number, RecordProvenance> = {};
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      ids.push(r.id);
      projected.push(project(r, include));
      provenance[r.id] = { actor: stringOrNull(r.owner), trace_id: stringOrNull(r.trace_id), statement: numberOrNull(r.statement_index), episode: stringOrNull(r.episode), supersedes: numberOrNull(r.supersedes) };
    }
    return {
      index: this.index, op: this.op.kind, ids, changes: this.visibleChanges(), warnings: this.warnings, sql: this.sql,
      dryRun: this.op.dryRun, rows: projected, scores, explain, provenance,
    };
  }

  result(ids: readonly number[], extra?: Partial<StatementResult>): StatementResult {
    const result: StatementResult = {
      index: this.index, op: this.op.kind, ids, changes: this.visibleChanges(), warnings: this.warnings, sql: this.sql,
      dryRun: this.op.dryRun,
    };
    // Without extras (every write) no spread: a spread after keys takes V8's slow path (microseconds).
    return extra ? { ...result, ...extra } : result;
  }
}

/** The image of a record the actor may not read: which fields changed, not their values (the audit log keeps them). */
export const REDACTED = '[redacted]';
function redacted(c: Change): Change {
  const hide = (image: Readonly<Record<string, unknown>> | null) => (image ? Object.fromEntries(Object.keys(image).map((k) => [k, k === 'id' ? image[k] : REDACTED])) : null);
  return { id: c.id, before: hide(c.before), after: hide(c.after) };
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
const clamp01 = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1e6) / 1e6;

// The insert's after image leaves out exactly these derived columns (Execution.insert).
if (DERIVED_COLUMNS.size !== 2 || !DERIVED_COLUMNS.has('search_text') || !DERIVED_COLUMNS.has('embedding_f32')) throw new Error('internal: DERIVED_COLUMNS changed: update Execution.insert');

/**
 * Before/after images leave out the embedding vectors and the search tokens: they are derived
 * from the text (embedding_model says how), and the vectors would be most of every audit entry.
 */
function withoutVector(image: Record<string, unknown>): Record<string, unknown> {
  let derived = false;
  for (const k in image) if (k === 'embedding' || DERIVED_COLUMNS.has(k)) { derived = true; break; }
  if (!derived) return image;
  const out: Record<string, unknown> = {};
  for (const k in image) if (k !== 'embedding' && !DERIVED_COLUMNS.has(k)) put(out, k, image[k]);
  return out;
}

/**
 * Whether a write would leave a field as it is: the two values' JSON is the same (a missing value
 * counts as null). Strings and finite numbers are compared directly, which is the same verdict.
 */
function sameValue(a: unknown, b: unknown): boolean {
  const x = a ?? null;
  const y = b ?? null;
  if (x === y) return true;
  // A value against null (a field the record does not have yet): JSON says 'null' only for a
  // number that is not finite; a string or boolean is never the same.
  if (x === null || y === null) {
    const other = x === null ? y : x;
    if (typeof other === 'string' || typeof other === 'boolean') return false;
    if (typeof other === 'number') return !Number.isFinite(other);
  }
  const tx = typeof x;
  const ty = typeof y;
  if (tx === 'string' && ty === 'string') return false;
  if (tx === 'number' && ty === 'number' && Number.isFinite(x) && Number.isFinite(y)) return false;
  return JSON.stringify(x) === JSON.stringify(y);
}

/** A vector as Float32 (an embedder's output or a packed BLOB read back); null for anything else. */
function asVector(v: unknown): Float32Array | null {
  if (v instanceof Float32Array) return v;
  if (v instanceof Uint8Array) return unpackVector(v);
  if (Array.isArray(v) || (v && typeof v === 'object' && 'length' in v)) return Float32Array.from(v as ArrayLike<number>);
  return null;
}

function pick(row: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) put(out, k, row[k] ?? null);
  return out;
}

/** `o[key] = value` as an own property, whatever the key (`__proto__` included). */
function put(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') setOwnKey(o, key, value);
  else o[key] = value;
}

const asTags = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const asObject = (v: unknown): Record<string, JsonValue> => (v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, JsonValue>) } : {});
const asIds = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);

function newWeight(current: unknown, change: WeightChange): number | undefined {
  const w = typeof current === 'number' ? current : BASE_WEIGHT;
  switch (change.kind) {
    case 'set': return clamp01(change.weight);
    case 'shift': return clamp01(w + change.delta);
    case 'archive': return clamp01(Math.min(w, ARCHIVE_WEIGHT));
    case 'none': return undefined;
  }
}

function* encode(x: Execution, op: EncodeOp): Io<number[]> {
  if (typeof op.values.episode_id === 'number' && !(yield* checkEpisode(x, op.values.episode_id))) return [];
  const values = encodeValues(op);
  if (!op.embedding && !op.skipEmbedding) Object.assign(values, yield* x.embedding(String(op.values.text ?? '')));
  if (!op.fact) return [yield* x.insert(values)];
  return [yield* supersede(x, op.fact, values)];
}

/** An Encode's record as it is inserted, but for the engine's embedding (the caller's vector is in it). */
function encodeValues(op: EncodeOp): Record<string, unknown> {
  // Copied, then extended (not `{ ...op.values, owner, … }`: see Execution.insert).
  const values: Record<string, unknown> = Object.assign({}, op.values);
  values.owner = op.actor ?? null;
  values.created_at = op.now;
  values.updated_at = op.now;
  values.deleted = 0;
  if (op.embedding) Object.assign(values, { embedding: op.embedding, embedding_model: 'caller' });
  return values;
}

/**
 * Whether an Encode may be executed in a run (`executeEncodeRunIo`): it writes one record and
 * reads nothing first (no fact to supersede, no episode to check) and is not a dry run.
 */
export function encodeRunnable(op: Operation): op is EncodeOp {
  return op.kind === 'Encode' && !op.dryRun && op.fact === undefined && typeof op.values.episode_id !== 'number';
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
      const id = ids.get(x.index);
      if (id === undefined) throw new Error(`internal: the insert of a run of Encodes returned no id for statement ${x.index}`);
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

/**
 * Writes a fact version in its place in the history of (tenant, subject, attribute)
 * (spec/semantics.md "Facts"): the version valid at its `valid_from` (the latest starting at or
 * before it) is closed there and superseded by it; the next version, if it is back-dated before
 * one, bounds its own validity and now supersedes it. All in the statement's transaction.
 */
function* supersede(x: Execution, fact: FactWrite, values: Record<string, unknown>): Io<number> {
  const versions = yield* x.query(compileFactVersions(fact.subject, fact.attribute, x.store.dialect, x.op.tenant));
  const before = versions.filter((v) => String(v.valid_from ?? '') <= fact.validFrom);
  const prev = before[before.length - 1];
  const next = versions.find((v) => String(v.valid_from ?? '') > fact.validFrom);
  values.valid_to = next?.valid_from ?? null;
  values.supersedes = prev?.id ?? null;
  const id = yield* x.insert(values);
  if (prev) yield* x.update(prev, { valid_to: fact.validFrom });
  if (next) yield* x.update(next, { supersedes: id });
  return id;
}

function* update(x: Execution, op: UpdateOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows)) return;
  const facets = Object.keys(op.facets).length > 0;
  for (const row of rows) {
    const changes: Record<string, unknown> = { ...op.set };
    if (facets) {
      const facets = { ...asObject(x.value(row, 'facets')), ...op.facets };
      changes.facets = facets;
    }
    // New text gets a new embedding, unless the record has none or carries the caller's own.
    const textChanged = typeof op.set.text === 'string' && op.set.text !== row.text;
    if (textChanged && row.embedding_model && row.embedding_model !== 'caller') Object.assign(changes, yield* x.embedding(op.set.text as string));
    x.stage(row, changes);
  }
  yield* x.flush();
}

function* label(x: Execution, op: LabelOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows, op.mode === 'add')) return;
  for (const row of rows) {
    const old = asTags(row.tags);
    const tags =
      op.mode === 'replace' ? [...op.tags]
        : op.mode === 'remove' ? old.filter((t) => !op.tags.includes(t))
        : [...new Set([...old, ...op.tags])];
    if (op.mode === 'remove') {
      const absent = op.tags.filter((t) => !old.includes(t));
      if (absent.length) x.warn('tag-not-present', `memory #${row.id} has no tag ${absent.map((t) => `'${t}'`).join(', ')}`, 'args.tags');
    }
    const changes: Record<string, unknown> = { tags };
    if (Object.keys(op.facets).length) {
      changes.facets = { ...asObject(row.facets), ...op.facets };
      Object.assign(changes, op.facetColumns);
    }
    x.stage(row, changes);
  }
  yield* x.flush();
}

function* promote(x: Execution, op: PromoteOp | DemoteOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows)) return;
  for (const row of rows) {
    const changes: Record<string, unknown> = {};
    const w = newWeight(row.weight, op.change);
    if (w !== undefined) changes.weight = w;
    if (op.kind === 'Promote' && op.remind) {
      changes.auto_frequency = op.remind.rrule;
      changes.next_auto_update_at = op.remind.next;
    }
    if (op.kind === 'Demote' && op.reason !== undefined) changes.demote_reason = op.reason;
    // An outcome: the learned utility moves toward the reward (experience.ts).
    if (op.kind === 'Promote' && op.reward !== undefined) Object.assign(changes, feedbackValues(row, op.reward));
    x.stage(row, changes);
  }
  yield* x.flush();
}

function* merge(x: Execution, op: MergeOp, rows: Row[]): Io<number[]> {
  let primary: Row | undefined;
  if (op.primary === 'auto') primary = rows[0];
  else {
    primary = rows.find((r) => r.id === op.primary);
    if (!primary) {
      const [extra] = yield* x.query(compileTargetSelect({ ids: [op.primary], all: false, orderBy: 'time_desc' }, x.store.dialect, { tenant: op.tenant, now: op.now, applyReadPermissions: false }));
      if (!extra) return (x.refuse('merge-primary-missing', `Merge: primary record #${op.primary} does not exist (or is deleted or expired)`, 'args.primary_id'), []);
      primary = extra;
    }
  }
  const children = rows.filter((r) => r !== primary);
  if (!primary || children.length === 0) {
    // Naming the records to merge and getting fewer than two is a mistake; a filter or search
    // that finds at most one record has simply nothing left to merge (as upstream's reference
    // adapter treats it), so the script goes on with a warning.
    if (op.selection.ids) return (x.refuse('merge-needs-two', `Merge needs at least two live records; the target selects ${rows.length}`, 'target'), []);
    x.warn('merge-nothing-to-merge', `Merge: the target selects ${rows.length} live record${rows.length === 1 ? '' : 's'}, so there is nothing to merge`, 'target');
    return [];
  }
  if (!x.guard(op, children) || !x.guard(op, [primary], true)) return [];
  // The merged text is the records' texts: the actor must be able to read every one of them.
  if (!x.readGuard([primary, ...children], 'a Merge copies its text into the merged record')) return [];
  const text = [primary.text, ...children.map((c) => c.text)].filter((t) => typeof t === 'string' && t).join('\n');
  const primaryChanges: Record<string, unknown> = {
    text,
    tags: [...new Set([...asTags(primary.tags), ...children.flatMap((c) => asTags(c.tags))])],
    lineage_children: [...new Set([...asIds(primary.lineage_children), ...children.map((c) => c.id)])],
  };
  const weights = [primary, ...children].map((r) => r.weight).filter((w): w is number => typeof w === 'number');
  if (weights.length) primaryChanges.weight = Math.max(...weights);
  if (op.reembed && primary.embedding_model && primary.embedding_model !== 'caller') Object.assign(primaryChanges, yield* x.embedding(text));
  yield* x.update(primary, primaryChanges);
  for (const child of children) {
    if (op.softDeleteChildren) {
      yield* x.update(child, { lineage_parents: [...new Set([...asIds(child.lineage_parents), primary.id])], deleted: 1, deleted_at: op.now });
    } else yield* x.remove(child);
  }
  return [primary.id, ...children.map((c) => c.id)];
}

function pieces(op: SplitOp, text: string): string[] {
  const r = op.rule;
  switch (r.kind) {
    case 'by_sentences': {
      const s = splitSentences(text);
      const out: string[] = [];
      const sep = /[\u3040-\u30ff\u3400-\u9fff]/.test(text) ? '' : ' ';
      for (let i = 0; i < s.length; i += r.maxSentences) out.push(s.slice(i, i + r.maxSentences).join(sep));
      return out;
    }
    case 'by_chunks':
      return r.chunkSize ? splitChunks(text, r.chunkSize) : splitInto(text, r.numChunks ?? 2);
    case 'custom': {
      const cut = r.delimiters ? text.split(new RegExp(r.delimiters.map((d) => d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'))) : undefined;
      const s = cut ? cut.map((p) => p.trim()).filter(Boolean) : splitSections(text);
      if (!r.maxSplits || s.length <= r.maxSplits) return s;
      // Too many sections: fold the tail into the last allowed piece.
      return [...s.slice(0, r.maxSplits - 1), s.slice(r.maxSplits - 1).join(cut ? r.delimiters![0] : '\n\n')];
    }
  }
}

const INHERITED = ['type', 'tags', 'facets', 'time', 'subject', 'location', 'topic', 'source', 'weight', 'expire_at', 'expire_action',
  'expire_reason', 'read_perm_level', 'write_perm_level', 'read_whitelist', 'read_blacklist', 'write_whitelist', 'write_blacklist'];

/** Split pieces always keep their source's owner and permissions: a piece is the source's content. */
const SPLIT_KEPT = ['owner', 'read_perm_level', 'write_perm_level', 'read_whitelist', 'read_blacklist', 'write_whitelist', 'write_blacklist'];

function* split(x: Execution, op: SplitOp, rows: Row[]): Io<number[]> {
  if (!x.guard(op, rows)) return [];
  if (!x.readGuard(rows, 'a Split copies its text into new records')) return [];
  const ids: number[] = [];
  for (const row of rows) {
    const parts = pieces(op, String(row.text ?? ''));
    if (parts.length < 2) {
      x.warn('split-single-piece', `memory #${row.id} yields one piece under ${op.rule.kind}; it is left as is`);
      continue;
    }
    const childIds: number[] = [];
    for (const text of parts) {
      const values: Record<string, unknown> = {
        text,
        ...(op.inheritAll ? pick(row, INHERITED) : { type: row.type ?? null, time: row.time ?? null }),
        ...pick(row, SPLIT_KEPT),
        ...(op.level === 'turn' ? turnPiece(row) : {}),
        lineage_parents: [row.id],
        created_at: op.now,
        updated_at: op.now,
        deleted: 0,
        ...(yield* x.embedding(text)),
      };
      childIds.push(yield* x.insert(values));
    }
    const changes: Record<string, unknown> = { lineage_children: [...asIds(row.lineage_children), ...childIds], ...(op.level === 'turn' ? episodeSource(row) : {}) };
    if (!op.keepSource) Object.assign(changes, { deleted: 1, deleted_at: op.now });
    yield* x.update(row, changes);
    ids.push(row.id, ...childIds);
  }
  return ids;
}

function* lock(x: Execution, op: LockOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows)) return;
  for (const row of rows) {
    x.stage(row, {
      lock_mode: op.mode,
      lock_reason: op.reason ?? null,
      lock_policy: op.policy ?? null,
      lock_expires: op.expires ?? null,
    });
  }
  yield* x.flush();
}

/** Refuses a Delete or Expire of a record under legal hold; true when none is. */
function retentionGuard(x: Execution, op: DeleteOp | ExpireOp, rows: readonly Row[]): boolean {
  const held = rows.find((r) => r.retention === 'legal_hold');
  return held ? x.refuse('retention-held', `${op.kind} refused: memory #${held.id} is under legal_hold retention`) : true;
}

function* expire(x: Execution, op: ExpireOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows) || !retentionGuard(x, op, rows)) return;
  if (op.expireAt <= op.now) x.warn('expires-immediately', `the expiry time ${op.expireAt} is not after now (${op.now}); the records are hidden at once`);
  for (const row of rows) x.stage(row, { expire_at: op.expireAt, expire_action: op.action, expire_reason: op.reason ?? null });
  yield* x.flush();
}

function* remove(x: Execution, op: DeleteOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows) || !retentionGuard(x, op, rows)) return;
  for (const row of rows) {
    if (op.soft) x.stage(row, { deleted: 1, deleted_at: op.now });
    else {
      yield* x.remove(row);
      yield* x.eraseHistory(row);
    }
  }
  yield* x.flush();
}

/** The row's `include` fields (validated field names, so plain assignment defines each as its own key). */
function project(row: Row, include: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < include.length; i++) out[include[i]] = row[include[i]] ?? null;
  return out;
}

/**
 * Executes one operation; the caller owns the transaction (and rolls it back when the statement
 * is refused: a refusal may come after some of its writes).
 */
export function executeOperation(
  store: Store, op: Operation, index: number, limits: { readonly maxRows?: number } = {}, hooks: { readonly selector?: Selector } = {},
): ExecuteResult {
  return store.drive(executeOperationIo(store, op, index, limits, hooks));
}

/** `executeOperation` as queries, for either kind of driver (./io.ts). */
export function executeOperationIo(
  store: Store<AnySqlDriver>, op: Operation, index: number, limits: { readonly maxRows?: number } = {}, hooks: { readonly selector?: Selector } = {},
): Io<ExecuteResult> {
  // Not a generator itself: the caller's `yield*` delegates straight to the verb's (each generator
  // level a query passes through is resumed once per query).
  const x = new Execution(store, op, index);
  return op.kind === 'Encode' ? executeEncodeIo(x, op) : executeTargetedIo(x, op, limits, hooks);
}

/** `executeOperationIo` of an Encode: its record, then its audit entry. */
function* executeEncodeIo(x: Execution, op: EncodeOp): Io<ExecuteResult> {
  const written = yield* encode(x, op);
  return x.refusal ? { ok: false, diagnostics: [x.refusal] } : { ok: true, result: yield* withAudit(x, written) };
}

/** `executeOperationIo` of a targeted operation (every verb but Encode): its target rows, then the verb. */
function* executeTargetedIo(x: Execution, op: Exclude<Operation, EncodeOp>, limits: { readonly maxRows?: number }, hooks: { readonly selector?: Selector }): Io<ExecuteResult> {
  const store = x.store;
  const maxRows = limits.maxRows ?? Infinity;
  // A read returns at most maxRows rows: a filter read asks the store for one more (to know
  // whether it was cut), a search scores its candidates and is cut after ranking.
  const capped = op.kind === 'Retrieve' && !op.selection.search && Number.isFinite(maxRows) && !(op.selection.limit !== undefined && op.selection.limit <= maxRows)
    ? { ...op, selection: { ...op.selection, limit: maxRows + 1 } }
    : op;
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
    // A lock policy that explicitly denies a read hides the record from it.
    // (A loop: most reads meet no lock, and then allocate nothing.)
    let hidden: Row[] | undefined;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (lockActive(r, op.now) && lockDenies(r, op.kind, op.actor)) (hidden ??= []).push(r);
    }
    if (hidden) {
      x.warn('lock-hides-record', `${op.kind}: the lock policy of ${hidden.map((r) => `memory #${r.id}`).join(', ')} denies ${op.kind}; left out`);
      const left = hidden;
      rows = rows.filter((r) => !left.includes(r));
    }
  }
  switch (op.kind) {
    case 'Retrieve':
      if (op.experience) {
        const selected = yield* selectExperience(x, op, rows, scores ?? {}, hooks.selector);
        if (!selected) return { ok: false, diagnostics: [x.refusal!] };
        return { ok: true, result: x.result(selected.rows.map((r) => r.id), { rows: selected.rows.map((r) => project(r, op.include)), scores, experience: selected.report }) };
      }
      if (rows.length > maxRows) {
        x.warn('truncated', `Retrieve matched more than ${maxRows} records; the first ${maxRows} are returned (RunOptions.limits.maxRows, t2m run --max-rows; or narrow it with LIMIT)`, 'target');
        rows = rows.slice(0, maxRows);
      }
      return { ok: true, result: x.readResult(rows, op.include, scores, explain) };
    case 'Summarize': {
      const texts = rows.filter((r) => typeof r.text === 'string').map((r) => ({ id: r.id, text: r.text as string }));
      const summary = store.summarizer.summarize(texts, { focus: op.focus, maxTokens: op.maxTokens });
      return { ok: true, result: x.result(rows.map((r) => r.id), { summary, scores, explain, provenance: provenanceOf(rows) }) };
    }
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


/** Appends the statement's audit entry (writes only) and builds its result. */
function* withAudit(x: Execution, ids: number[]): Io<StatementResult> {
  const op = x.op;
  if (x.changes.length) {
    // The audit log keeps the full images; the result lists the statement with the images the
    // actor may see (records it may not read are redacted, as in `changes`).
    const full = auditEntry(x, x.changes);
    yield { kind: 'run', sql: full.sql, params: full.params };
    for (const id of x.erased) yield* x.write(compileAuditScrub(id, x.store.dialect, op.tenant));
    x.sql.push(x.unreadable.size ? auditEntry(x, x.visibleChanges()) : full);
  }
  return x.result(ids);
}

/** The statement's audit entry for `changes`. */
function auditEntry(x: Execution, changes: readonly Change[]): SqlStatement {
  return compileAuditInsert(auditRecord(x, changes), x.store.dialect);
}

/** What the statement's audit entry for `changes` records. */
function auditRecord(x: Execution, changes: readonly Change[]): AuditEntry {
  const op = x.op;
  const affectedIds: number[] = [];
  for (const c of changes) affectedIds.push(c.id);
  return {
    tenant: op.tenant,
    traceId: op.traceId || null,
    at: op.now,
    actor: op.actor ?? null,
    op: op.kind,
    ir: auditIr(op.ir, changes),
    affectedIds,
    before: null,
    after: null,
    imagesJson: imagesJson(changes),
  };
}

/** The before and after images of a statement's changes, by record id (one pass, no intermediate pairs). */
function images(changes: readonly Change[]): { before: Record<number, unknown>; after: Record<number, unknown> } {
  const before: Record<number, unknown> = {};
  const after: Record<number, unknown> = {};
  for (const c of changes) {
    before[c.id] = c.before;
    after[c.id] = c.after;
  }
  return { before, after };
}

/**
 * `JSON.stringify` of `images(changes)`, written directly when the ids ascend without repeats
 * (then an object keyed by them serialises in that order): an object keyed by large integers is
 * kept as a sparse dictionary, slow to build and to serialise. Otherwise through `images`.
 */
function imagesJson(changes: readonly Change[]): { before: string; after: string } {
  // The order is found first (ids only), so that no image is serialised twice: an Update's rows
  // come by time, newest first, so their ids are often in no order and go through the sort.
  const n = changes.length;
  // An Update's rows come newest first: ids that descend are written from the end (no sort).
  const back = n > 1 && changes[0].id > changes[n - 1].id;
  let last = 0;
  for (let i = 0; i < n; i++) {
    const c = changes[back ? n - 1 - i : i];
    if (!(Number.isSafeInteger(c.id) && c.id > last && c.id < 2 ** 32 - 1) || c.before === undefined || c.after === undefined) {
      const sorted = byAscendingId(changes);
      if (sorted) return writeImages(sorted, false);
      const { before: b, after: a } = images(changes);
      return { before: JSON.stringify(b), after: JSON.stringify(a) };
    }
    last = c.id;
  }
  return writeImages(changes, back);
}

/** The images' JSON of changes whose ids ascend (from the end when `back`), written directly. */
function writeImages(changes: readonly Change[], back: boolean): { before: string; after: string } {
  let before = '{';
  let after = '{';
  const n = changes.length;
  for (let i = 0; i < n; i++) {
    const c = changes[back ? n - 1 - i : i];
    const sep = i ? ',' : '';
    before += `${sep}"${c.id}":${JSON.stringify(c.before)}`;
    after += `${sep}"${c.id}":${JSON.stringify(c.after)}`;
  }
  return { before: before + '}', after: after + '}' };
}

/**
 * The changes in the order an object keyed by their ids serialises them (integer keys ascending),
 * each id once with its last images (a later assignment to a key replaces the value in place);
 * undefined when some id is not such a key or an image is missing (then `images` decides).
 */
function byAscendingId(changes: readonly Change[]): Change[] | undefined {
  for (const c of changes) if (!(Number.isSafeInteger(c.id) && c.id > 0 && c.id < 2 ** 32 - 1) || c.before === undefined || c.after === undefined) return undefined;
  const n = changes.length;
  if (n > ORDER_SPAN) {
    // Stable: of equal ids, the last change ends the run, and only it is kept.
    const sorted = [...changes].sort((a, b) => a.id - b.id);
    return sorted.filter((c, i) => i + 1 === sorted.length || sorted[i + 1].id !== c.id);
  }
  // The same order by sorting numbers (no comparator called from the sort): id × 2^16 + position,
  // exact below 2^48, so equal ids keep their order and the last of them comes last.
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = changes[i].id * ORDER_SPAN + i;
  keys.sort();
  const out: Change[] = [];
  for (let i = 0; i < n; i++) {
    if (i + 1 < n && Math.floor(keys[i + 1] / ORDER_SPAN) === Math.floor(keys[i] / ORDER_SPAN)) continue;
    out.push(changes[keys[i] % ORDER_SPAN]);
  }
  return out;
}
/** Positions a sort key of `byAscendingId` holds below the id. */
const ORDER_SPAN = 2 ** 16;

/** Strings at least this long that the IR shares with an after image are stored once, in the image. */
const AUDIT_SHARED_TEXT = 1024;
/** The key of the stored audit IR listing its shared strings: no valid IR has it (the IR is closed). */
const REFS = '$refs';
type AuditRef = [path: (string | number)[], id: number, field: string];

function setOwnKey(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The IR as the audit entry stores it: a long string that an after image also holds (an Encode's
 * text, an Update's new text) is stored once, in the image, and the IR lists where it goes back
 * (`$refs`); `auditImages` puts it back, so `auditLog` returns the IR as it was run.
 */
function auditIr(ir: unknown, changes: readonly Change[]): unknown {
  // Made when the first long string is found (most statements have none).
  let shared: Map<string, [number, string]> | undefined;
  for (const c of changes) {
    const after = c.after;
    if (!after) continue;
    for (const field in after) {
      const v = after[field];
      if (typeof v === 'string' && v.length >= AUDIT_SHARED_TEXT && Object.hasOwn(after, field) && !shared?.has(v)) (shared ??= new Map()).set(v, [c.id, field]);
    }
  }
  if (!shared) return ir;
  const found = shared;
  const refs: AuditRef[] = [];
  // The IR is validated, so its depth is bounded: plain recursion is safe.
  const copy = (v: unknown, path: (string | number)[]): unknown => {
    if (typeof v === 'string') {
      const at = found.get(v);
      if (!at) return v;
      refs.push([path, ...at]);
      return null;
    }
    if (Array.isArray(v)) return v.map((x, i) => copy(x, [...path, i]));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) setOwnKey(out, k, copy(x, [...path, k]));
      return out;
    }
    return v;
  };
  const stored = copy(ir, []) as Record<string, unknown>;
  if (!refs.length) return ir;
  setOwnKey(stored, REFS, refs);
  return stored;
}

/** An audit row's IR and before/after images, parsed, with the IR's shared strings put back. */
export function auditImages<R extends Record<string, unknown>>(r: R): { r: R; ir: unknown; before: Record<string, Record<string, unknown> | null> | null; after: Record<string, Record<string, unknown> | null> | null } {
  const ir = JSON.parse(String(r.ir ?? 'null')) as unknown;
  const before = JSON.parse(String(r.before ?? 'null'));
  const after = JSON.parse(String(r.after ?? 'null'));
  if (ir && typeof ir === 'object' && Object.hasOwn(ir, REFS)) {
    const o = ir as Record<string, unknown>;
    for (const [path, id, field] of o[REFS] as AuditRef[]) {
      let parent: any = o;
      for (const k of path.slice(0, -1)) parent = parent?.[k];
      const last = path[path.length - 1];
      if (parent && typeof parent === 'object') setOwnKey(parent, String(last), after?.[id]?.[field] ?? null);
    }
    delete o[REFS];
  }
  return { r, ir, before, after };
}

/** For tests: the audit images' JSON of `changes` (imagesJson). */
export const imagesJsonForTest = (changes: readonly Change[]) => imagesJson(changes);

/** For tests: whether a write would leave a field as it is (sameValue). */
export const sameValueForTest = (a: unknown, b: unknown) => sameValue(a, b);
