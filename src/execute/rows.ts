/**
 * What every part of the execution shares: the result types of a statement (its changes, its
 * result, its outcome) and the small helpers that build records and images.
 */
import type { StoredSchema } from './schemas.js';
import { DERIVED_COLUMNS } from '../store/columns.js';
import { unpackVector, type SqlStatement } from '../compile/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { JsonValue } from '../ir/schema.js';
import type { Operation } from '../lower/operation.js';
import type { ExperienceReport } from '../experience/experience.js';
import type { Row } from '../retrieve/seam.js';
import type { ScoreExplanation } from '../retrieve/search.js';

export type { Row };

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

export const stringOrNull = (v: unknown) => (typeof v === 'string' ? v : null);
export const numberOrNull = (v: unknown) => (typeof v === 'number' ? v : null);

export function provenanceOf(rows: readonly Row[]): Record<number, RecordProvenance> {
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
  /** ENCODE … SCHEMA: the attribute schema version it declared (spec/semantics.md "Attribute schemas"). */
  readonly schema?: StoredSchema;
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

/** The image of a record the actor may not read: which fields changed, not their values (the audit log keeps them). */
export const REDACTED = '[redacted]';
export function redacted(c: Change): Change {
  const hide = (image: Readonly<Record<string, unknown>> | null) => (image ? Object.fromEntries(Object.keys(image).map((k) => [k, k === 'id' ? image[k] : REDACTED])) : null);
  return { id: c.id, before: hide(c.before), after: hide(c.after) };
}

export const clamp01 = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1e6) / 1e6;

// The insert's after image leaves out exactly these derived columns (Execution.insert).
if (DERIVED_COLUMNS.size !== 2 || !DERIVED_COLUMNS.has('search_text') || !DERIVED_COLUMNS.has('embedding_f32')) throw new Error('internal: DERIVED_COLUMNS changed: update Execution.insert');

/**
 * Before/after images leave out the embedding vectors and the search tokens: they are derived
 * from the text (embedding_model says how), and the vectors would be most of every audit entry.
 */
export function withoutVector(image: Record<string, unknown>): Record<string, unknown> {
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
export function sameValue(a: unknown, b: unknown): boolean {
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
export function asVector(v: unknown): Float32Array | null {
  if (v instanceof Float32Array) return v;
  if (v instanceof Uint8Array) return unpackVector(v);
  if (Array.isArray(v) || (v && typeof v === 'object' && 'length' in v)) return Float32Array.from(v as ArrayLike<number>);
  return null;
}

export function pick(row: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) put(out, k, row[k] ?? null);
  return out;
}

/** `o[key] = value` as an own property, whatever the key (`__proto__` included). */
export function put(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') setOwnKey(o, key, value);
  else o[key] = value;
}

export const asTags = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
export const asObject = (v: unknown): Record<string, JsonValue> => (v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, JsonValue>) } : {});
export const asIds = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);

/** The row's `include` fields (validated field names, so plain assignment defines each as its own key). */
export function project(row: Row, include: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < include.length; i++) out[include[i]] = row[include[i]] ?? null;
  return out;
}

export function setOwnKey(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
