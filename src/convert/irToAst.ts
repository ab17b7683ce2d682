/**
 * `irToAst`: one IR → one Statement. Every field gets the most readable clause that can carry
 * its value exactly; whatever no clause can carry (unknown keys, empty objects, odd value types)
 * is written with `SET k = v` (args) or `WITH a.b = v` (any path), so IR → DSL → IR is the
 * identity for any JSON IR, valid or not. Which clause writes which field is the vocabulary's
 * clause table (`src/language/`).
 */
import type { Range } from '../diagnostics/diagnostic.js';
import { STAGE_OF, type IR, type Op } from '../ir/schema.js';
import type * as A from '../syntax/ast.js';
import { DURATION_PATTERN, IDENTIFIER_PATTERN, keywordToken } from '../syntax/tokens.js';
import { sortConditions } from '../syntax/conditions.js';
import {
  CLAUSES, CONDITION_OPERATORS, LET_KEY, OPS, REF_ARGS, REF_NAME_PATTERN, isRef, SEARCH_OPTIONS, SEARCH_OPTION_NAMES, SEARCH_QUERY_PATH, VERB_OF_OP, VERB_TEXT, clausePath, clauseSpec,
  oneOffTime, operatorOfFilterKey, type ClauseName,
} from '../language/index.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const ZERO: Range = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };
const loc = ZERO;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function has(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** The value node for a JSON value (strings as strings: the printer picks bare or quoted). */
export function jsonToValue(v: unknown): A.Value {
  if (v === null || v === undefined) return { kind: 'Null', loc };
  if (typeof v === 'string') return { kind: 'String', value: v, loc };
  if (typeof v === 'number') return { kind: 'Number', value: v, loc };
  if (typeof v === 'boolean') return { kind: 'Boolean', value: v, loc };
  if (Array.isArray(v)) return { kind: 'List', items: v.map(jsonToValue), loc };
  return {
    kind: 'Object',
    entries: Object.entries(v as JsonObject).map(([k, x]) => ({ kind: 'Entry', key: key(k), value: jsonToValue(x), loc })),
    loc,
  };
}

/** A value where a reference may stand: `{"$ref": "n"}` is written `$n`, anything else as JSON. */
function idValue(v: unknown): A.Value {
  return isRef(v) ? { kind: 'Ref', name: v.$ref, loc } : jsonToValue(v);
}

function key(name: string): A.Key {
  return { kind: 'Key', name, loc };
}
function valueList(items: Json[]): A.ValueList {
  // A lone nested list must stay bracketed, or it would be read as the list itself.
  const bracketed = items.length === 0 || (items.length === 1 && Array.isArray(items[0]));
  return { kind: 'ValueList', items: items.map(jsonToValue), bracketed, loc };
}

/** A unit word that survives the round trip: parse lower-cases it and it must lex as a name. */
function isBareUnit(u: unknown): u is string {
  return typeof u === 'string' && IDENTIFIER_PATTERN.test(u) && u === u.toLowerCase() && !keywordToken(u)
    && !['true', 'false', 'null'].includes(u) && !new RegExp(`^${DURATION_PATTERN.source}$`).test(u.toUpperCase());
}

const RANGE_KEYS = ['relative', 'amount', 'unit', 'start', 'end'];

/** The TimeRange node when every field of `r` fits `LAST n UNIT` / FROM / TO, else undefined. */
function timeRange(r: Json): A.TimeRange | undefined {
  if (!isObject(r)) return undefined;
  const keys = Object.keys(r);
  if (keys.length === 0 || keys.some((k) => !RANGE_KEYS.includes(k))) return undefined;
  const rel = ['relative', 'amount', 'unit'].filter((k) => has(r, k));
  let relative: A.RelativeRange | undefined;
  if (rel.length) {
    if (rel.length !== 3 || (r.relative !== 'last' && r.relative !== 'next') || !isBareUnit(r.unit) || typeof r.amount !== 'number') return undefined;
    relative = { kind: 'RelativeRange', direction: r.relative, amount: { kind: 'Number', value: r.amount, loc }, unit: r.unit, unitLoc: loc, loc };
  }
  return {
    kind: 'TimeRange',
    relative,
    from: has(r, 'start') ? jsonToValue(r.start) : undefined,
    to: has(r, 'end') ? jsonToValue(r.end) : undefined,
    loc,
  };
}

/** The clause whose object holds the payload fields no other clause writes. */
const PAYLOAD = (Object.keys(CLAUSES) as ClauseName[]).find((n) => clauseSpec(n)!.merge) as A.ValueKeyword;

class Builder {
  readonly clauses: A.Clause[] = [];
  readonly withs: A.WithClause[] = [];
  readonly sets: A.Assignment[] = [];
  readonly conditions: A.Condition[] = [];
  search?: A.SearchCondition;
  filterLimit?: A.Value;
  text?: A.StringValue;
  payload: A.ObjectEntry[] = [];

  with(path: readonly string[], value: unknown): void {
    this.withs.push({ kind: 'WithClause', path: path.map(key), value: jsonToValue(value), loc });
  }
  value(keyword: A.ValueKeyword, value: unknown): void {
    // The rule of one reminder prints as `REMIND <date-time>`, which reads back as the same rule.
    const once = keyword === 'REMIND' && typeof value === 'string' ? oneOffTime(value) : undefined;
    this.clauses.push({ kind: 'ValueClause', keyword, keywordLoc: loc, value: once ? { kind: 'DateTime', value: once, loc } : jsonToValue(value), loc });
  }
  list(keyword: A.ListKeyword, items: Json[]): void {
    this.clauses.push({ kind: 'ListClause', keyword, keywordLoc: loc, values: valueList(items), loc });
  }
  flag(keyword: A.FlagKeyword): void {
    this.clauses.push({ kind: 'FlagClause', keyword, loc });
  }
  set(name: string, value: unknown): void {
    this.sets.push({ kind: 'Assignment', key: key(name), value: jsonToValue(value), loc });
  }
  condition(field: string, operator: A.FieldOperator, rest: Partial<A.FieldCondition>): void {
    this.conditions.push({ kind: 'FieldCondition', field: key(field), operator, operatorLoc: loc, loc, ...rest });
  }

  /**
   * Walks an object level: `sugar` consumes the keys it can express; the rest, an empty object
   * or a non-object become WITH clauses.
   */
  level(value: Json, path: readonly string[], sugar: (k: string, v: Json) => boolean): void {
    if (!isObject(value) || Object.keys(value).length === 0) return this.with(path, value);
    for (const [k, v] of Object.entries(value)) if (!sugar(k, v)) this.with([...path, k], v);
  }
}

function target(b: Builder, t: Json): void {
  b.level(t, ['target'], (k, v) => {
    switch (k) {
      case 'ids':
        if (Array.isArray(v)) b.clauses.push({ kind: 'IdsClause', values: { ...valueList(v), items: v.map(idValue) }, loc });
        else b.clauses.push({ kind: 'IdClause', value: idValue(v), loc });
        return true;
      case 'all':
        if (v !== true) return false;
        b.clauses.push({ kind: 'AllClause', loc });
        return true;
      case 'filter':
        filter(b, v);
        return true;
      case 'search':
        search(b, v);
        return true;
    }
    return false;
  });
}

function filter(b: Builder, f: Json): void {
  const path = ['target', 'filter'];
  if (!isObject(f) || Object.keys(f).length === 0) return b.with(path, f);
  const others = Object.keys(f).filter((k) => k !== 'limit');
  for (const [k, v] of Object.entries(f)) {
    const operator = operatorOfFilterKey(k);
    const field = operator && CONDITION_OPERATORS[operator].field;
    if (field && (operator === 'HAS' || operator === 'NOT HAS')) {
      if (Array.isArray(v)) {
        b.condition(field, operator, { values: valueList(v) });
        continue;
      }
    } else if (field && operator === 'RANGE') {
      const range = timeRange(v);
      if (range) {
        b.condition(field, operator, { range });
        continue;
      }
    } else if (field && operator) {
      b.condition(field, operator, { value: jsonToValue(v) });
      continue;
    } else if (k === 'limit' && others.length) {
      // The trailing LIMIT needs a filter condition before it, or it would limit the search.
      b.filterLimit = jsonToValue(v);
      continue;
    }
    b.condition(k, '=', { value: jsonToValue(v) });
  }
}

function search(b: Builder, s: Json): void {
  let query: A.StringValue | undefined;
  const options: A.SearchOption[] = [];
  const option = (name: A.SearchOptionName, v: Json) => options.push({ kind: 'SearchOption', name, value: jsonToValue(v), loc });
  const optionAt = (path: readonly string[]) => SEARCH_OPTION_NAMES.find((name) => SEARCH_OPTIONS[name].path.join('.') === path.join('.'));
  // Each level of `target.search` whose fields a search option (or the query) can write.
  const walk = (v: Json, path: readonly string[]) => b.level(v, ['target', 'search', ...path], (k, x) => {
    const at = [...path, k];
    if (at.join('.') === SEARCH_QUERY_PATH.join('.') && typeof x === 'string') query = { kind: 'String', value: x, loc };
    else if (optionAt(at)) option(optionAt(at)!, x);
    else if ([SEARCH_QUERY_PATH, ...SEARCH_OPTION_NAMES.map((name) => SEARCH_OPTIONS[name].path)].some((p) => p.length > at.length && p.slice(0, at.length).join('.') === at.join('.'))) walk(x, at);
    else return false;
    return true;
  });
  walk(s, []);
  if (query || options.length) b.search = { kind: 'SearchCondition', query, options, loc };
}

/** The clauses that write a field of an `op` statement (not the target, SET, WITH or STAGE), with their paths. */
function fieldClauses(op: Op): ReadonlyArray<{ name: ClauseName; path: string }> {
  return (Object.keys(CLAUSES) as ClauseName[]).flatMap((name) => {
    const path = clausePath(name, op);
    const shape = clauseSpec(name)!.shape;
    return path && name !== 'STAGE' && shape !== 'target' && shape !== 'set' && shape !== 'with' ? [{ name, path: path.join('.') }] : [];
  });
}
const FIELD_CLAUSES = new Map(OPS.map((op) => [op, fieldClauses(op)]));

/** The clause `name` can carry `v` exactly (a list a list, a flag its own value, WITHIN a time range it can write). */
function fits(name: ClauseName, v: Json): boolean {
  const spec = clauseSpec(name)!;
  switch (spec.shape) {
    case 'list': return Array.isArray(v);
    case 'flag': return v === spec.value;
    case 'within': return timeRange(v) !== undefined;
    default: return true;
  }
}

/** Writes `v` with the clause `name` (which `fits` it). */
function emit(b: Builder, name: ClauseName, v: Json): void {
  switch (clauseSpec(name)!.shape) {
    case 'value': return b.value(name as A.ValueKeyword, v);
    case 'list': return b.list(name as A.ListKeyword, v as Json[]);
    case 'flag': return b.flag(name as A.FlagKeyword);
    case 'max-tokens': b.clauses.push({ kind: 'MaxTokensClause', value: jsonToValue(v), loc }); return;
    case 'older-than': b.clauses.push({ kind: 'OlderThanClause', value: jsonToValue(v), loc }); return;
    case 'within': b.clauses.push({ kind: 'WithinClause', range: timeRange(v)!, loc }); return;
  }
}

/**
 * Writes the field at `path` (`args.k`, `meta.k`, `_comment`) with its clause, read off the
 * vocabulary's clause table; an object whose own fields have clauses (`args.payload`:
 * `ENCODE "text"`, URL, STRUCTURED, the rest in PAYLOAD; `args.remind`: REMIND, UNTIL) is
 * written field by field. False, writing nothing, when no clause can carry the value exactly.
 */
function fieldClause(b: Builder, op: Op, path: readonly string[], v: Json): boolean {
  const dotted = path.join('.');
  const clauses = FIELD_CLAUSES.get(op)!;
  const whole = clauses.filter((c) => c.path === dotted);
  const single = whole.find((c) => !clauseSpec(c.name)!.merge && fits(c.name, v));
  if (single) return (emit(b, single.name, v), true);
  // The container clause (PAYLOAD) takes the fields no other clause writes.
  const container = whole.some((c) => clauseSpec(c.name)!.merge);
  const text = VERB_TEXT[op]?.join('.');
  const isText = (k: string, x: Json) => text === `${dotted}.${k}` && typeof x === 'string';
  const inner = (k: string, x: Json) => clauses.find((c) => c.path === `${dotted}.${k}` && fits(c.name, x));
  if (!container && !clauses.some((c) => c.path.startsWith(`${dotted}.`))) return false;
  if (!isObject(v) || Object.keys(v).length === 0) return false;
  // A deeper clause (SPLIT's INSTRUCTION at args.params.custom.instruction) writes its level when every field under it has a clause.
  const deeper = (k: string, x: Json) => !container && nested(op, [...path, k], x);
  if (!container && Object.entries(v).some(([k, x]) => !isText(k, x) && !inner(k, x) && !deeper(k, x))) return false;
  for (const [k, x] of Object.entries(v)) {
    const clause = inner(k, x);
    if (isText(k, x)) b.text = { kind: 'String', value: x as string, loc };
    else if (clause) emit(b, clause.name, x);
    else if (!container) fieldClause(b, op, [...path, k], x);
    else b.payload.push({ kind: 'Entry', key: key(k), value: jsonToValue(x), loc });
  }
  return true;
}

/** Whether every leaf of the object `v` at `path` has a clause of its own (no container, no text). */
function nested(op: Op, path: readonly string[], v: Json): boolean {
  const dotted = path.join('.');
  const clauses = FIELD_CLAUSES.get(op)!;
  if (!isObject(v) || Object.keys(v).length === 0 || clauses.some((c) => c.path === dotted)) return false;
  if (!clauses.some((c) => c.path.startsWith(`${dotted}.`))) return false;
  return Object.entries(v).every(([k, x]) => clauses.some((c) => c.path === `${dotted}.${k}` && !clauseSpec(c.name)!.merge && fits(c.name, x)) || nested(op, [...path, k], x));
}

function args(b: Builder, op: Op, a: Json): void {
  if (op === 'Update') {
    return b.level(a, ['args'], (k, v) => {
      if (k !== 'set') return false;
      b.level(v, ['args', 'set'], (sk, sv) => (b.set(sk, sv), true));
      return true;
    });
  }
  if (!isObject(a) || Object.keys(a).length === 0) return b.with(['args'], a);
  for (const [k, v] of Object.entries(a)) {
    // Merge's primary and a turn's episode may be references: `INTO $n`, `OF $e`.
    if (REF_ARGS[op] === k && isRef(v)) b.clauses.push({ kind: 'ValueClause', keyword: op === 'Merge' ? 'INTO' : 'OF', keywordLoc: loc, value: idValue(v), loc });
    else if (!fieldClause(b, op, ['args', k], v)) b.set(k, v);
  }
}

function meta(b: Builder, op: Op, m: Json): void {
  b.level(m, ['meta'], (k, v) => fieldClause(b, op, ['meta', k], v));
}

/** The statement for one IR. Unknown ops cannot be written as a verb and are an internal error. */
export function irToAst(ir: IR): A.Statement {
  const o = ir as unknown as JsonObject;
  const op = o.op as Op;
  const verbName = VERB_OF_OP[op];
  if (!verbName) throw new Error(`irToAst: unknown op ${JSON.stringify(o.op)} (validate the IR first)`);
  const b = new Builder();
  let binding: A.Binding | undefined;
  for (const [k, v] of Object.entries(o)) {
    switch (k) {
      case 'op': break;
      case LET_KEY:
        if (typeof v === 'string' && REF_NAME_PATTERN.test(v)) binding = { kind: 'Binding', name: v, nameLoc: loc, loc };
        else b.with([k], v);
        break;
      case 'stage': if (v !== STAGE_OF[op]) b.value('STAGE', v); break;
      case 'target': target(b, v); break;
      case 'args': args(b, op, v); break;
      case 'meta': meta(b, op, v); break;
      default: if (!fieldClause(b, op, [k], v)) b.with([k], v);
    }
  }
  const clauses: A.Clause[] = [];
  if (b.search || b.conditions.length) {
    const conditions = sortConditions(b.search ? [b.search, ...b.conditions] : b.conditions);
    clauses.push({ kind: 'WhereClause', conditions, limit: b.filterLimit, loc });
  }
  clauses.push(...b.clauses);
  if (b.payload.length) clauses.push({ kind: 'ValueClause', keyword: PAYLOAD, keywordLoc: loc, value: { kind: 'Object', entries: b.payload, loc }, loc });
  if (b.sets.length) clauses.push({ kind: 'SetClause', assignments: b.sets, loc });
  clauses.push(...b.withs);
  return {
    kind: 'Statement',
    ...(binding ? { binding } : {}),
    verb: { kind: 'Verb', name: verbName, loc },
    text: b.text,
    clauses,
    leadingComments: [],
    loc,
  };
}

/** A script with one statement per IR. */
export function irsToScript(irs: readonly IR[]): A.Script {
  return { kind: 'Script', statements: irs.map(irToAst), trailingComments: [], loc };
}
