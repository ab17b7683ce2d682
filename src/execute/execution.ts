/**
 * One statement's execution: the object every verb works on. It reads the target rows (the
 * compiled select, or a search), checks governance before each write, computes the before/after
 * images, stages and sends the per-row statements, keeps the in-memory indexes in step and builds
 * the statement's result. Refusals are recorded on it and returned as diagnostics, never thrown.
 */
import {
  compile, compileAuditAffected, compileAuditImages, compileAuditSetImages, compileDeleteById, compileEphemeralVersions, compileInsert, compileTargetSelect, compileUpdateById, decodedColumn, decodeOwnedRow,
  type SqlStatement,
} from '../compile/index.js';
import { DERIVED_COLUMNS } from '../store/columns.js';
import { type Code } from '../diagnostics/codes.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Operation, TargetedOperation } from '../lower/operation.js';
import { noteKeywordWrite } from '../retrieve/keywords.js';
import type { Io as RetrievalIo } from '../retrieve/seam.js';
import { searchTarget, type ScoreExplanation } from '../retrieve/search.js';
import type { Reranker } from '../retrieve/rerank.js';
import { SEARCHED_FIELDS, searchTextOf, type EmbedResult } from '../text/text.js';
import { noteVectorWrite } from '../retrieve/vectors.js';
import type { AnySqlDriver, SqlRow } from '../store/driver.js';
import { factEditRefusal } from './facts.js';
import { canRead, checkWrite, lockActive, lockRefusal, writeRefusal } from './governance.js';
import { all as ioAll, type Io } from '../store/io.js';
import { asVector, numberOrNull, project, put, REDACTED, redacted, sameValue, stringOrNull, withoutVector, type Change, type RecordProvenance, type Row, type StatementResult } from './rows.js';
import type { Store } from '../store/store.js';

/**
 * Blanks what the tenant's audit log holds of the erased records `ids` (spec/semantics.md
 * "Retention"): in every entry that touched one of them, their before/after images and the
 * entry's IR (the statement, which may quote their content) go; the entry stays (who, when, which
 * op, which ids), and so do the images of the records it does not erase (a held record's above all).
 */
export function* scrubAudit(store: Store<AnySqlDriver>, tenant: string, ids: Iterable<number>, sql: SqlStatement[]): Io<void> {
  const erased = new Set(ids);
  const blank = (text: unknown): string | null => {
    if (typeof text !== 'string') return null;
    const images = JSON.parse(text) as Record<string, unknown> | null;
    if (!images || typeof images !== 'object') return null;
    for (const k of Object.keys(images)) if (erased.has(Number(k))) images[k] = null;
    return JSON.stringify(images);
  };
  // One scan of the entries' affected ids (not one per erased record), then their images.
  const scan = compileAuditAffected(store.dialect, tenant);
  sql.push(scan);
  const touching: number[] = [];
  for (const entry of (yield { kind: 'all', sql: scan.sql, params: scan.params }) as SqlRow[]) {
    const affected = JSON.parse(String(entry.affected_ids ?? '[]')) as unknown[];
    if (Array.isArray(affected) && affected.some((id) => erased.has(Number(id)))) touching.push(Number(entry.id));
  }
  // In slices, to stay under every driver's limit on bound parameters.
  for (let i = 0; i < touching.length; i += 500) {
    const read = compileAuditImages(touching.slice(i, i + 500), store.dialect, tenant);
    sql.push(read);
    for (const entry of (yield { kind: 'all', sql: read.sql, params: read.params }) as SqlRow[]) {
      const write = compileAuditSetImages(Number(entry.id), blank(entry.before), blank(entry.after), store.dialect, tenant);
      sql.push(write);
      yield { kind: 'run', sql: write.sql, params: write.params };
    }
  }
}

/** SEARCHED_FIELDS as a set, for the per-row, per-field test of Execution.update. */
const SEARCHED: ReadonlySet<string> = new Set(SEARCHED_FIELDS);

const WRITE_OPS = new Set(['Update', 'Label', 'Promote', 'Demote', 'Merge', 'Split', 'Lock', 'Expire', 'Delete']);

/** No record ids (`Execution.unreadable` before the first). */
const NO_IDS: ReadonlySet<number> = new Set();

/** One statement's execution: its SQL, warnings, changes and refusal (src/experience works on it too). */
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
  /** The caller's second stage of a search (RunOptions.rerank), if any. */
  rerank?: Reranker;
  constructor(readonly store: Store<AnySqlDriver>, readonly op: Operation, readonly index: number) {}

  *query(stmt: SqlStatement, decode = true): RetrievalIo<Row[]> {
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

  /** Target rows: the compiled select, or for a search the ranked candidates (src/retrieve/search.ts). */
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
        const live = yield* this.query(compileTargetSelect({ ids: missing, all: false, orderBy: 'time_desc', asOf: sel.asOf, history: sel.history, knownAt: sel.knownAt }, this.store.dialect, { tenant: op.tenant, now: op.now, applyReadPermissions: false }));
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
   * Checks one record's write against what it does to the record (spec/semantics.md "Effects"):
   * retention (legal_hold), the lock in force (a policy that denies any of its effects refuses it,
   * whichever verb is acting; append-only refuses anything but additions) and write permissions,
   * in one place (`checkWrite`), for every row any verb writes — targets, a Merge's primary, the
   * versions a fact write closes, the versions an erasure removes. Records the actor may not read
   * are noted so that the result does not show their images. True when the write may go on.
   */
  effectGuard(row: Row, changes: Record<string, unknown> | null): boolean {
    const op = this.op;
    if (!canRead(row, op.actor)) this.noteUnreadable(row.id);
    // A hold or a lock reads the record's values (policy, facets…): the row is decoded.
    if (row.retention === 'legal_hold' || lockActive(row, op.now)) this.full(row);
    const refusal = checkWrite(row, changes, op.kind, op.actor, op.now);
    return refusal ? this.refuse(refusal.code, `${op.kind} refused: ${refusal.reason}`) : true;
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
    // Whichever verb writes it, a fact version's value and key stay (src/execute/facts.ts).
    const fact = factEditRefusal(row, set);
    if (fact) return void this.refuse('fact-version-immutable', `${this.op.kind} refused: ${fact.message}`);
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
        noteVectorWrite(store, id, written.embedding_model, written.deleted ? null : asVector(written.embedding_f32), written.tenant);
        noteKeywordWrite(store, id, written.deleted ? null : written.search_text, written.tenant);
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
    // The statement's place in its script (lowering's), which a part of a script run alone keeps.
    values.statement_index = this.op.statement;
    values.search_text = searchTextOf(values);
  }

  /** What follows the insert of `values` as record `id`: the in-memory indexes, and the change (its after image). */
  inserted(values: Record<string, unknown>, id: number): void {
    noteVectorWrite(this.store, id, values.embedding_model, values.deleted ? null : asVector(values.embedding_f32), values.tenant);
    // The after image: the record as written, without its vectors and search tokens (withoutVector),
    // built by spreading: adding twenty fields one by one leaves an object V8 keeps as a dictionary,
    // slow to build and to serialise into the audit entry.
    const { embedding: _vector, embedding_f32: _packed, search_text: _tokens, ...written } = values;
    const after: Record<string, unknown> = { id, ...written };
    noteKeywordWrite(this.store, id, values.deleted ? null : values.search_text as string, values.tenant);
    this.changes.push({ id, before: null, after });
  }

  /**
   * Removes a record for good: the row and every index entry derived from it (compileDeleteById).
   * The hard removal of an ephemeral record is an erasure (spec/semantics.md "Retention"): the other
   * ephemeral versions of its fact key go too (deleted or not; never a durable, session or held
   * version), and their audit images are blanked once the statement's entry is written.
   */
  *remove(row: Row, erase = true): Io<void> {
    if (this.refusal || !this.effectGuard(row, null)) return;
    yield* this.write(compileDeleteById(row.id, this.store.dialect, this.op.tenant));
    noteVectorWrite(this.store, row.id, null, null, row.tenant);
    noteKeywordWrite(this.store, row.id, null, row.tenant);
    this.changes.push({ id: row.id, before: withoutVector(row), after: null });
    if (!erase || row.retention !== 'ephemeral') return;
    this.erased.push(row.id);
    if (typeof row.attribute !== 'string' || typeof row.subject !== 'string') return;
    const versions = yield* this.query(compileEphemeralVersions(row.subject, row.attribute, this.store.dialect, this.op.tenant));
    for (const v of versions) {
      if (v.id === row.id || this.erased.includes(v.id)) continue;
      yield* this.remove(v, false);
      if (this.refusal) return;
      this.erased.push(v.id);
    }
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
