/**
 * Compile: Operation → SQL. Builds statement text from dialect fragments and binds every value
 * as a parameter; no value is ever spliced into SQL text. `compile` gives an operation's static
 * plan (the statement that selects its target, or the insert of an Encode); the row-level
 * builders below give the writes the executor issues per affected record.
 */
import type { Operation, Selection, LoweredFilter } from '../lower/operation.js';
import type { Op } from '../ir/schema.js';
import { COLUMN_BY_NAME, MEMORY_COLUMNS, type ColumnKind } from '../store/columns.js';
import { ParamList, type Dialect, type SqlStatement, type SqlValue } from '../store/dialect.js';

export type { Dialect, SqlStatement, SqlValue } from '../store/dialect.js';
export { MEMORY_COLUMNS, COLUMN_BY_NAME, type Column } from '../store/columns.js';

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
  /** The run's tenant (the caller's, never the script's): no other tenant's record is selected. */
  readonly tenant: string;
  /** Apply read permissions for this actor (Retrieve/Summarize). */
  readonly readerActor?: string | null;
  readonly applyReadPermissions: boolean;
  /**
   * Every live version of a fact, not only the current one: a DELETE by ids reaches scheduled and
   * superseded versions, to retract them (spec/semantics.md "Fact versions").
   */
  readonly versions?: boolean;
}

/** Encodes a JS value for a column: JSON columns become JSON text. */
export function encodeValue(column: string, value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  const c = COLUMN_BY_NAME.get(column);
  if (!c) throw new Error(`internal: unknown memory column ${column}`);
  if (c.kind === 'json-array' || c.kind === 'json-object') return JSON.stringify(value);
  if (c.kind === 'blob') return packVector(value as ArrayLike<number>);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * `encodeValue` for dialect `d`: a dialect with its own vector type (pgvector) binds vectors in
 * its form; a vector already read back in that form (a string) is bound as it is.
 */
function encodeFor(d: Dialect, column: string, value: unknown): SqlValue {
  if (d.vectors && value !== undefined && value !== null && COLUMN_BY_NAME.get(column)?.kind === 'blob') {
    if (typeof value === 'string') return value;
    return d.vectors.value(value instanceof Uint8Array ? unpackVector(value) : value instanceof Float32Array ? value : Float32Array.from(value as ArrayLike<number>));
  }
  return encodeValue(column, value);
}

/** A vector as a BLOB: little-endian Float32 (every platform JavaScript runs on is little-endian). */
export function packVector(v: ArrayLike<number> | Uint8Array): Uint8Array {
  if (v instanceof Uint8Array) return v;
  const f = v instanceof Float32Array ? v : Float32Array.from(v);
  return new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
}

/** A packed vector read back (a copy, so it is aligned and owned). */
export function unpackVector(b: Uint8Array): Float32Array {
  const out = new Float32Array(b.byteLength >> 2);
  new Uint8Array(out.buffer).set(b.subarray(0, out.length * 4));
  return out;
}

/**
 * Decodes a row read from the driver: JSON columns parsed (bad JSON kept as text). A copy with
 * the same keys in the same order (the spread copies the row's shape at once); only the few JSON
 * columns are looked at, not every key.
 */
export function decodeRow(row: Record<string, SqlValue>): Record<string, unknown> {
  return decodeOwnedRow({ ...row });
}

/** `decodeRow` of a row nobody else holds (fresh from the driver): its JSON columns are parsed in place. */
export function decodeOwnedRow(row: Record<string, unknown>): Record<string, unknown> {
  const out = row;
  // An indexed loop (no iterator result per column).
  for (let i = 0; i < JSON_COLUMN_NAMES.length; i++) {
    const k = JSON_COLUMN_NAMES[i];
    const v = out[k];
    if (typeof v === 'string') out[k] = decodedJson(v);
  }
  return out;
}

/**
 * Column `k` of a row as `decodeOwnedRow` would leave it, read from a row not decoded (the row is
 * not changed): the engine reads a few columns of rows it decodes no further (spec/semantics.md
 * "Performance").
 */
export function decodedColumn(row: Readonly<Record<string, unknown>>, k: string): unknown {
  const v = row[k];
  return typeof v === 'string' && JSON_COLUMNS.has(k) ? decodedJson(v) : v;
}

/** A JSON column's text as a value; text that is not JSON is kept as text. */
function decodedJson(v: string): unknown {
  // The values most rows hold, without the parser (each is a fresh value, as JSON.parse gives).
  if (v === '[]') return [];
  if (v === '{}') return {};
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

const JSON_COLUMN_NAMES: readonly string[] = MEMORY_COLUMNS.filter((c) => c.kind === 'json-array' || c.kind === 'json-object').map((c) => c.name);
const JSON_COLUMNS: ReadonlySet<string> = new Set(JSON_COLUMN_NAMES);

function filterWhere(f: LoweredFilter, d: Dialect, p: ParamList, out: string[]): void {
  const q = d.quoteIdent;
  if (f.time?.from) out.push(`${q('time')} >= ${p.bind(f.time.from)}`);
  if (f.time?.to) out.push(`${q('time')} <= ${p.bind(f.time.to)}`);
  for (const tag of f.hasTags) out.push(d.hasTag(p.bind(tag)));
  if (f.notTags.length) out.push(`NOT ${d.jsonArrayOverlaps(q('tags'), p.bind(JSON.stringify(f.notTags)))}`);
  for (const key of ['type', 'subject', 'location', 'topic', 'attribute'] as const) {
    const v = f[key];
    if (v === undefined) continue;
    // The subject as written, or as an attribute's schema keeps it on that attribute's facts.
    if (key === 'subject' && f.subjectForms?.length) out.push(`(${q(key)} = ${p.bind(v)} OR ${f.subjectForms.map((s) => `(${q(key)} = ${p.bind(s.subject)} AND ${q('attribute')} IN (${s.attributes.map((a) => p.bind(a)).join(', ')}))`).join(' OR ')})`);
    else out.push(`${q(key)} = ${p.bind(v)}`);
  }
  if (f.weightGte !== undefined) out.push(`${q('weight')} >= ${p.bind(f.weightGte)}`);
  if (f.weightLte !== undefined) out.push(`${q('weight')} <= ${p.bind(f.weightLte)}`);
  if (f.expireBefore) out.push(`${q('expire_at')} < ${p.bind(f.expireBefore)}`);
  if (f.expireAfter) out.push(`${q('expire_at')} > ${p.bind(f.expireAfter)}`);
  for (const [key, value] of Object.entries(f.facets)) out.push(`${d.jsonObjectField(q('facets'), p.bind(key))} = ${p.bind(facetValue(value))}`);
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

/** `tenant = ?`: the first condition of every statement that reads or writes records or audit entries. */
export function tenantWhere(tenant: string, d: Dialect, p: ParamList): string {
  return `${d.quoteIdent('tenant')} = ${p.bind(tenant)}`;
}

/**
 * Which versions a read sees (spec/semantics.md "Reads in time"). Now (the default): live (not
 * deleted, not expired) and, for a fact, the version valid now. `AS OF t`: what was valid, live
 * and unexpired at t (a record's validity starts at its `valid_from`, else its `created_at`); a
 * deleted fact version was retracted, its neighbours re-linked over it, so it is valid at no
 * instant. `HISTORY` (and `versions`): every live version of a fact, superseded ones included.
 */
function timeWhere(sel: Selection, d: Dialect, p: ParamList, now: string, versions = false): string[] {
  const q = d.quoteIdent;
  const unexpired = (t: string) => `(${q('expire_at')} IS NULL OR ${q('expire_at')} > ${p.bind(t)})`;
  if (sel.knownAt !== undefined) return knownWhere(sel, sel.knownAt, d, p, now);
  if (sel.asOf !== undefined) {
    const t = sel.asOf;
    return [
      `COALESCE(${q('valid_from')}, ${q('created_at')}) <= ${p.bind(t)}`,
      `(${q('valid_to')} IS NULL OR ${q('valid_to')} > ${p.bind(t)})`,
      `(${q('deleted')} = ${p.bind(0)} OR (${q('attribute')} IS NULL AND ${q('deleted_at')} > ${p.bind(t)}))`,
      unexpired(t),
    ];
  }
  const live = [`${q('deleted')} = ${p.bind(0)}`, unexpired(now)];
  if (sel.history || versions) return live;
  return [...live, `(${q('valid_to')} IS NULL OR ${q('valid_to')} > ${p.bind(now)})`, `(${q('valid_from')} IS NULL OR ${q('valid_from')} <= ${p.bind(now)})`];
}

/**
 * Was a record believed at transaction time `k` (spec/semantics.md "Reads in time")? Written by
 * then (`created_at`), not yet retracted (`deleted_at`), and in none of the spells an undo closed
 * (`retractions`, `"from/to"` instants of a fixed width). `t` qualifies the columns (`n.` in a
 * subquery).
 */
function knownCondition(k: string, d: Dialect, p: ParamList, t = ''): string {
  const c = (name: string) => `${t}${d.quoteIdent(name)}`;
  // Placeholders are bound in the order they appear in the text.
  const recorded = `${c('created_at')} <= ${p.bind(k)} AND (${c('deleted')} = ${p.bind(0)} OR ${c('deleted_at')} > ${p.bind(k)})`;
  const spell = `EXISTS (SELECT 1 FROM ${d.jsonElements(c('retractions'))} AS g WHERE substr(g.value, 1, 20) <= ${p.bind(k)} AND substr(g.value, 22) > ${p.bind(k)})`;
  return `${recorded} AND (${c('retractions')} IS NULL OR NOT ${spell})`;
}

/**
 * `KNOWN AT k` (with `AS OF v`, else valid now): the records believed at k; a fact version among
 * them is the one valid at v of its key's chain as it stood at k — the last of the versions
 * believed at k, by (valid_from, id), that is valid from v or before — derived here rather than
 * read from `valid_to`, which holds the chain as it stands now. With HISTORY, every version
 * believed at k.
 */
function knownWhere(sel: Selection, k: string, d: Dialect, p: ParamList, now: string): string[] {
  const q = d.quoteIdent;
  const v = sel.asOf ?? now;
  const where = [knownCondition(k, d, p), `(${q('expire_at')} IS NULL OR ${q('expire_at')} > ${p.bind(v)})`];
  if (sel.history) return where;
  const m = (name: string) => `${q('memory')}.${q(name)}`;
  const n = (name: string) => `n.${q(name)}`;
  const validFrom = `COALESCE(${q('valid_from')}, ${q('created_at')}) <= ${p.bind(v)}`;
  const plain = `${q('attribute')} IS NULL AND (${q('valid_to')} IS NULL OR ${q('valid_to')} > ${p.bind(v)})`;
  const later = `EXISTS (SELECT 1 FROM ${q('memory')} AS n WHERE ${n('tenant')} = ${m('tenant')} AND ${n('subject')} = ${m('subject')} AND ${n('attribute')} = ${m('attribute')}`
    + ` AND (${n('valid_from')} > ${m('valid_from')} OR (${n('valid_from')} = ${m('valid_from')} AND ${n('id')} > ${m('id')})) AND ${n('valid_from')} <= ${p.bind(v)}`
    + ` AND ${knownCondition(k, d, p, 'n.')})`;
  where.push(validFrom, `((${plain}) OR (${q('attribute')} IS NOT NULL AND NOT ${later}))`);
  return where;
}

/** WHERE conditions shared by every target: the tenant, live (not deleted, not expired, current) and matching the selection. */
function targetWhere(sel: Selection, d: Dialect, p: ParamList, opts: SelectOptions): string[] {
  const q = d.quoteIdent;
  const where = [tenantWhere(opts.tenant, d, p), ...timeWhere(sel, d, p, opts.now, opts.versions)];
  if (sel.ids) where.push(sel.ids.length ? `${q('id')} IN (${sel.ids.map((id) => p.bind(id)).join(', ')})` : '1 = 0');
  if (sel.filter) filterWhere(sel.filter, d, p, where);
  if (sel.level) where.push(`${q('level')} = ${p.bind(sel.level)}`);
  if (opts.applyReadPermissions) where.push(readPermissionWhere(opts.readerActor, d, p));
  return where;
}

/**
 * The statement that selects a target's rows. Its text depends only on the selection's shape
 * (`selectShape`): a shape seen before takes its text from the cache and its values from
 * `selectParams`, in the order `buildTargetSelect` binds them (test/compile/select-shape.test.ts
 * holds the two ways to equal statements).
 */
export function compileTargetSelect(sel: Selection, d: Dialect, opts: SelectOptions): SqlStatement {
  const key = selectShape(sel, opts);
  if (key === undefined) return buildTargetSelect(sel, d, opts);
  let byShape = selectTexts.get(d);
  if (!byShape) selectTexts.set(d, (byShape = new Map()));
  const sql = byShape.get(key);
  if (sql === undefined) {
    const built = buildTargetSelect(sel, d, opts);
    if (byShape.size < MAX_SHAPES) byShape.set(key, built.sql);
    return built;
  }
  return { sql, params: selectParams(sel, opts) };
}

/** Target select texts by dialect and shape (`selectShape`). */
const selectTexts = new WeakMap<Dialect, Map<number, string>>();
const FILTER_COLUMNS = ['type', 'subject', 'location', 'topic', 'attribute'] as const;
const ORDERS: readonly Selection['orderBy'][] = ['time_desc', 'time_asc', 'weight_desc', 'relevance'];

/**
 * What the target select's text depends on, never a value, as one integer (a number is hashed at
 * once; a string key would be built and flattened for every statement): which conditions it has
 * (as `targetWhere` and `buildTargetSelect` test them), whose read permissions, the order, and
 * how many ids, tags and facet conditions. Undefined (no caching) for counts past the fields.
 */
function selectShape(sel: Selection, opts: SelectOptions): number | undefined {
  const order = ORDERS.indexOf(sel.orderBy);
  const ids = sel.ids === undefined ? 0 : sel.ids.length + 1;
  // A read at a transaction time is rare and its statement long: built each time, not cached.
  if (order < 0 || ids > 1023 || sel.knownAt !== undefined) return undefined;
  let bits = (sel.asOf !== undefined ? 1 : 0) | (sel.history ? 2 : 0) | (sel.level ? 4 : 0) | (sel.search ? 8 : 0) | (sel.limit !== undefined ? 16 : 0);
  bits |= (opts.applyReadPermissions ? (opts.readerActor ? 32 : 64) : 0) | (order << 7) | (opts.versions ? 1 << 22 : 0);
  let tags = 0;
  let facets = 0;
  const f = sel.filter;
  if (f) {
    if (f.subjectForms) return undefined;
    bits |= 1 << 9 | (f.time?.from ? 1 << 10 : 0) | (f.time?.to ? 1 << 11 : 0) | (f.notTags.length ? 1 << 12 : 0);
    for (let i = 0; i < FILTER_COLUMNS.length; i++) if (f[FILTER_COLUMNS[i]] !== undefined) bits |= 1 << (13 + i);
    bits |= (f.weightGte !== undefined ? 1 << 18 : 0) | (f.weightLte !== undefined ? 1 << 19 : 0) | (f.expireBefore ? 1 << 20 : 0) | (f.expireAfter ? 1 << 21 : 0);
    tags = f.hasTags.length;
    for (const k in f.facets) if (Object.hasOwn(f.facets, k)) facets++;
    if (tags > 63 || facets > 63) return undefined;
  }
  // 23 bits of conditions, then 10 of ids, 6 of tags and 6 of facets: 45 bits, an exact integer.
  return bits + 2 ** 23 * (ids + 1024 * (tags + 64 * facets));
}

/** The target select's values, in the order `buildTargetSelect` binds them. */
function selectParams(sel: Selection, opts: SelectOptions): SqlValue[] {
  const v: SqlValue[] = [opts.tenant];
  // timeWhere
  if (sel.asOf !== undefined) v.push(sel.asOf, sel.asOf, 0, sel.asOf, sel.asOf);
  else if (sel.history || opts.versions) v.push(0, opts.now);
  else v.push(0, opts.now, opts.now, opts.now);
  if (sel.ids) for (const id of sel.ids) v.push(id);
  const f = sel.filter;
  if (f) {
    // filterWhere
    if (f.time?.from) v.push(f.time.from);
    if (f.time?.to) v.push(f.time.to);
    for (const tag of f.hasTags) v.push(tag);
    if (f.notTags.length) v.push(JSON.stringify(f.notTags));
    for (const c of FILTER_COLUMNS) {
      const x = f[c];
      if (x !== undefined) v.push(x);
    }
    if (f.weightGte !== undefined) v.push(f.weightGte);
    if (f.weightLte !== undefined) v.push(f.weightLte);
    if (f.expireBefore) v.push(f.expireBefore);
    if (f.expireAfter) v.push(f.expireAfter);
    for (const [key, value] of Object.entries(f.facets)) v.push(key, facetValue(value));
  }
  if (sel.level) v.push(sel.level);
  // readPermissionWhere
  if (opts.applyReadPermissions) {
    const actor = opts.readerActor;
    if (!actor) v.push('public');
    else v.push('public', 'team', actor, actor, actor);
  }
  if (sel.limit !== undefined && !sel.search) v.push(sel.limit);
  return v;
}

/** A facet condition's value as bound: strings and numbers as they are, anything else as JSON. */
function facetValue(value: unknown): SqlValue {
  return typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value);
}

const limitCount = (d: Dialect, param: string) => (d.limitCount ? d.limitCount(param) : param);

/** `compileTargetSelect` built from scratch, text and values together (the cache's source, and its tests' reference). */
export function buildTargetSelect(sel: Selection, d: Dialect, opts: SelectOptions): SqlStatement {
  const q = d.quoteIdent;
  const p = new ParamList(d);
  const where = targetWhere(sel, d, p, opts);
  let sql = `SELECT * FROM ${q('memory')} WHERE ${where.join(' AND ')}`;
  // A search ranks its candidates with the statements below (src/retrieve/search.ts); this
  // select is its plan's filter, shown by --dry-run and explain.
  if (sel.history) {
    sql += ` ORDER BY ${q('subject')}, ${q('attribute')}, ${q('valid_from')} IS NULL, ${q('valid_from')} ASC, ${q('id')} ASC`;
    if (sel.limit !== undefined && !sel.search) sql += ` LIMIT ${limitCount(d, p.bind(sel.limit))}`;
  } else if (!sel.search || sel.orderBy !== 'relevance') {
    sql += ` ORDER BY ${orderBy(sel.orderBy, sel.ids !== undefined, d)}`;
    if (sel.limit !== undefined && !sel.search) sql += ` LIMIT ${limitCount(d, p.bind(sel.limit))}`;
  }
  return { sql, params: p.values };
}

import { BM25 } from './bm25.js';
export { BM25 } from './bm25.js';

/** The ids of every record the selection admits: a search's filters applied first, when they are selective. */
export function compileTargetIds(sel: Selection, d: Dialect, opts: SelectOptions): SqlStatement {
  const p = new ParamList(d);
  const where = targetWhere(sel, d, p, opts);
  return { sql: `SELECT ${d.quoteIdent('id')} FROM ${d.quoteIdent('memory')} WHERE ${where.join(' AND ')}`, params: p.values };
}

/**
 * The records among `ids` the selection admits (live, filtered, readable): their id and weight
 * (a search's candidates, ranked by them), or with `full` every column but the packed vectors
 * (its results). Reading whole rows costs far more than checking ids, so a search reads only
 * the rows it returns.
 */
export function compileAdmitted(sel: Selection, ids: readonly number[], d: Dialect, opts: SelectOptions, full = false): SqlStatement {
  const q = d.quoteIdent;
  const p = new ParamList(d);
  const list = d.jsonElements(p.bind(JSON.stringify(ids)));
  const where = targetWhere(sel, d, p, opts);
  const cols = (full ? ['id', ...MEMORY_COLUMNS.filter((c) => c.name !== 'id' && c.kind !== 'blob').map((c) => c.name)] : ['id', 'weight']).map(q).join(', ');
  return { sql: `SELECT ${cols} FROM ${q('memory')} WHERE ${q('id')} IN (SELECT CAST(value AS INTEGER) FROM ${list} AS e) AND ${where.join(' AND ')}`, params: p.values };
}

/** The search tokens of every live record of `tenant` (loaded once into the tenant's in-memory keyword index). */
export function compileKeywordLoad(d: Dialect, tenant: string): SqlStatement {
  const q = d.quoteIdent;
  const p = new ParamList(d);
  return {
    sql: `SELECT ${q('id')}, ${q('search_text')} FROM ${q('memory')} WHERE ${tenantWhere(tenant, d, p)} AND ${q('deleted')} = ${p.bind(0)} AND ${q('search_text')} IS NOT NULL AND ${q('search_text')} <> ${p.bind('')}`,
    params: p.values,
  };
}

/**
 * The `limit` records of the selection nearest to the unit vector `query` by the dialect's own
 * vectors (pgvector), as (id, cosine similarity), nearest first: the selection's filters,
 * liveness and permissions are in the same WHERE, so they apply before ranking. An exact scan of
 * the admitted records' vectors of `model` (ties by id).
 */
export function compileVectorSearch(sel: Selection, query: Float32Array, model: string, limit: number, d: Dialect, opts: SelectOptions): SqlStatement {
  const vec = d.vectors;
  if (!vec) throw new Error(`internal: the ${d.name} dialect has no vector type of its own`);
  const q = d.quoteIdent;
  const p = new ParamList(d);
  // Dialects with vectors number their placeholders ($n), so one binding serves both uses.
  const distance = vec.distance(q('embedding_f32'), p.bind(vec.value(query)), query.length);
  const where = [...targetWhere(sel, d, p, opts), `${q('embedding_model')} = ${p.bind(model)}`, vec.hasDimensions(q('embedding_f32'), query.length)];
  return {
    // The vectors come along: the engine rescores them (src/retrieve/vectors.ts, rescore) as its own scan would.
    sql: `SELECT ${q('id')}, 1 - ${distance} AS score, ${q('embedding_f32')} AS v FROM ${q('memory')} WHERE ${where.join(' AND ')} ORDER BY ${distance}, ${q('id')} LIMIT ${p.bind(limit)}`,
    params: p.values,
  };
}

/** The packed vectors of `tenant`'s live records embedded by `model` (loaded once into the tenant's in-memory vector index). */
export function compileVectorLoad(model: string, d: Dialect, tenant: string): SqlStatement {
  const q = d.quoteIdent;
  const p = new ParamList(d);
  return {
    sql: `SELECT ${q('id')}, ${q('embedding_f32')} AS v FROM ${q('memory')} WHERE ${tenantWhere(tenant, d, p)} AND ${q('deleted')} = ${p.bind(0)} AND ${q('embedding_model')} = ${p.bind(model)} AND ${q('embedding_f32')} IS NOT NULL ORDER BY ${q('id')}`,
    params: p.values,
  };
}

/** The store's index counter: moves whenever a record's search tokens, vector or liveness change (the in-memory indexes' version). */
export function compileVectorVersion(): SqlStatement {
  return { sql: 'SELECT vectors FROM memory_search_stats WHERE id = 1', params: [] };
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

/**
 * Statement text by dialect and column list, for the per-record writes (inserts, updates by id):
 * the engine issues the same few shapes over and over, and the text (like the driver's prepared
 * statement, cached by it) depends only on the columns. Bounded: a shape past the bound is built
 * each time.
 */
const shapes = new WeakMap<Dialect, Map<string, string>>();
const MAX_SHAPES = 2000;
function shaped(d: Dialect, key: string, build: () => string): string {
  let byKey = shapes.get(d);
  if (!byKey) shapes.set(d, (byKey = new Map()));
  let sql = byKey.get(key);
  if (sql === undefined) {
    sql = build();
    if (byKey.size < MAX_SHAPES) byKey.set(key, sql);
  }
  return sql;
}

/** An INSERT's template, by dialect and column list: its text, and each column's kind (how its value is bound). */
interface InsertShape {
  readonly sql: string;
  readonly kinds: readonly ColumnKind[];
}
const insertShapes = new WeakMap<Dialect, Map<string, InsertShape>>();

/**
 * INSERT of one record; `values` keys are column names. The text and the columns' kinds come
 * from the shape's template (one per column list, bounded like `shaped`); only the values are
 * encoded per record, in the order of their keys.
 */
export function compileInsert(values: Readonly<Record<string, unknown>>, d: Dialect): SqlStatement {
  // The shape of the insert before, when this record has its columns in its order (compared key
  // by key: the engine's records of one kind are built alike): no key text to build and look up.
  const last = lastInsert;
  if (last !== undefined && last.dialect === d) {
    const cols = last.cols;
    const kinds = last.kinds;
    const params: SqlValue[] = new Array(cols.length);
    let i = 0;
    for (const c in values) {
      const v = values[c];
      if (c === 'id' || v === undefined || !Object.hasOwn(values, c)) continue;
      if (i === cols.length || c !== cols[i]) {
        i = -1;
        break;
      }
      params[i] = encodeKind(d, kinds[i], v);
      i++;
    }
    if (i === cols.length) return { sql: last.sql, params };
  }
  const cols: string[] = [];
  for (const c in values) {
    if (c === 'id' || values[c] === undefined || !Object.hasOwn(values, c)) continue;
    cols.push(c);
  }
  let byKey = insertShapes.get(d);
  if (!byKey) insertShapes.set(d, (byKey = new Map()));
  const key = cols.join(',');
  let shape = byKey.get(key);
  if (shape === undefined) {
    shape = insertShape(cols, d);
    if (byKey.size < MAX_SHAPES) byKey.set(key, shape);
  }
  const kinds = shape.kinds;
  const params: SqlValue[] = new Array(cols.length);
  for (let i = 0; i < cols.length; i++) params[i] = encodeKind(d, kinds[i], values[cols[i]]);
  lastInsert = { dialect: d, cols, sql: shape.sql, kinds };
  return { sql: shape.sql, params };
}

/** The last insert's shape, for the next record of the same columns (`compileInsert`). */
let lastInsert: { readonly dialect: Dialect; readonly cols: readonly string[]; readonly sql: string; readonly kinds: readonly ColumnKind[] } | undefined;

function insertShape(cols: readonly string[], d: Dialect): InsertShape {
  const kinds = cols.map((c) => {
    const column = COLUMN_BY_NAME.get(c);
    if (!column) throw new Error(`internal: unknown memory column ${c}`);
    return column.kind;
  });
  const placeholders = cols.map((_, i) => d.placeholder(i));
  return { sql: `INSERT INTO ${d.quoteIdent('memory')} (${cols.map(d.quoteIdent).join(', ')}) VALUES (${placeholders.join(', ')})${d.insertReturningId() ?? ''}`, kinds };
}

/**
 * INSERT of several records in one statement (a run of Encodes, src/execute/index.ts
 * `executeEncodeRunIo`), returning each new row's `id` with its `statement_index`, by which the
 * engine matches ids to records (SQLite does not promise RETURNING's row order). The columns are
 * those any of the records sets, in the table's order; a record without one of them binds null,
 * which is what leaving it out stores, so every record must set each column that has a default
 * (as the engine's records set `tenant` and `deleted`). Each record's values are bound as
 * `compileInsert` binds them. The text is cached by row count and column list; the caller keeps
 * `rows × columns` under the dialect's `maxParams`.
 */
export function compileInsertRows(rows: readonly Readonly<Record<string, unknown>>[], d: Dialect): SqlStatement {
  if (!d.insertReturning) throw new Error(`internal: the ${d.name} dialect cannot return the rows of a multi-row insert`);
  const returning = d.insertReturning(['id', 'statement_index']);
  const present = new Set<string>();
  for (const r of rows) {
    for (const c in r) if (c !== 'id' && r[c] !== undefined && Object.hasOwn(r, c)) present.add(c);
  }
  const cols: string[] = [];
  const kinds: ColumnKind[] = [];
  for (const c of MEMORY_COLUMNS) {
    if (!present.has(c.name)) continue;
    if (c.defaultSql !== undefined) {
      for (const r of rows) if (r[c.name] === undefined || !Object.hasOwn(r, c.name)) throw new Error(`internal: a multi-row insert needs column ${c.name} (it has a default) in every record`);
    }
    cols.push(c.name);
    kinds.push(c.kind);
  }
  if (cols.length !== present.size) throw new Error(`internal: unknown memory column in ${[...present].join(', ')}`);
  if (rows.length * cols.length > d.maxParams) throw new Error(`internal: ${rows.length} rows of ${cols.length} columns bind more than ${d.maxParams} values`);
  const params: SqlValue[] = new Array(rows.length * cols.length);
  let at = 0;
  for (const r of rows) {
    for (let i = 0; i < cols.length; i++) params[at++] = encodeKind(d, kinds[i], r[cols[i]]);
  }
  const sql = shaped(d, `insert rows ${rows.length} ${cols.join(',')}`, () => {
    const q = d.quoteIdent;
    const values: string[] = [];
    let n = 0;
    for (let k = 0; k < rows.length; k++) values.push(`(${cols.map(() => d.placeholder(n++)).join(', ')})`);
    return `INSERT INTO ${q('memory')} (${cols.map(q).join(', ')}) VALUES ${values.join(', ')}${returning}`;
  });
  return { sql, params };
}

/** `encodeFor` of a column whose kind is known (the same value bound). */
function encodeKind(d: Dialect, kind: ColumnKind, value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  switch (kind) {
    case 'json-array': case 'json-object': return JSON.stringify(value);
    case 'blob':
      if (d.vectors) return typeof value === 'string' ? value : d.vectors.value(value instanceof Uint8Array ? unpackVector(value) : value instanceof Float32Array ? value : Float32Array.from(value as ArrayLike<number>));
      return packVector(value as ArrayLike<number>);
    default:
      if (typeof value === 'number' || typeof value === 'string') return value;
      if (typeof value === 'boolean') return value ? 1 : 0;
      return JSON.stringify(value);
  }
}

/** UPDATE of one record by id (of the tenant). */
export function compileUpdateById(id: number, changes: Readonly<Record<string, unknown>>, d: Dialect, tenant: string): SqlStatement {
  const cols = Object.keys(changes);
  const params: SqlValue[] = [];
  for (let i = 0; i < cols.length; i++) params.push(encodeFor(d, cols[i], changes[cols[i]]));
  params.push(tenant, id);
  // An Update writes the same columns to row after row: the last text is reused when the
  // dialect and the columns (in order) are the same, without building and hashing its key.
  const last = lastUpdateById;
  if (last !== undefined && last.d === d && sameColumns(last.cols, cols)) return { sql: last.sql, params };
  const sql = shaped(d, `update ${cols.join(',')}`, () => {
    const p = new ParamList(d);
    const sets = cols.map((c, i) => `${d.quoteIdent(c)} = ${p.bind(params[i])}`);
    return `UPDATE ${d.quoteIdent('memory')} SET ${sets.join(', ')} WHERE ${tenantWhere(tenant, d, p)} AND ${d.quoteIdent('id')} = ${p.bind(id)}`;
  });
  lastUpdateById = { d, cols, sql };
  return { sql, params };
}

/** The last update-by-id text compiled (compileUpdateById), with its dialect and columns. */
let lastUpdateById: { readonly d: Dialect; readonly cols: readonly string[]; readonly sql: string } | undefined;

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The one way a record leaves the store: the row goes, and with it every derived index entry
 * (the tag index's trigger; a dialect's other indexes are keyed by memory id and cleared by
 * their own triggers or statements in `schema()`).
 */
export function compileDeleteById(id: number, d: Dialect, tenant: string): SqlStatement {
  const p = new ParamList(d);
  return { sql: `DELETE FROM ${d.quoteIdent('memory')} WHERE ${tenantWhere(tenant, d, p)} AND ${d.quoteIdent('id')} = ${p.bind(id)}`, params: p.values };
}

/** Reads records of the tenant by id, whatever their state (used for before/after images, lineage, undo and `why`). */
export function compileSelectByIds(ids: readonly number[], d: Dialect, tenant: string): SqlStatement {
  const p = new ParamList(d);
  // Placeholders are bound in the order they appear in the text.
  const inTenant = tenantWhere(tenant, d, p);
  const list = ids.length ? ids.map((id) => p.bind(id)).join(', ') : 'NULL';
  return { sql: `SELECT * FROM ${d.quoteIdent('memory')} WHERE ${inTenant} AND ${d.quoteIdent('id')} IN (${list}) ORDER BY ${d.quoteIdent('id')}`, params: p.values };
}

/**
 * The live versions of a fact of the tenant, oldest validity first: supersession's input; with
 * `retracted`, the deleted ones too (transaction time's input).
 */
export function compileFactVersions(subject: string, attribute: string, d: Dialect, tenant: string, retracted = false): SqlStatement {
  const q = d.quoteIdent;
  const p = new ParamList(d);
  // Placeholders are bound in the order they appear in the text.
  const key = `${tenantWhere(tenant, d, p)} AND ${q('subject')} = ${p.bind(subject)} AND ${q('attribute')} = ${p.bind(attribute)}`;
  const live = retracted ? '' : ` AND ${q('deleted')} = ${p.bind(0)}`;
  return {
    sql: `SELECT * FROM ${q('memory')} WHERE ${key}${live} ORDER BY ${q('valid_from')} ASC, ${q('id')} ASC`,
    params: p.values,
  };
}

/**
 * Records of the tenant whose expiry has come and whose action has not been applied yet (for
 * sweep): live ones, and soft-deleted ephemeral ones (their expiry erases them all the same).
 */
export function compileDueExpiries(now: string, d: Dialect, tenant: string): SqlStatement {
  const q = d.quoteIdent;
  const p = new ParamList(d);
  return {
    sql: `SELECT * FROM ${q('memory')} WHERE ${tenantWhere(tenant, d, p)} AND (${q('deleted')} = ${p.bind(0)} OR ${q('retention')} = ${p.bind('ephemeral')}) AND ${q('expire_at')} IS NOT NULL AND ${q('expire_at')} <= ${p.bind(now)} ORDER BY ${q('id')}`,
    params: p.values,
  };
}

export interface AuditEntry {
  readonly tenant: string;
  /** The run's trace id (RunOptions.traceId, or one the engine made). */
  readonly traceId?: string | null;
  readonly at: string;
  readonly actor: string | null;
  readonly op: string;
  readonly ir: unknown;
  readonly affectedIds: readonly number[];
  readonly before: unknown;
  readonly after: unknown;
  /** `before` and `after` already serialised as JSON (the engine writes them in one pass); preferred when given. */
  readonly imagesJson?: { readonly before: string; readonly after: string };
}

export function compileAuditInsert(e: AuditEntry, d: Dialect): SqlStatement {
  const params = auditParams(e);
  // One text per dialect (every entry binds the same nine values).
  const sql = shaped(d, 'audit insert', () => {
    const p = new ParamList(d);
    return `INSERT INTO ${d.quoteIdent('audit_log')} (${AUDIT_INSERT_COLUMNS}) VALUES (${params.map((v) => p.bind(v)).join(', ')})`;
  });
  return { sql, params };
}

/** The audit log's columns an entry writes, in the order `auditParams` binds them. */
const AUDIT_INSERT_COLUMNS = 'tenant, trace_id, at, actor, op, ir, affected_ids, before, after';
const AUDIT_INSERT_WIDTH = 9;

/** An audit entry's nine values, as `compileAuditInsert` binds them. */
function auditParams(e: AuditEntry): SqlValue[] {
  return auditParamsInto(e, new Array<SqlValue>(AUDIT_INSERT_WIDTH), 0);
}

/** Writes an audit entry's nine values into `params` from `at` on (a multi-row insert fills one array in place). */
function auditParamsInto(e: AuditEntry, params: SqlValue[], at: number): SqlValue[] {
  const ids = e.affectedIds;
  // One id (every Encode) written directly: the text JSON.stringify gives a safe integer's list.
  const idsJson = ids.length === 1 && Number.isSafeInteger(ids[0]) ? `[${ids[0]}]` : JSON.stringify(ids);
  params[at] = e.tenant;
  params[at + 1] = e.traceId ?? null;
  params[at + 2] = e.at;
  params[at + 3] = e.actor;
  params[at + 4] = e.op;
  params[at + 5] = JSON.stringify(e.ir ?? null);
  params[at + 6] = idsJson;
  params[at + 7] = e.imagesJson?.before ?? JSON.stringify(e.before ?? null);
  params[at + 8] = e.imagesJson?.after ?? JSON.stringify(e.after ?? null);
  return params;
}

/**
 * Several audit entries in one statement (a run of Encodes): the rows `compileAuditInsert` writes
 * one by one, with the same values, in the order given (so their ids ascend in that order). The
 * caller keeps `9 × entries` under the dialect's `maxParams`.
 */
export function compileAuditInsertRows(entries: readonly AuditEntry[], d: Dialect): SqlStatement {
  if (entries.length * AUDIT_INSERT_WIDTH > d.maxParams) throw new Error(`internal: ${entries.length} audit entries bind more than ${d.maxParams} values`);
  const params = new Array<SqlValue>(entries.length * AUDIT_INSERT_WIDTH);
  for (let k = 0; k < entries.length; k++) auditParamsInto(entries[k], params, k * AUDIT_INSERT_WIDTH);
  const sql = shaped(d, `audit insert rows ${entries.length}`, () => {
    const values: string[] = [];
    let n = 0;
    for (let k = 0; k < entries.length; k++) values.push(`(${Array.from({ length: AUDIT_INSERT_WIDTH }, () => d.placeholder(n++)).join(', ')})`);
    return `INSERT INTO ${d.quoteIdent('audit_log')} (${AUDIT_INSERT_COLUMNS}) VALUES ${values.join(', ')}`;
  });
  return { sql, params };
}

/** The widest record a multi-row insert may write (every memory column), for chunking under `maxParams`. */
export const MEMORY_INSERT_WIDTH = MEMORY_COLUMNS.length;

/** The tenant's audit entries, oldest first (or one of them). */
export function compileAuditSelect(d: Dialect, tenant: string, id?: number): SqlStatement {
  const p = new ParamList(d);
  const inTenant = tenantWhere(tenant, d, p);
  const where = id === undefined ? '' : ` AND id = ${p.bind(id)}`;
  return { sql: `SELECT * FROM ${d.quoteIdent('audit_log')} WHERE ${inTenant}${where} ORDER BY id`, params: p.values };
}

export function compileAuditLastId(d: Dialect, tenant: string): SqlStatement {
  const p = new ParamList(d);
  return { sql: `SELECT MAX(id) AS id FROM ${d.quoteIdent('audit_log')} WHERE ${tenantWhere(tenant, d, p)}`, params: p.values };
}

export function compileAuditMarkUndone(id: number, undoneBy: number, d: Dialect, tenant: string): SqlStatement {
  const p = new ParamList(d);
  return { sql: `UPDATE ${d.quoteIdent('audit_log')} SET undone_by = ${p.bind(undoneBy)} WHERE ${tenantWhere(tenant, d, p)} AND id = ${p.bind(id)}`, params: p.values };
}

/** The ids and affected ids of the tenant's audit entries: an erasure finds the entries that touched its records in one scan (scrubAudit). */
export function compileAuditAffected(d: Dialect, tenant: string): SqlStatement {
  const p = new ParamList(d);
  return { sql: `SELECT id, affected_ids FROM ${d.quoteIdent('audit_log')} WHERE ${tenantWhere(tenant, d, p)} ORDER BY id`, params: p.values };
}

/** The images of the tenant's audit entries `ids` (scrubAudit). */
export function compileAuditImages(ids: readonly number[], d: Dialect, tenant: string): SqlStatement {
  const p = new ParamList(d);
  const inTenant = tenantWhere(tenant, d, p);
  return { sql: `SELECT id, before, after FROM ${d.quoteIdent('audit_log')} WHERE ${inTenant} AND id IN (${ids.map((id) => p.bind(id)).join(', ')}) ORDER BY id`, params: p.values };
}

/** Sets an audit entry's images (JSON text) and blanks its IR: an erasure keeps the entry, who and when. */
export function compileAuditSetImages(entryId: number, before: string | null, after: string | null, d: Dialect, tenant: string): SqlStatement {
  const p = new ParamList(d);
  const set = `ir = NULL, before = ${p.bind(before)}, after = ${p.bind(after)}`;
  return { sql: `UPDATE ${d.quoteIdent('audit_log')} SET ${set} WHERE ${tenantWhere(tenant, d, p)} AND id = ${p.bind(entryId)}`, params: p.values };
}

/** The ephemeral versions of a fact key in the tenant, deleted or not: what an ephemeral record's erasure takes with it. */
export function compileEphemeralVersions(subject: string, attribute: string, d: Dialect, tenant: string): SqlStatement {
  const q = d.quoteIdent;
  const p = new ParamList(d);
  return {
    sql: `SELECT * FROM ${q('memory')} WHERE ${tenantWhere(tenant, d, p)} AND ${q('subject')} = ${p.bind(subject)} AND ${q('attribute')} = ${p.bind(attribute)} AND ${q('retention')} = ${p.bind('ephemeral')} ORDER BY ${q('id')}`,
    params: p.values,
  };
}

/** The static plan of one operation. */
export function compile(op: Operation, d: Dialect, opts?: Partial<SelectOptions>): SqlPlan {
  if (op.kind === 'Encode') return { op: op.kind, insert: compileInsert(op.values, d) };
  const read = op.kind === 'Retrieve' || op.kind === 'Summarize';
  return {
    op: op.kind,
    target: compileTargetSelect(op.selection, d, {
      tenant: op.tenant,
      now: opts?.now ?? op.now,
      readerActor: opts?.readerActor ?? op.actor,
      applyReadPermissions: opts?.applyReadPermissions ?? read,
      // Retracting a version by id reaches it in any state (spec/semantics.md "Fact versions").
      versions: op.kind === 'Delete' && op.selection.ids !== undefined,
    }),
  };
}
