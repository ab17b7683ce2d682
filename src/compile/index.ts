/**
 * Compile: Operation → SQL. Builds statement text from dialect fragments and binds every value
 * as a parameter; no value is ever spliced into SQL text. `compile` gives an operation's static
 * plan (the statement that selects its target, or the insert of an Encode); the row-level
 * builders below give the writes the executor issues per affected record.
 */
import type { Operation, Selection, LoweredFilter } from '../lower/operation.js';
import type { Op } from '../ir/schema.js';
import { COLUMN_BY_NAME, MEMORY_COLUMNS } from './columns.js';
import { ParamList, type Dialect, type SqlStatement, type SqlValue } from './dialect.js';

export type { Dialect, SqlStatement, SqlValue } from './dialect.js';
export { MEMORY_COLUMNS, COLUMN_BY_NAME, type Column } from './columns.js';
export { sqlite } from './dialects/sqlite.js';
export { postgres } from './dialects/postgres.js';

export interface SqlPlan {
  readonly op: Op;
  /** Selects the rows the operation acts on (all columns). Absent for Encode. */
  readonly target?: SqlStatement;
  /** The insert of an Encode. */
  readonly insert?: SqlStatement;
}

export interface SelectOptions {
  /** The clock: records whose expire_at has passed are not selected. */
  readonly now: string;
  /** Apply read permissions for this actor (Retrieve/Summarize). */
  readonly readerActor?: string | null;
  readonly applyReadPermissions: boolean;
}

/** Encodes a JS value for a column: JSON columns become JSON text. */
export function encodeValue(column: string, value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  const c = COLUMN_BY_NAME.get(column);
  if (!c) throw new Error(`internal: unknown memory column ${column}`);
  if (c.kind === 'json-array' || c.kind === 'json-object') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Decodes a row read from the driver: JSON columns parsed (bad JSON kept as text). */
export function decodeRow(row: Record<string, SqlValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    const c = COLUMN_BY_NAME.get(k);
    if (c && (c.kind === 'json-array' || c.kind === 'json-object') && typeof v === 'string') {
      try { out[k] = JSON.parse(v); } catch { out[k] = v; }
    } else out[k] = v;
  }
  return out;
}

function filterWhere(f: LoweredFilter, d: Dialect, p: ParamList, out: string[]): void {
  const q = d.quoteIdent;
  if (f.time?.from) out.push(`${q('time')} >= ${p.bind(f.time.from)}`);
  if (f.time?.to) out.push(`${q('time')} <= ${p.bind(f.time.to)}`);
  for (const tag of f.hasTags) out.push(d.hasTag(p.bind(tag)));
  if (f.notTags.length) out.push(`NOT ${d.jsonArrayOverlaps(q('tags'), p.bind(JSON.stringify(f.notTags)))}`);
  for (const key of ['type', 'subject', 'location', 'topic'] as const) {
    const v = f[key];
    if (v !== undefined) out.push(`${q(key)} = ${p.bind(v)}`);
  }
  if (f.weightGte !== undefined) out.push(`${q('weight')} >= ${p.bind(f.weightGte)}`);
  if (f.weightLte !== undefined) out.push(`${q('weight')} <= ${p.bind(f.weightLte)}`);
  if (f.expireBefore) out.push(`${q('expire_at')} < ${p.bind(f.expireBefore)}`);
  if (f.expireAfter) out.push(`${q('expire_at')} > ${p.bind(f.expireAfter)}`);
  for (const [key, value] of Object.entries(f.facets)) {
    const v = typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value);
    out.push(`${d.jsonObjectField(q('facets'), p.bind(key))} = ${p.bind(v)}`);
  }
}

/** The read-permission model (spec/semantics.md, "Permissions"). */
function readPermissionWhere(actor: string | null | undefined, d: Dialect, p: ParamList): string {
  const q = d.quoteIdent;
  const level = q('read_perm_level');
  if (!actor) return `(${level} IS NULL OR ${level} = ${p.bind('public')})`;
  const visible = [
    `${level} IS NULL`,
    `${level} = ${p.bind('public')}`,
    `${level} = ${p.bind('team')}`,
    `${q('owner')} = ${p.bind(actor)}`,
    d.jsonArrayContains(q('read_whitelist'), p.bind(actor)),
  ];
  return `((${visible.join(' OR ')}) AND NOT ${d.jsonArrayContains(q('read_blacklist'), p.bind(actor))})`;
}

/** WHERE conditions shared by every target: live (not deleted, not expired) and matching the selection. */
export function compileTargetSelect(sel: Selection, d: Dialect, opts: SelectOptions): SqlStatement {
  const q = d.quoteIdent;
  const p = new ParamList(d);
  const where = [`${q('deleted')} = ${p.bind(0)}`, `(${q('expire_at')} IS NULL OR ${q('expire_at')} > ${p.bind(opts.now)})`];
  if (sel.ids) where.push(sel.ids.length ? `${q('id')} IN (${sel.ids.map((id) => p.bind(id)).join(', ')})` : '1 = 0');
  if (sel.filter) filterWhere(sel.filter, d, p, where);
  if (opts.applyReadPermissions) where.push(readPermissionWhere(opts.readerActor, d, p));
  let sql = `SELECT * FROM ${q('memory')} WHERE ${where.join(' AND ')}`;
  // Relevance is scored after reading, so a search reads every candidate unordered.
  if (!sel.search || sel.orderBy !== 'relevance') {
    sql += ` ORDER BY ${orderBy(sel.orderBy, sel.ids !== undefined, d)}`;
    if (sel.limit !== undefined && !sel.search) sql += ` LIMIT ${p.bind(sel.limit)}`;
  }
  return { sql, params: p.values };
}

function orderBy(order: Selection['orderBy'], byIds: boolean, d: Dialect): string {
  const q = d.quoteIdent;
  switch (order) {
    case 'time_asc': return `${q('time')} IS NULL, ${q('time')} ASC, ${q('id')} ASC`;
    case 'weight_desc': return `${q('weight')} IS NULL, ${q('weight')} DESC, ${q('id')} ASC`;
    case 'relevance':
    case 'time_desc':
      // Ids named explicitly keep id order; otherwise newest first.
      return byIds ? `${q('id')} ASC` : `${q('time')} IS NULL, ${q('time')} DESC, ${q('id')} DESC`;
  }
}

/** INSERT of one record; `values` keys are column names. */
export function compileInsert(values: Readonly<Record<string, unknown>>, d: Dialect): SqlStatement {
  const p = new ParamList(d);
  const cols = Object.keys(values).filter((c) => c !== 'id' && values[c] !== undefined);
  const sql = `INSERT INTO ${d.quoteIdent('memory')} (${cols.map(d.quoteIdent).join(', ')}) VALUES (${cols
    .map((c) => p.bind(encodeValue(c, values[c])))
    .join(', ')})${d.insertReturningId() ?? ''}`;
  return { sql, params: p.values };
}

/** UPDATE of one record by id. */
export function compileUpdateById(id: number, changes: Readonly<Record<string, unknown>>, d: Dialect): SqlStatement {
  const p = new ParamList(d);
  const sets = Object.entries(changes).map(([c, v]) => `${d.quoteIdent(c)} = ${p.bind(encodeValue(c, v))}`);
  return { sql: `UPDATE ${d.quoteIdent('memory')} SET ${sets.join(', ')} WHERE ${d.quoteIdent('id')} = ${p.bind(id)}`, params: p.values };
}

export function compileDeleteById(id: number, d: Dialect): SqlStatement {
  const p = new ParamList(d);
  return { sql: `DELETE FROM ${d.quoteIdent('memory')} WHERE ${d.quoteIdent('id')} = ${p.bind(id)}`, params: p.values };
}

/** Reads records by id, whatever their state (used for before/after images, lineage and undo). */
export function compileSelectByIds(ids: readonly number[], d: Dialect): SqlStatement {
  const p = new ParamList(d);
  const list = ids.length ? ids.map((id) => p.bind(id)).join(', ') : 'NULL';
  return { sql: `SELECT * FROM ${d.quoteIdent('memory')} WHERE ${d.quoteIdent('id')} IN (${list}) ORDER BY ${d.quoteIdent('id')}`, params: p.values };
}

/** Records whose expiry has come and whose action has not been applied yet (for sweep). */
export function compileDueExpiries(now: string, d: Dialect): SqlStatement {
  const q = d.quoteIdent;
  const p = new ParamList(d);
  return {
    sql: `SELECT * FROM ${q('memory')} WHERE ${q('deleted')} = ${p.bind(0)} AND ${q('expire_at')} IS NOT NULL AND ${q('expire_at')} <= ${p.bind(now)} ORDER BY ${q('id')}`,
    params: p.values,
  };
}

export interface AuditEntry {
  readonly at: string;
  readonly actor: string | null;
  readonly op: string;
  readonly ir: unknown;
  readonly affectedIds: readonly number[];
  readonly before: unknown;
  readonly after: unknown;
}

export function compileAuditInsert(e: AuditEntry, d: Dialect): SqlStatement {
  const p = new ParamList(d);
  const vals = [e.at, e.actor, e.op, JSON.stringify(e.ir ?? null), JSON.stringify(e.affectedIds), JSON.stringify(e.before ?? null), JSON.stringify(e.after ?? null)];
  return {
    sql: `INSERT INTO ${d.quoteIdent('audit_log')} (at, actor, op, ir, affected_ids, before, after) VALUES (${vals.map((v) => p.bind(v)).join(', ')})`,
    params: p.values,
  };
}

export function compileAuditSelect(d: Dialect, id?: number): SqlStatement {
  const p = new ParamList(d);
  const where = id === undefined ? '' : ` WHERE id = ${p.bind(id)}`;
  return { sql: `SELECT * FROM ${d.quoteIdent('audit_log')}${where} ORDER BY id`, params: p.values };
}

export function compileAuditLastId(d: Dialect): SqlStatement {
  return { sql: `SELECT MAX(id) AS id FROM ${d.quoteIdent('audit_log')}`, params: [] };
}

export function compileAuditMarkUndone(id: number, undoneBy: number, d: Dialect): SqlStatement {
  const p = new ParamList(d);
  return { sql: `UPDATE ${d.quoteIdent('audit_log')} SET undone_by = ${p.bind(undoneBy)} WHERE id = ${p.bind(id)}`, params: p.values };
}

/** The static plan of one operation. */
export function compile(op: Operation, d: Dialect, opts?: Partial<SelectOptions>): SqlPlan {
  if (op.kind === 'Encode') return { op: op.kind, insert: compileInsert(op.values, d) };
  const read = op.kind === 'Retrieve' || op.kind === 'Summarize';
  return {
    op: op.kind,
    target: compileTargetSelect(op.selection, d, {
      now: opts?.now ?? op.now,
      readerActor: opts?.readerActor ?? op.actor,
      applyReadPermissions: opts?.applyReadPermissions ?? read,
    }),
  };
}
