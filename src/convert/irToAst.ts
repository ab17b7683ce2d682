/**
 * `irToAst`: one IR → one Statement. Every field gets the most readable clause that can carry
 * its value exactly; whatever no clause can carry (unknown keys, empty objects, odd value types)
 * is written with `SET k = v` (args) or `WITH a.b = v` (any path), so IR → DSL → IR is the
 * identity for any JSON IR, valid or not.
 */
import type { Range } from '../diagnostics/diagnostic.js';
import { STAGE_OF, type IR, type Op } from '../ir/schema.js';
import type * as A from '../syntax/ast.js';
import { DURATION_PATTERN, IDENTIFIER_PATTERN, keywordToken } from '../../grammar/tokens.js';
import { sortConditions } from './clauses.js';
import { VERB_OF_OP } from '../language/index.js';

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
    this.clauses.push({ kind: 'ValueClause', keyword, keywordLoc: loc, value: jsonToValue(value), loc });
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
        if (Array.isArray(v)) b.clauses.push({ kind: 'IdsClause', values: valueList(v), loc });
        else b.clauses.push({ kind: 'IdClause', value: jsonToValue(v), loc });
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
    switch (k) {
      case 'has_tags':
      case 'not_tags':
        if (Array.isArray(v)) {
          b.condition('tags', k === 'has_tags' ? 'HAS' : 'NOT HAS', { values: valueList(v) });
          continue;
        }
        break;
      case 'time_range': {
        const range = timeRange(v);
        if (range) {
          b.condition('time', 'RANGE', { range });
          continue;
        }
        break;
      }
      case 'weight_gte': b.condition('weight', '>=', { value: jsonToValue(v) }); continue;
      case 'weight_lte': b.condition('weight', '<=', { value: jsonToValue(v) }); continue;
      case 'expire_before': b.condition('expires', 'BEFORE', { value: jsonToValue(v) }); continue;
      case 'expire_after': b.condition('expires', 'AFTER', { value: jsonToValue(v) }); continue;
      case 'limit':
        // The trailing LIMIT needs a filter condition before it, or it would limit the search.
        if (others.length) {
          b.filterLimit = jsonToValue(v);
          continue;
        }
        break;
    }
    b.condition(k, '=', { value: jsonToValue(v) });
  }
}

function search(b: Builder, s: Json): void {
  let query: A.StringValue | undefined;
  const options: A.SearchOption[] = [];
  const option = (name: A.SearchOptionName, v: Json) => options.push({ kind: 'SearchOption', name, value: jsonToValue(v), loc });
  b.level(s, ['target', 'search'], (k, v) => {
    switch (k) {
      case 'intent':
        b.level(v, ['target', 'search', 'intent'], (ik, iv) => {
          if (ik === 'query' && typeof iv === 'string') query = { kind: 'String', value: iv, loc };
          else if (ik === 'vector') option('VECTOR', iv);
          else if (ik === 'context') option('CONTEXT', iv);
          else return false;
          return true;
        });
        return true;
      case 'overrides':
        b.level(v, ['target', 'search', 'overrides'], (ok, ov) => {
          if (ok === 'k') option('K', ov);
          else if (ok === 'alpha') option('ALPHA', ov);
          else if (ok === 'order_by') option('ORDER BY', ov);
          else return false;
          return true;
        });
        return true;
      case 'limit':
        option('LIMIT', v);
        return true;
    }
    return false;
  });
  if (query || options.length) b.search = { kind: 'SearchCondition', query, options, loc };
}

/** Verb-specific args that have their own clause; returns false when the value does not fit. */
function argClause(b: Builder, op: Op, k: string, v: Json): boolean {
  const any = (keyword: A.ValueKeyword) => (b.value(keyword, v), true);
  switch (op) {
    case 'Encode':
      switch (k) {
        case 'type': return any('TYPE');
        case 'time': return any('TIME');
        case 'source': return any('SOURCE');
        case 'subject': return any('SUBJECT');
        case 'location': return any('LOCATION');
        case 'topic': return any('TOPIC');
        case 'facets': return any('FACETS');
        case 'tags': return Array.isArray(v) && (b.list('TAGS', v), true);
        case 'payload': {
          if (!isObject(v) || Object.keys(v).length === 0) return false;
          for (const [pk, pv] of Object.entries(v)) {
            if (pk === 'text' && typeof pv === 'string') b.text = { kind: 'String', value: pv, loc };
            else if (pk === 'url') b.value('URL', pv);
            else if (pk === 'structured') b.value('STRUCTURED', pv);
            else b.payload.push({ kind: 'Entry', key: key(pk), value: jsonToValue(pv), loc });
          }
          return true;
        }
      }
      return false;
    case 'Label':
      if (k === 'tags') return Array.isArray(v) && (b.list('TAGS', v), true);
      if (k === 'facets') return any('FACETS');
      if (k === 'mode') return any('MODE');
      return false;
    case 'Promote':
      if (k === 'weight_delta') return any('BY');
      if (k === 'reason') return any('REASON');
      if (k === 'remind') {
        if (!isObject(v) || Object.keys(v).length === 0 || Object.keys(v).some((x) => x !== 'rrule' && x !== 'until')) return false;
        if (has(v, 'rrule')) b.value('REMIND', v.rrule);
        if (has(v, 'until')) b.value('UNTIL', v.until);
        return true;
      }
      return false;
    case 'Demote':
      if (k === 'weight_delta') return any('BY');
      if (k === 'reason') return any('REASON');
      if (k === 'archive') return v === true && (b.flag('ARCHIVE'), true);
      return false;
    case 'Merge':
      if (k === 'primary_id') return any('INTO');
      if (k === 'strategy') return any('STRATEGY');
      return false;
    case 'Split':
      return k === 'strategy' && any('STRATEGY');
    case 'Lock':
      if (k === 'mode') return any('MODE');
      if (k === 'reason') return any('REASON');
      if (k === 'policy') return any('POLICY');
      return false;
    case 'Expire':
      if (k === 'ttl') return any('TTL');
      if (k === 'until') return any('UNTIL');
      if (k === 'on_expire') return any('THEN');
      if (k === 'reason') return any('REASON');
      return false;
    case 'Delete':
      if (k === 'soft') return typeof v === 'boolean' && (b.flag(v ? 'SOFT' : 'HARD'), true);
      if (k === 'reason') return any('REASON');
      if (k === 'older_than') return (b.clauses.push({ kind: 'OlderThanClause', value: jsonToValue(v), loc }), true);
      if (k === 'time_range') {
        const range = timeRange(v);
        return !!range && (b.clauses.push({ kind: 'WithinClause', range, loc }), true);
      }
      return false;
    case 'Retrieve':
      return k === 'include' && Array.isArray(v) && (b.list('INCLUDE', v), true);
    case 'Summarize':
      if (k === 'focus') return any('FOCUS');
      if (k === 'max_tokens') return (b.clauses.push({ kind: 'MaxTokensClause', value: jsonToValue(v), loc }), true);
      return false;
  }
  return false;
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
  for (const [k, v] of Object.entries(a)) if (!argClause(b, op, k, v)) b.set(k, v);
}

function meta(b: Builder, m: Json): void {
  b.level(m, ['meta'], (k, v) => {
    switch (k) {
      case 'actor': b.value('AS', v); return true;
      case 'lang': b.value('LANG', v); return true;
      case 'trace_id': b.value('TRACE', v); return true;
      case 'timestamp': b.value('AT', v); return true;
      case 'dry_run': return v === true && (b.flag('DRY RUN'), true);
      case 'confirmation': return v === true && (b.flag('CONFIRM'), true);
    }
    return false;
  });
}

/** The statement for one IR. Unknown ops cannot be written as a verb and are an internal error. */
export function irToAst(ir: IR): A.Statement {
  const o = ir as unknown as JsonObject;
  const op = o.op as Op;
  const verbName = VERB_OF_OP[op];
  if (!verbName) throw new Error(`irToAst: unknown op ${JSON.stringify(o.op)} (validate the IR first)`);
  const b = new Builder();
  for (const [k, v] of Object.entries(o)) {
    switch (k) {
      case 'op': break;
      case 'stage': if (v !== STAGE_OF[op]) b.value('STAGE', v); break;
      case 'target': target(b, v); break;
      case 'args': args(b, op, v); break;
      case 'meta': meta(b, v); break;
      case '_comment': b.value('COMMENT', v); break;
      default: b.with([k], v);
    }
  }
  const clauses: A.Clause[] = [];
  if (b.search || b.conditions.length) {
    const conditions = sortConditions(b.search ? [b.search, ...b.conditions] : b.conditions);
    clauses.push({ kind: 'WhereClause', conditions, limit: b.filterLimit, loc });
  }
  clauses.push(...b.clauses);
  if (b.payload.length) clauses.push({ kind: 'ValueClause', keyword: 'PAYLOAD', keywordLoc: loc, value: { kind: 'Object', entries: b.payload, loc }, loc });
  if (b.sets.length) clauses.push({ kind: 'SetClause', assignments: b.sets, loc });
  clauses.push(...b.withs);
  return {
    kind: 'Statement',
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
