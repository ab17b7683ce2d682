/**
 * The audit log's entries: one per write statement, with the IR as run and the before/after
 * images of the fields it changed (written directly as JSON, long strings shared between the IR
 * and the images stored once), and `auditImages`, which reads an entry back.
 */
import { compileAuditInsert, type AuditEntry, type SqlStatement } from '../compile/index.js';
import { scrubAudit, type Execution } from './execution.js';
import type { Io } from '../store/io.js';
import { setOwnKey, type Change, type StatementResult } from './rows.js';

/** Appends the statement's audit entry (writes only) and builds its result. */
export function* withAudit(x: Execution, ids: number[]): Io<StatementResult> {
  const op = x.op;
  if (x.changes.length) {
    // The audit log keeps the full images; the result lists the statement with the images the
    // actor may see (records it may not read are redacted, as in `changes`).
    const full = auditEntry(x, x.changes);
    yield { kind: 'run', sql: full.sql, params: full.params };
    if (x.erased.length) yield* scrubAudit(x.store, op.tenant, x.erased, x.sql);
    x.sql.push(x.unreadable.size ? auditEntry(x, x.visibleChanges()) : full);
  }
  return x.result(ids);
}

/** The statement's audit entry for `changes`. */
function auditEntry(x: Execution, changes: readonly Change[]): SqlStatement {
  return compileAuditInsert(auditRecord(x, changes), x.store.dialect);
}

/** What the statement's audit entry for `changes` records. */
export function auditRecord(x: Execution, changes: readonly Change[]): AuditEntry {
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
