/**
 * `astToIr`: Script AST → one JSON IR per statement, plus a SourceMap per statement that ties
 * every emitted value (and the name of every field, as `<path>#key`) to the span that produced
 * it. Values are kept as written: no normalisation happens here.
 */
import type { Code, Diagnostic, Range } from '../diagnostics/diagnostic.js';
import { LazySourceMap, type SourceMap } from '../diagnostics/sourceMap.js';
import { plainDiagnostic, plainRange } from '../diagnostics/sourceRange.js';
import { closest } from '../diagnostics/suggest.js';
import type * as A from '../syntax/ast.js';
import { CONDITION_OPERATORS, LET_KEY, REF_KEY, OP_OF_VERB, SEARCH_OPTIONS, SEARCH_QUERY_PATH, STAGE_OF, VERB_TEXT, clausePath, clauseSpec, clauseVerbs, oneOffRule, type Op } from '../language/index.js';

export type { SourceMap };

export interface AstToIrResult {
  readonly irs: unknown[];
  readonly sourceMaps: SourceMap[];
  /** Clauses a verb does not take, fields set twice, conditions on unknown fields. */
  readonly diagnostics: Diagnostic[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Own-property assignment, so a key such as `__proto__` is data, as in JSON.parse. Only
 * `__proto__` is an accessor of Object.prototype; any other key is assigned plainly (defining
 * every property would leave the objects in V8's slow dictionary mode).
 */
function setOwn(o: JsonObject, key: string, value: Json): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

function joinPath(parent: string, key: string | number): string {
  return parent === '' ? String(key) : `${parent}.${key}`;
}

/** The keys of the (few, vocabulary) dotted paths `has` is asked about, split once. */
const SPLIT = new Map<string, readonly string[]>();

/**
 * Builds one statement's IR. With a `map` it records the span of every value it writes (the
 * source map); without one (the happy path) it writes the IR alone and builds no path strings,
 * and the statement's source map is built later, by running it again with a map, only if
 * something asks for a range (see `LazySourceMap`).
 */
class StatementBuilder {
  readonly ir: JsonObject = {};

  constructor(
    private readonly diagnostics: Diagnostic[],
    private readonly statement: number,
    readonly map: SourceMap | undefined,
  ) {}

  error(code: Code, message: string, range: Range, extra: Partial<Diagnostic> = {}): void {
    this.diagnostics.push({ code, severity: 'error', message, range, statement: this.statement, ...extra });
  }

  /** Records the span of `path` (when recording). */
  mark(path: string, loc: Range): void {
    this.map?.set(path, loc);
  }

  /**
   * Whether a value was written at the dotted `path` (a path of vocabulary keys, which hold no
   * dots). Every value written is mapped, so with a map this is one lookup; without one the IR
   * is read.
   */
  has(path: string): boolean {
    if (this.map) return this.map.has(path);
    let v: Json | undefined = this.ir;
    let keys = SPLIT.get(path);
    if (keys === undefined) SPLIT.set(path, (keys = path.split('.')));
    for (const k of keys) {
      if (!isObject(v) || !Object.prototype.hasOwnProperty.call(v, k)) return false;
      v = v[k];
    }
    return true;
  }

  /** JSON of a value node; when recording, the span of every element and entry under `path`. */
  json(v: A.Value, path: string): Json {
    if (!this.map) return this.plain(v);
    this.map.set(path, v.loc);
    switch (v.kind) {
      case 'String': case 'DateTime': case 'Duration': case 'Identifier': return v.value;
      case 'Number': case 'Boolean': return v.value;
      case 'Null': return null;
      // A reference (`$n`) is the extension's object; the checker judges where it stands.
      case 'Ref': return { [REF_KEY]: v.name };
      case 'List': return v.items.map((item, i) => this.json(item, joinPath(path, i)));
      case 'Object': {
        const o: JsonObject = {};
        for (const e of v.entries) {
          const p = joinPath(path, e.key.name);
          if (Object.prototype.hasOwnProperty.call(o, e.key.name)) {
            this.error('duplicate-key', `Key '${e.key.name}' appears twice in this object.`, e.key.loc, { path: p });
            continue;
          }
          this.map.set(`${p}#key`, e.key.loc);
          setOwn(o, e.key.name, this.json(e.value, p));
        }
        return o;
      }
    }
  }

  /** `json` without a map: no paths. A key written twice is reported (without a path: the statement is then built again with its map, which reports it fully). */
  private plain(v: A.Value): Json {
    switch (v.kind) {
      case 'String': case 'DateTime': case 'Duration': case 'Identifier': return v.value;
      case 'Number': case 'Boolean': return v.value;
      case 'Null': return null;
      case 'Ref': return { [REF_KEY]: v.name };
      case 'List': {
        const out: Json[] = new Array(v.items.length);
        for (let i = 0; i < v.items.length; i++) out[i] = this.plain(v.items[i]);
        return out;
      }
      case 'Object': {
        const o: JsonObject = {};
        const entries = v.entries;
        for (let i = 0; i < entries.length; i++) {
          const e = entries[i];
          if (Object.prototype.hasOwnProperty.call(o, e.key.name)) {
            this.error('duplicate-key', `Key '${e.key.name}' appears twice in this object.`, e.key.loc);
            continue;
          }
          setOwn(o, e.key.name, this.plain(e.value));
        }
        return o;
      }
    }
  }

  /** The object at `path` (its first `length` keys; created if absent), or undefined after reporting a conflict. */
  object(path: readonly string[], loc: Range, length = path.length): JsonObject | undefined {
    return this.walk(path, loc, length) ? this.reached : undefined;
  }

  /** The object `walk` reached last, and its dotted path (when recording). */
  private reached: JsonObject = this.ir;
  private reachedPath = '';

  /**
   * Walks (creating what is absent) to the object at the first `length` keys of `path`, leaving
   * it in `reached` (and, when recording, its dotted path in `reachedPath`); false after
   * reporting a conflict.
   */
  private walk(path: readonly string[], loc: Range, length: number): boolean {
    let o = this.ir;
    let p = '';
    const map = this.map;
    for (let i = 0; i < length; i++) {
      const key = path[i];
      if (map) p = p === '' ? key : `${p}.${key}`;
      if (!Object.prototype.hasOwnProperty.call(o, key)) {
        setOwn(o, key, {});
        if (map && !map.has(p)) map.set(p, loc);
      }
      const next = o[key];
      if (!isObject(next)) {
        const at = path.slice(0, i + 1).join('.');
        this.error('conflicting-fields', `'${at}' is already set to a non-object value, so it cannot hold fields.`, loc, { path: at });
        return false;
      }
      o = next;
    }
    this.reached = o;
    this.reachedPath = p;
    return true;
  }

  /**
   * Sets the field at `path` (then `last`, when given, so that a caller adding a key to a
   * vocabulary path need not copy it) to the value node, reporting a field set twice.
   */
  set(path: readonly string[], value: A.Value, loc: Range, keyLoc?: Range, last?: string): void {
    const key = this.parentOf(path, last, loc, keyLoc);
    if (key === undefined) return;
    const map = this.map;
    if (!map) {
      setOwn(this.reached, key, this.plain(value));
      return;
    }
    const parent = this.reached;
    const p = this.reachedPath === '' ? key : `${this.reachedPath}.${key}`;
    setOwn(parent, key, this.json(value, p));
    if (keyLoc) map.set(`${p}#key`, keyLoc);
  }

  /** `set` for a value that is no node (the op, the stage by default, a flag, a name). */
  setJson(path: readonly string[], value: Json, loc: Range, keyLoc?: Range, last?: string): void {
    const key = this.parentOf(path, last, loc, keyLoc);
    if (key === undefined) return;
    setOwn(this.reached, key, value);
    const map = this.map;
    if (!map) return;
    const p = this.reachedPath === '' ? key : `${this.reachedPath}.${key}`;
    map.set(p, loc);
    if (keyLoc) map.set(`${p}#key`, keyLoc);
  }

  /**
   * Walks (creating what is absent) to the parent of the field at `path` (+ `last`), leaving it
   * in `reached`, and returns the field's key; undefined after reporting a conflict or a field
   * set twice.
   */
  private parentOf(path: readonly string[], last: string | undefined, loc: Range, keyLoc: Range | undefined): string | undefined {
    const depth = last === undefined ? path.length - 1 : path.length;
    if (!this.walk(path, loc, depth)) return undefined;
    const key = last ?? path[depth];
    if (!Object.prototype.hasOwnProperty.call(this.reached, key)) return key;
    const p = last === undefined ? path.join('.') : [...path, last].join('.');
    const map = this.map;
    this.error('duplicate-field', `'${p}' is set twice.`, keyLoc ?? loc, {
      path: p,
      related: map?.has(p) ? [{ message: 'first set here', range: map.get(p)! }] : [],
    });
    return undefined;
  }

  /** Appends list items to the array at `path` (so `tags HAS a AND tags HAS b` means both). */
  append(path: readonly string[], key: string, values: A.ValueList, keyLoc: Range): void {
    const parent = this.object(path, values.loc);
    if (!parent) return;
    const existing = parent[key];
    if (!Array.isArray(existing)) return this.set(path, listNode(values), values.loc, keyLoc, key);
    const p = this.map ? `${path.join('.')}.${key}` : '';
    values.items.forEach((item) => existing.push(this.json(item, this.map ? joinPath(p, existing.length) : '')));
  }
}

function listNode(values: A.ValueList): A.ListValue {
  return { kind: 'List', items: values.items, loc: values.loc };
}

/** The vocabulary's paths the conversion writes to, built once. */
const STAGE = ['stage'];
const OP = ['op'];
const LET_PATH = [LET_KEY];
const IDS = ['target', 'ids'];
const ALL = ['target', 'all'];
const FILTER = ['target', 'filter'];
const FACETS = ['target', 'filter', 'facets'];
const SEARCH_QUERY = ['target', 'search', ...SEARCH_QUERY_PATH];
const SEARCH_OPTION_PATHS = Object.fromEntries(Object.entries(SEARCH_OPTIONS).map(([name, o]) => [name, ['target', 'search', ...o.path]])) as unknown as Record<A.SearchOptionName, readonly string[]>;
const ARGS = ['args'];
const UPDATE_SET = ['args', 'set'];

function rangeToIr(b: StatementBuilder, base: readonly string[], r: A.TimeRange): void {
  b.object(base, r.loc);
  if (r.relative) {
    const { relative } = r;
    b.setJson(base, relative.direction, relative.loc, undefined, 'relative');
    b.set(base, relative.amount, relative.amount.loc, undefined, 'amount');
    b.setJson(base, relative.unit, relative.unitLoc, undefined, 'unit');
  }
  if (r.from) b.set(base, r.from, r.from.loc, undefined, 'start');
  if (r.to) b.set(base, r.to, r.to.loc, undefined, 'end');
}

function whereToIr(b: StatementBuilder, w: A.WhereClause): void {
  const targetBefore = b.has('target');
  let rejected = false;
  for (const c of w.conditions) {
    if (c.kind === 'SearchCondition') {
      b.object(['target', 'search'], c.loc);
      if (c.query) b.set(SEARCH_QUERY, c.query, c.query.loc);
      for (const o of c.options) b.set(SEARCH_OPTION_PATHS[o.name], o.value, o.loc);
      continue;
    }
    const field = c.field.name;
    if (c.subField) {
      // `facets.status = "open"` is `facets = { status: "open" }`, one facet at a time.
      const loc: Range = { start: c.field.loc.start, end: c.subField.loc.end };
      if (field !== 'facets') {
        b.error('invalid-condition', `A dotted field names one facet: write facets.${c.subField.name}, not ${field}.${c.subField.name}.`, loc, {
          fix: { message: `replace with 'facets.${c.subField.name}'`, edits: [{ range: c.field.loc, newText: 'facets' }] },
        });
        rejected = true;
      } else if (c.operator !== '=') {
        b.error('invalid-condition', `A facet condition matches a value exactly: facets.${c.subField.name} = value.`, c.operatorLoc);
        rejected = true;
      } else b.set(FACETS, c.value!, c.loc, loc, c.subField.name);
      continue;
    }
    if (c.operator === '=') {
      b.set(FILTER, c.value!, c.loc, c.field.loc, field);
      continue;
    }
    const { field: wanted, key } = CONDITION_OPERATORS[c.operator];
    if (field !== wanted) {
      const op = c.operator === 'RANGE' ? 'a time range' : c.operator;
      const misspelt = closest(field, [wanted]) !== undefined;
      const hint = misspelt ? `; did you mean '${wanted}'?` : `. Write \`${field} = value\` to match a field exactly.`;
      b.error('invalid-condition', `${op} applies to '${wanted}', not '${field}'${hint}`, c.field.loc, {
        fix: misspelt ? { message: `replace with '${wanted}'`, edits: [{ range: c.field.loc, newText: wanted }] } : undefined,
      });
      rejected = true;
      continue;
    }
    if (c.values) b.append(FILTER, key, c.values, c.field.loc);
    else if (c.range) {
      if (b.has(`target.filter.${key}`)) {
        b.error('duplicate-field', `'target.filter.${key}' is set twice.`, c.loc, { path: `target.filter.${key}` });
      } else rangeToIr(b, [...FILTER, key], c.range);
    } else b.set(FILTER, c.value!, c.loc, c.field.loc, key);
  }
  if (w.limit) b.set(FILTER, w.limit, w.limit.loc, undefined, 'limit');
  // The target and its filter were written as the whole WHERE clause: diagnostics about them
  // (a write without a limit, no match) underline all of it, not the condition that came first.
  if (!targetBefore && b.has('target')) b.mark('target', w.loc);
  if (b.has('target.filter')) b.mark('target.filter', w.loc);
  // The statement was written with a WHERE target: keep one (empty) so that the checker does not
  // add "needs a target" to the rejected condition's own error.
  if (rejected && !b.has('target.filter') && !b.has('target.search')) b.object(['target', 'filter'], w.loc);
}

function notAllowed(b: StatementBuilder, keyword: string, verb: A.VerbName, loc: Range): void {
  const verbs = clauseVerbs(keyword);
  // The usual cause in UPDATE is a second assignment without a comma (`SET text = "a" tags = […]`).
  const hint = verb === 'UPDATE' ? ` To set ${keyword.toLowerCase()}, add it to SET after a comma: SET text = "…", ${keyword.toLowerCase()} = ….` : '';
  b.error('clause-not-allowed', `${verb} does not take ${keyword}${verbs.length ? ` (${keyword} belongs to ${verbs.join(', ')})` : ''}.${hint}`, loc);
}

/** The IR path of a clause in `op`'s statements, or undefined after reporting that the verb does not take it. */
function targetPath(b: StatementBuilder, op: Op, verb: A.VerbName, keyword: string, loc: Range): readonly string[] | undefined {
  const path = clausePath(keyword, op);
  if (!path) notAllowed(b, keyword, verb, loc);
  return path;
}

function statementToIr(s: A.Statement, index: number, diagnostics: Diagnostic[], map: SourceMap | undefined): JsonObject {
  const b = new StatementBuilder(diagnostics, index, map);
  const op: Op = OP_OF_VERB[s.verb.name];
  const verb = s.verb.name;
  b.mark('', s.loc);
  if (s.binding) b.setJson(LET_PATH, s.binding.name, s.binding.nameLoc, s.binding.loc);
  let stageClause: A.ValueClause | undefined;
  const clauses = s.clauses;
  // Indexed loops on the hot paths: `for … of` allocated an iterator result per item there.
  for (let i = 0; i < clauses.length; i++) {
    const c = clauses[i];
    if (c.kind === 'ValueClause' && c.keyword === 'STAGE') stageClause ??= c;
  }
  if (stageClause) b.set(STAGE, stageClause.value, stageClause.loc, stageClause.keywordLoc);
  else b.setJson(STAGE, STAGE_OF[op], s.verb.loc);
  b.setJson(OP, op, s.verb.loc);

  if (s.text) {
    const textPath = VERB_TEXT[op];
    if (textPath) b.set(textPath, s.text, s.text.loc);
    else b.error('clause-not-allowed', `Only ENCODE starts with a text; ${verb} selects memories with ID, IDS, WHERE or ALL.`, s.text.loc);
  }


  for (let i = 0; i < clauses.length; i++) {
    const c = clauses[i];
    switch (c.kind) {
      case 'IdClause': b.set(IDS, c.value, c.loc); break;
      case 'IdsClause': b.set(IDS, listNode(c.values), c.loc); break;
      case 'AllClause': b.setJson(ALL, true, c.loc); break;
      case 'WhereClause': whereToIr(b, c); break;
      case 'ValueClause': {
        if (c.keyword === 'STAGE') {
          if (c !== stageClause) b.error('duplicate-field', "'stage' is set twice.", c.keywordLoc, { path: 'stage' });
          break;
        }
        const path = targetPath(b, op, verb, c.keyword, c.keywordLoc);
        if (!path) break;
        if (clauseSpec(c.keyword)!.merge) {
          if (c.value.kind !== 'Object') {
            b.error('expected-object', `${c.keyword} takes an object of payload fields, e.g. ${c.keyword} { context: "..." }.`, c.value.loc);
            break;
          }
          b.object(path, c.loc);
          const entries = c.value.entries;
          for (let j = 0; j < entries.length; j++) b.set(path, entries[j].value, entries[j].loc, entries[j].key.loc, entries[j].key.name);
          break;
        }
        // `REMIND <date-time>`: one reminder, the rule that fires once then (src/language/remind.ts).
        const once = c.keyword === 'REMIND' && c.value.kind === 'DateTime' ? oneOffRule(c.value.value) : undefined;
        b.set(path, once ? { kind: 'String', value: once, loc: c.value.loc } : c.value, c.loc, c.keywordLoc);
        break;
      }
      case 'ListClause': {
        const path = targetPath(b, op, verb, c.keyword, c.keywordLoc);
        if (path) b.set(path, listNode(c.values), c.loc, c.keywordLoc);
        break;
      }
      case 'MaxTokensClause': {
        const path = targetPath(b, op, verb, 'MAX', c.loc);
        if (path) b.set(path, c.value, c.loc);
        break;
      }
      case 'OlderThanClause': {
        const path = targetPath(b, op, verb, 'OLDER', c.loc);
        if (path) b.set(path, c.value, c.loc);
        break;
      }
      case 'WithinClause': {
        const path = targetPath(b, op, verb, 'WITHIN', c.loc);
        if (!path) break;
        if (b.has(path.join('.'))) b.error('duplicate-field', `'${path.join('.')}' is set twice.`, c.loc, { path: path.join('.') });
        else rangeToIr(b, path, c.range);
        break;
      }
      case 'FlagClause': {
        const path = clausePath(c.keyword, op);
        if (!path) notAllowed(b, c.keyword, verb, c.loc);
        else b.setJson(path, clauseSpec(c.keyword)!.value!, c.loc);
        break;
      }
      case 'SetClause': {
        const base = op === 'Update' ? UPDATE_SET : ARGS;
        b.object(base, c.loc);
        for (const a of c.assignments) b.set(base, a.value, a.loc, a.key.loc, a.key.name);
        break;
      }
      case 'WithClause': {
        const path = c.path.map((k) => k.name);
        b.set(path, c.value, c.loc, c.path[c.path.length - 1].loc);
        break;
      }
    }
  }
  return ordered(b.ir);
}

const TOP_ORDER = ['stage', 'op', 'target', 'args', 'meta', '_comment', LET_KEY];
function ordered(ir: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (let i = 0; i < TOP_ORDER.length; i++) {
    const k = TOP_ORDER[i];
    if (Object.prototype.hasOwnProperty.call(ir, k)) setOwn(out, k, ir[k]);
  }
  // Keys beyond those (from `WITH`) are rare: the usual IR has none left to copy.
  for (const k in ir) if (Object.prototype.hasOwnProperty.call(ir, k) && !TOP_ORDER.includes(k)) setOwn(out, k, ir[k]);
  return out;
}

/**
 * Converts each statement of a script to its IR (plain JSON) and source map. A statement with
 * nothing to report is converted without its map, which is built from its AST when first read
 * (a `LazySourceMap`); one with diagnostics is converted again with its map, so that they carry
 * their paths and related ranges, and gets that map built. `eager` builds every map in the one
 * pass (the reference the lazy maps are tested against).
 */
export function astToIr(script: A.Script, options: { readonly eager?: boolean } = {}): AstToIrResult {
  const diagnostics: Diagnostic[] = [];
  const irs: unknown[] = [];
  const sourceMaps: SourceMap[] = [];
  script.statements.forEach((s, i) => {
    const before = diagnostics.length;
    const ir = options.eager ? undefined : statementToIr(s, i, diagnostics, undefined);
    if (ir && diagnostics.length === before) {
      irs.push(ir);
      // Its entries keep the AST's ranges; the map makes each plain when it is read.
      sourceMaps.push(new LazySourceMap((into) => void statementToIr(s, i, [], into)));
      return;
    }
    diagnostics.length = before;
    const map: SourceMap = new Map();
    irs.push(statementToIr(s, i, diagnostics, map));
    sourceMaps.push(plainEntries(map));
  });
  // The AST's ranges compute their positions when read (SourceRange); what leaves as data is plain.
  return { irs, sourceMaps, diagnostics: diagnostics.map(plainDiagnostic) };
}

/** The source map of one statement, built eagerly (its IR and diagnostics are dropped). */
export function statementSourceMap(s: A.Statement, index: number): SourceMap {
  return plainEntries(statementEntries(s, index));
}

/** `statementSourceMap` with the AST's ranges as they are. */
function statementEntries(s: A.Statement, index: number): SourceMap {
  const map: SourceMap = new Map();
  statementToIr(s, index, [], map);
  return map;
}

/** The map with its ranges made plain data (in place: setting a key again keeps its order). */
function plainEntries(map: SourceMap): SourceMap {
  for (const [k, r] of map) map.set(k, plainRange(r));
  return map;
}
