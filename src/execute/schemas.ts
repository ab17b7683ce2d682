/**
 * Attribute schemas in the store (spec/semantics.md "Attribute schemas"): a tenant's declarations
 * (table `attribute_schema`, one row per version), the check every fact write gets against its
 * attribute's current schema (type, subject normalisation, conflict policy), the undo of a
 * declaration, and the audit of facts written before (or against) the schema now in force.
 */
import { compileAuditInsert, compileAuditLastId, compileAuditMarkUndone, compileFactVersions, decodeRow } from '../compile/index.js';
import { closest } from '../diagnostics/suggest.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { EncodeOp, FactWrite, SchemaDeclaration, TargetedOperation } from '../lower/operation.js';
import { checkValue, normaliseSubject, type AttributeSchema } from '../lower/schema.js';
import type { Dialect } from '../store/dialect.js';
import { ParamList } from '../store/dialect.js';
import { all as ioAll, run as ioRun, type Io } from '../store/io.js';
import type { Execution } from './execution.js';
import type { Row } from './rows.js';

/** An attribute's schema as stored: its version and who declared it when. */
export interface StoredSchema {
  readonly attribute: string;
  readonly version: number;
  readonly schema: AttributeSchema;
  readonly declaredAt: string;
  readonly declaredBy: string | null;
}

/** A placeholder range for a fix's edit: `locate` (src/engine/caller.ts) puts the diagnostic's own range there. */
const AT_DIAGNOSTIC = { start: { line: 0, column: 0, offset: -1 }, end: { line: 0, column: 0, offset: -1 } };

function sql(d: Dialect, build: (p: ParamList, q: (n: string) => string) => string): { sql: string; params: ParamList['values'] } {
  const p = new ParamList(d);
  const text = build(p, d.quoteIdent);
  return { sql: text, params: p.values };
}

function stored(r: Record<string, unknown>): StoredSchema {
  return {
    attribute: String(r.attribute),
    version: Number(r.version),
    schema: JSON.parse(String(r.schema)) as AttributeSchema,
    declaredAt: String(r.declared_at),
    declaredBy: r.declared_by === null || r.declared_by === undefined ? null : String(r.declared_by),
  };
}

/** The tenant's schemas in force (each attribute's latest version not undone), by attribute; or one attribute's. */
export function* schemasIo(d: Dialect, tenant: string, attribute?: string): Io<StoredSchema[]> {
  const s = sql(d, (p, q) => `SELECT ${q('attribute')}, ${q('version')}, ${q('schema')}, ${q('declared_at')}, ${q('declared_by')} FROM ${q('attribute_schema')} AS s
 WHERE ${q('tenant')} = ${p.bind(tenant)}${attribute === undefined ? '' : ` AND ${q('attribute')} = ${p.bind(attribute)}`} AND ${q('retracted_at')} IS NULL
 AND ${q('version')} = (SELECT MAX(${q('version')}) FROM ${q('attribute_schema')} AS t WHERE t.${q('tenant')} = s.${q('tenant')} AND t.${q('attribute')} = s.${q('attribute')} AND t.${q('retracted_at')} IS NULL)
 ORDER BY ${q('attribute')}`);
  return (yield* ioAll(s.sql, s.params)).map((r) => stored(r));
}

/**
 * `ENCODE ATTRIBUTE a SCHEMA { … }`: stores the attribute's next schema version for the tenant,
 * with its own audit entry (the IR, and the version in its after-image, so undo can find it).
 */
export function* declareSchema(x: Execution, decl: SchemaDeclaration): Io<StoredSchema> {
  const op = x.op;
  const d = x.store.dialect;
  const last = sql(d, (p, q) => `SELECT MAX(${q('version')}) AS v FROM ${q('attribute_schema')} WHERE ${q('tenant')} = ${p.bind(op.tenant)} AND ${q('attribute')} = ${p.bind(decl.attribute)}`);
  const [row] = yield* x.query(last, false);
  const version = Number(row?.v ?? 0) + 1;
  const json = JSON.stringify(decl.schema);
  const insert = sql(d, (p, q) => `INSERT INTO ${q('attribute_schema')} (${['tenant', 'attribute', 'version', 'schema', 'declared_at', 'declared_by', 'trace_id'].map(q).join(', ')})
 VALUES (${[op.tenant, decl.attribute, version, json, op.now, op.actor ?? null, op.traceId || null].map((v) => p.bind(v)).join(', ')})`);
  yield* x.write(insert);
  const image = { attribute_schema: { attribute: decl.attribute, version, schema: decl.schema } };
  yield* x.write(compileAuditInsert({ tenant: op.tenant, traceId: op.traceId || null, at: op.now, actor: op.actor ?? null, op: 'Encode', ir: op.ir, affectedIds: [], before: {}, after: image }, d));
  return { attribute: decl.attribute, version, schema: decl.schema, declaredAt: op.now, declaredBy: op.actor ?? null };
}

/**
 * A fact write checked against its attribute's schema, when the tenant declared one: the subject
 * normalised, the value type-checked (and a set's value made canonical), the schema's version
 * recorded, and the conflict policy applied against the version the new one would close. The
 * fact to write (its subject normalised), or undefined when the statement is refused.
 */
export function* checkFact(x: Execution, op: EncodeOp, fact: FactWrite, values: Record<string, unknown>): Io<FactWrite | undefined> {
  const d = x.store.dialect;
  const s = sql(d, (p, q) => `SELECT ${q('attribute')}, ${q('version')}, ${q('schema')}, ${q('declared_at')}, ${q('declared_by')} FROM ${q('attribute_schema')}
 WHERE ${q('tenant')} = ${p.bind(op.tenant)} AND ${q('attribute')} = ${p.bind(fact.attribute)} AND ${q('retracted_at')} IS NULL ORDER BY ${q('version')} DESC LIMIT 1`);
  const [row] = yield* x.query(s, false);
  if (!row) return fact;
  const { schema, version } = stored(row);
  const subject = normaliseSubject(schema, fact.subject);
  if (subject.trim() === '') return void x.refuse('fact-type-mismatch', `the subject ${JSON.stringify(fact.subject)} is blank once normalised`, 'args.subject');
  const text = String(values.text ?? '');
  const checked = checkValue(schema, text);
  const what = `attribute '${fact.attribute}' (schema version ${version}: ${describe(schema)})`;
  if (!checked.ok) return void refuseValue(x, `${checked.message}, the type of ${what}`, checked.suggestion);
  if (schema.type === 'ref' && schema.cardinality === 'one' && !(yield* subjectExists(x, checked.value))) {
    const near = closest(checked.value, yield* subjectsOf(x));
    return void refuseValue(x, `${JSON.stringify(checked.value)} names no subject of this tenant, and ${what} refers to one${near ? `; did you mean ${JSON.stringify(near)}?` : ''}`, near);
  }
  values.subject = subject;
  values.text = checked.value;
  values.schema_version = version;
  const key = { subject, attribute: fact.attribute, validFrom: fact.validFrom };
  if (schema.conflict === 'latest' || op.confirmation) return key;
  // The version the new one would close: the latest starting at or before it (src/execute/facts.ts).
  const versions = yield* x.query(compileFactVersions(subject, fact.attribute, d, op.tenant));
  const before = versions.filter((v) => String(v.valid_from ?? '') <= fact.validFrom);
  const current = before[before.length - 1];
  if (!current || current.text === checked.value) return key;
  const cited = cite(current);
  if (schema.conflict === 'confidence') {
    const mine = typeof values.confidence === 'number' ? values.confidence : 0;
    const theirs = typeof current.confidence === 'number' ? current.confidence : 0;
    if (mine >= theirs) return key;
    return void x.refuse('fact-conflict', `${JSON.stringify(checked.value)} (confidence ${mine}) does not replace ${cited} for (${JSON.stringify(subject)}, '${fact.attribute}'): its conflict policy is 'confidence' and the current value is surer; give CONFIDENCE ${theirs} or more, or add CONFIRM to replace it anyway`, 'args.confidence');
  }
  return void x.refuse('fact-conflict', `${JSON.stringify(checked.value)} would replace ${cited} for (${JSON.stringify(subject)}, '${fact.attribute}'), and its conflict policy asks for CONFIRM: add CONFIRM to replace it`, 'args.payload.text');
}

/**
 * A targeted statement's subject condition in the form the tenant's schemas key subjects (spec/semantics.md
 * "Attribute schemas"), so that a read or write by subject finds what a fact write stored: with
 * an attribute named, the subject as that attribute's schema in force normalises it; with none,
 * the subject as written or, on the facts of each attribute whose schema normalises, in that
 * attribute's form. The operation as it was when nothing changes.
 */
export function* normaliseTargetSubject<O extends TargetedOperation>(x: Execution, op: O): Io<O> {
  const f = op.selection.filter;
  const written = f?.subject;
  // A subject that trimming and case-folding leave as it is has one form under every schema: nothing to read.
  if (!f || written === undefined || (written.trim() === written && written.toLowerCase() === written)) return op;
  const schemas = (yield* schemasIo(x.store.dialect, op.tenant, f.attribute)).filter((s) => s.schema.normalize.length > 0);
  let filter: typeof f | undefined;
  if (f.attribute !== undefined) {
    const subject = schemas.length ? normaliseSubject(schemas[0].schema, written) : written;
    if (subject !== written) filter = { ...f, subject };
  } else {
    const forms = new Map<string, string[]>();
    for (const s of schemas) {
      const subject = normaliseSubject(s.schema, written);
      if (subject !== written) forms.set(subject, [...(forms.get(subject) ?? []), s.attribute]);
    }
    if (forms.size) filter = { ...f, subjectForms: [...forms].map(([subject, attributes]) => ({ subject, attributes })) };
  }
  return filter ? { ...op, selection: { ...op.selection, filter } } : op;
}

/** A version as a refusal names it: its value, confidence, source and episode. */
function cite(v: Row): string {
  const parts = [`#${String(v.id)}`];
  if (typeof v.confidence === 'number') parts.push(`confidence ${v.confidence}`);
  if (typeof v.source === 'string') parts.push(`source ${JSON.stringify(v.source)}`);
  if (typeof v.episode === 'string') parts.push(`episode ${JSON.stringify(v.episode)}`);
  return `the current value ${JSON.stringify(String(v.text ?? ''))} (${parts.join(', ')})`;
}

/** A schema in a few words, for messages. */
export function describe(s: AttributeSchema): string {
  const type = s.type === 'enum' ? `enum ${(s.values ?? []).map((v) => JSON.stringify(v)).join(' | ')}` : s.type;
  return `${s.cardinality === 'set' ? `set of ${type}` : type}${s.normalize.length ? `, subjects ${s.normalize.join('+')}` : ''}, conflict ${s.conflict}`;
}

/** Refuses the statement for its value, with the rewrite as a fix when one is likely. */
function refuseValue(x: Execution, message: string, suggestion: string | undefined): void {
  if (x.refusal) return;
  const fix = suggestion === undefined ? undefined : { message: `write ${JSON.stringify(suggestion)}`, edits: [{ range: AT_DIAGNOSTIC, newText: JSON.stringify(suggestion) }] };
  x.refusal = diagnostic('fact-type-mismatch', message, { severity: 'error', path: 'args.payload.text', statement: x.index, ...(fix ? { fix } : {}) });
}

function* subjectExists(x: Execution, subject: string): Io<boolean> {
  const s = sql(x.store.dialect, (p, q) => `SELECT 1 AS one FROM ${q('memory')} WHERE ${q('tenant')} = ${p.bind(x.op.tenant)} AND ${q('subject')} = ${p.bind(subject)} AND ${q('deleted')} = ${p.bind(0)} LIMIT 1`);
  return (yield* x.query(s, false)).length > 0;
}

function* subjectsOf(x: Execution): Io<string[]> {
  const s = sql(x.store.dialect, (p, q) => `SELECT DISTINCT ${q('subject')} AS s FROM ${q('memory')} WHERE ${q('tenant')} = ${p.bind(x.op.tenant)} AND ${q('subject')} IS NOT NULL AND ${q('deleted')} = ${p.bind(0)} LIMIT 1000`);
  return (yield* x.query(s, false)).map((r) => String(r.s));
}

/** The declaration an audit entry recorded, if it is one. */
export function declaredIn(after: unknown): { attribute: string; version: number } | undefined {
  const image = (after as { attribute_schema?: { attribute?: unknown; version?: unknown } } | null)?.attribute_schema;
  return image && typeof image.attribute === 'string' && typeof image.version === 'number' ? { attribute: image.attribute, version: image.version } : undefined;
}

/**
 * Undoes a declaration (audit entry `auditId`): that schema version is withdrawn, so the one
 * before it (or none) is in force again; facts written under it keep their `schema_version`.
 */
export function* undoDeclarationIo(d: Dialect, tenant: string, auditId: number, decl: { attribute: string; version: number }, at: string, actor: string | null): Io<{ ok: true; auditId: number } | { ok: false; diagnostics: Diagnostic[] }> {
  const mark = sql(d, (p, q) => `UPDATE ${q('attribute_schema')} SET ${q('retracted_at')} = ${p.bind(at)} WHERE ${q('tenant')} = ${p.bind(tenant)} AND ${q('attribute')} = ${p.bind(decl.attribute)} AND ${q('version')} = ${p.bind(decl.version)} AND ${q('retracted_at')} IS NULL`);
  const changed = yield* ioRun(mark.sql, mark.params);
  if (!changed) return { ok: false, diagnostics: [diagnostic('undo-nothing', `the schema version ${decl.version} of '${decl.attribute}' declared by audit entry #${auditId} is already withdrawn`)] };
  const image = { attribute_schema: { attribute: decl.attribute, version: decl.version, withdrawn: at } };
  const entry = compileAuditInsert({ tenant, at, actor, op: 'Undo', ir: { undo: auditId }, affectedIds: [], before: {}, after: image }, d);
  yield* ioRun(entry.sql, entry.params);
  const [last] = yield* ioAll(compileAuditLastId(d, tenant).sql, compileAuditLastId(d, tenant).params);
  const done = compileAuditMarkUndone(auditId, Number(last.id), d, tenant);
  yield* ioRun(done.sql, done.params);
  return { ok: true, auditId: Number(last.id) };
}

/** One fact that does not meet its attribute's schema now in force. */
export interface SchemaViolation {
  readonly id: number;
  readonly subject: string;
  readonly attribute: string;
  readonly value: string;
  readonly schemaVersion: number | null;
  /** Written before the schema in force was declared (else under it, or under an older version). */
  readonly beforeSchema: boolean;
  /** What is wrong, with the likely rewrite when there is one. */
  readonly problem: string;
  readonly suggestion?: string;
}

/**
 * The audit behind `t2m check --db`: every live fact of the tenant whose attribute has a schema
 * and whose value or subject does not meet it (facts written before the schema, or under an
 * older version). Nothing is changed.
 */
export function* schemaViolationsIo(d: Dialect, tenant: string): Io<{ schemas: StoredSchema[]; violations: SchemaViolation[] }> {
  // A store opened read-only and not yet migrated has no schema table: no schemas, nothing violated.
  const tables = (yield* ioAll(d.listTables(), [])).map((r) => String(r.name));
  if (!tables.includes('attribute_schema')) return { schemas: [], violations: [] };
  const schemas = yield* schemasIo(d, tenant);
  const violations: SchemaViolation[] = [];
  for (const s of schemas) {
    const q = sql(d, (p, q) => `SELECT ${q('id')}, ${q('subject')}, ${q('attribute')}, ${q('text')}, ${q('schema_version')}, ${q('created_at')} FROM ${q('memory')} WHERE ${q('tenant')} = ${p.bind(tenant)} AND ${q('attribute')} = ${p.bind(s.attribute)} AND ${q('deleted')} = ${p.bind(0)} ORDER BY ${q('id')}`);
    const rows = (yield* ioAll(q.sql, q.params)).map(decodeRow);
    for (const r of rows) {
      const value = String(r.text ?? '');
      const subject = String(r.subject ?? '');
      const base = { id: Number(r.id), subject, attribute: s.attribute, value, schemaVersion: typeof r.schema_version === 'number' ? r.schema_version : null, beforeSchema: String(r.created_at ?? '') <= s.declaredAt };
      const checked = checkValue(s.schema, value);
      if (!checked.ok) violations.push({ ...base, problem: checked.message, ...(checked.suggestion !== undefined ? { suggestion: checked.suggestion } : {}) });
      else if (normaliseSubject(s.schema, subject) !== subject) violations.push({ ...base, problem: `subject ${JSON.stringify(subject)} is not normalised (${s.schema.normalize.join('+')}): the schema keeps it as ${JSON.stringify(normaliseSubject(s.schema, subject))}` });
    }
  }
  return { schemas, violations };
}
